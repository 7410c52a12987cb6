package catalog_test

import (
	"fmt"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpfleet/mcpfleet/catalog"
	"github.com/mcpfleet/mcpfleet/catalog/internal/catalogtest"
	"github.com/mcpfleet/mcpfleet/kindgroups"
)

// synthetic replicates the real fleet's tools under distinct names until
// the catalog holds at least n tools.
func synthetic(b *testing.B, n int) *catalog.Catalog {
	b.Helper()
	var base []mcp.Tool
	seen := map[string]bool{}
	for _, s := range catalogtest.Fleet(b) {
		for _, t := range s.Tools {
			if !seen[t.Name] {
				seen[t.Name] = true
				base = append(base, t)
			}
		}
	}
	var servers []kindgroups.Server
	for i := 0; len(servers)*len(base) < n; i++ {
		tools := make([]mcp.Tool, len(base))
		for j, t := range base {
			t.Name = fmt.Sprintf("%s_v%d", t.Name, i)
			tools[j] = t
		}
		servers = append(servers, kindgroups.Server{Name: fmt.Sprintf("srv-%02d", i), Kind: fmt.Sprintf("kind%02d", i), Tools: tools})
	}
	return catalog.Build(servers, catalog.Config{})
}

func BenchmarkSearch(b *testing.B) {
	queries := []string{"why is payments crashlooping", "who merged the pool change",
		"show me p99 latency for checkout", "search the logs for OOMKilled", "open a jira ticket for the outage"}
	run := func(b *testing.B, c *catalog.Catalog) {
		ctx := catalog.WithScopes(b.Context(), "*")
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			c.Search(ctx, queries[i%len(queries)], 5)
			i++
		}
	}
	// The -bm25 variants turn the reranker off: the ratio is its cost.
	for _, rerank := range []bool{true, false} {
		suffix := ""
		if !rerank {
			suffix = "-bm25"
		}
		b.Run("fleet"+suffix, func(b *testing.B) {
			c := catalogtest.BuildFleet(b)
			if !rerank {
				c.SetRerankWeightsForTest(nil)
			}
			run(b, c)
		})
		b.Run("10k"+suffix, func(b *testing.B) {
			c := synthetic(b, 10000)
			if n := len(c.Entries()); n < 10000 {
				b.Fatalf("%d entries", n)
			}
			if !rerank {
				c.SetRerankWeightsForTest(nil)
			}
			run(b, c)
		})
	}
	b.Run("session", func(b *testing.B) {
		c := catalogtest.BuildFleet(b)
		s, err := c.NewSession(catalog.SessionConfig{Scopes: []string{"read"}, Mode: "on"})
		if err != nil {
			b.Fatal(err)
		}
		b.ReportAllocs()
		for b.Loop() {
			s.Search(b.Context(), "who is on call right now", 5)
		}
	})
}

func BenchmarkCatalogBlock(b *testing.B) {
	c := catalogtest.BuildFleet(b)
	cfg := catalog.SessionConfig{Scopes: []string{"*"}, Mode: "on"}
	// cold renders for a new session each time; cached repeats a render
	// with no load in between.
	b.Run("cold", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			s, err := c.NewSession(cfg)
			if err != nil {
				b.Fatal(err)
			}
			s.CatalogBlock()
		}
	})
	b.Run("cached", func(b *testing.B) {
		s, err := c.NewSession(cfg)
		if err != nil {
			b.Fatal(err)
		}
		b.ReportAllocs()
		for b.Loop() {
			s.CatalogBlock()
		}
	})
}
