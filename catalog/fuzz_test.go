package catalog_test

import (
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpfleet/mcpfleet/catalog"
	"github.com/mcpfleet/mcpfleet/catalog/internal/catalogtest"
	"github.com/mcpfleet/mcpfleet/catalog/tuning"
)

func FuzzGenerateLine(f *testing.F) {
	for _, s := range []string{"", "List pods.", "## **x** `y`\n- z: {\"a\": [1]}", "see https://x.y/(z)", strings.Repeat("ü", 300), "e.g. i.e. etc. vs."} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, desc string) {
		l := catalog.GenerateLine(mcp.Tool{Name: "fuzz_tool", Description: desc})
		if l == "" || utf8.RuneCountInString(l) > catalog.MaxLineLen {
			t.Fatalf("line %q (%d runes) for %q", l, utf8.RuneCountInString(l), desc)
		}
	})
}

func FuzzSearchAndLoad(f *testing.F) {
	c := codeCatalog(catalog.Config{Synonyms: map[string]string{"jump there": "symbol", "x": "pod logs"}})
	for _, s := range []string{"find_symbol", "code.find_symbol", "lsp.", ".", "restart pods", "ÄÖÜ_x-y", "a.b.c",
		"!1", "#", "@a", "OPS-1", "A-", "-1", "bounce it", "jump there", "open a", "drop a",
		`up{job="x"}`, "log 2h30m", "log 2h3", "a/b/c", "/a/b", "kube_pod_x_y", "merged", "I'll merge", "get rid of", "sum(", "x{=}"} {
		f.Add(s, 3)
	}
	f.Fuzz(func(t *testing.T, q string, k int) {
		ctx := catalog.WithScopes(t.Context(), "read")
		hits := c.Search(ctx, q, k)
		if len(hits) > catalog.MaxK {
			t.Fatalf("%d hits", len(hits))
		}
		for _, h := range hits {
			if h.Tool == "restart_pod" {
				t.Fatalf("read scope found a write tool for %q", q)
			}
		}
		s, err := c.NewSession(catalog.SessionConfig{Mode: "on"})
		if err != nil {
			t.Fatal(err)
		}
		res, _ := s.Load([]string{q})
		for _, n := range append(res.Loaded, res.AlreadyActive...) {
			if strings.Contains(n, "restart_pod") {
				t.Fatalf("loaded %q", n)
			}
		}
		_ = s.Allow(q, q)
	})
}

// TestSessionConcurrent exercises a session from many goroutines; run
// with -race.
func TestSessionConcurrent(t *testing.T) {
	c := catalogtest.BuildFleet(t)
	s, err := c.NewSession(catalog.SessionConfig{Servers: []string{"k8s-1"}, Mode: "on"})
	if err != nil {
		t.Fatal(err)
	}
	tools := []string{"pods_top", "nodes_top", "k8s-2.pods_get", "execute_query", "search_traces"}
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			s.Load([]string{tools[i%len(tools)]})
			s.Search(t.Context(), "pod memory", 5)
			s.CatalogBlock()
			s.Active()
			s.Deferred()
			_ = s.Allow("k8s-1", "pods_top")
		})
	}
	wg.Wait()
	if err := s.Allow("k8s-3", "pods_top"); err != nil {
		t.Errorf("after concurrent loads: %v", err)
	}
	p := parseBlock(t, s.CatalogBlock())
	if len(p.pairs) != len(s.Deferred()) {
		t.Errorf("block lists %d, deferred %d", len(p.pairs), len(s.Deferred()))
	}
}

// FuzzMineAliases feeds arbitrary request text and labels to the miner:
// whatever it proposes must be a phrase of the requests for a tool the
// catalog has, with counts that add up.
func FuzzMineAliases(f *testing.F) {
	c := codeCatalog(catalog.Config{})
	for _, s := range []string{"find the symbol please", "", "ÄÖÜ_x-y jump", "it's  it's it's", "a b c", "'''", "x:y code:find_symbol"} {
		f.Add(s, "code:find_symbol")
	}
	f.Fuzz(func(t *testing.T, q, expect string) {
		qs := []tuning.Query{
			{Q: q, Expect: []string{expect}, Split: "a"},
			{Q: q, Expect: []string{expect}, Split: "b"},
			{Q: q + " " + q, Expect: []string{expect, "code:find_symbol"}, Split: "c"},
		}
		for _, m := range tuning.MineAliases(c, qs, tuning.MineOptions{}) {
			if _, ok := c.Lookup(m.Kind, m.Tool); !ok {
				t.Fatalf("mined for unknown tool %s.%s", m.Kind, m.Tool)
			}
			if !strings.Contains(strings.ToLower(q), strings.Fields(m.Phrase)[0]) {
				t.Fatalf("phrase %q is not in request %q", m.Phrase, q)
			}
			if m.Queries < 3 || m.Queries > 3 || m.Splits != 3 || m.Precision <= 0 || m.Precision > 1 {
				t.Fatalf("counts %+v", m)
			}
		}
	})
}
