package catalog_test

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpfleet/mcpfleet/catalog"
	"github.com/mcpfleet/mcpfleet/catalog/internal/catalogtest"
	"github.com/mcpfleet/mcpfleet/internal/fixtures"
	"github.com/mcpfleet/mcpfleet/internal/goldenfile"
	"github.com/mcpfleet/mcpfleet/internal/tokens"
	"github.com/mcpfleet/mcpfleet/kindgroups"
)

var (
	reLinesHeader = regexp.MustCompile(`^(\S+) \(servers: ([^)]*)\):$`)
	reToolLine    = regexp.MustCompile(`^- (\S+): (.+)$`)
	reNames       = regexp.MustCompile(`^(\S+) \((?:\d+ servers|server \S+)\): (.*)$`)
	reMore        = regexp.MustCompile(`… and (\d+) more; use searchTools$`)
)

type parsed struct {
	pairs []string       // kind.tool, in block order
	more  map[string]int // kind -> tools counted but not named
}

// parseBlock reads a rendered catalog back into (kind, tool) pairs.
func parseBlock(t *testing.T, block string) parsed {
	t.Helper()
	p := parsed{more: map[string]int{}}
	kind := ""
	for _, l := range strings.Split(strings.TrimRight(block, "\n"), "\n") {
		if m := reLinesHeader.FindStringSubmatch(l); m != nil {
			kind = m[1]
			continue
		}
		if m := reToolLine.FindStringSubmatch(l); m != nil && kind != "" {
			p.pairs = append(p.pairs, kind+"."+m[1])
			continue
		}
		if m := reNames.FindStringSubmatch(l); m != nil {
			kind = ""
			list := m[2]
			if mm := reMore.FindStringSubmatch(list); mm != nil {
				n, _ := strconv.Atoi(mm[1])
				p.more[m[1]] = n
				list = strings.TrimSuffix(strings.TrimSpace(strings.TrimSuffix(list, mm[0])), ",")
			}
			for _, name := range strings.Split(list, ", ") {
				if name = strings.TrimSpace(name); name != "" {
					p.pairs = append(p.pairs, m[1]+"."+name)
				}
			}
			continue
		}
		if kind != "" {
			t.Errorf("unparsed line in kind %s: %q", kind, l)
		}
	}
	return p
}

// smallFleet is three kinds, for readable goldens.
func smallFleet(t *testing.T, budget int) *catalog.Catalog {
	t.Helper()
	prom := fixtures.MustLoad(t, "prometheus")
	slack := fixtures.MustLoad(t, "slack")
	jaeger := fixtures.MustLoad(t, "jaeger")
	cfg := catalogtest.FleetConfig(false)
	cfg.Budget = budget
	kc := cfg.Kinds["prometheus"]
	kc.CatalogLines = map[string]string{"get_targets": "Scrape targets and their health; use when a job stops reporting"}
	cfg.Kinds["prometheus"] = kc
	return catalog.Build([]kindgroups.Server{
		{Name: "prom-eu", Kind: "prometheus", Tools: prom.Tools},
		{Name: "prom-us", Kind: "prometheus", Tools: prom.Tools},
		{Name: "slack", Kind: "slack", Tools: slack.Tools},
		{Name: "tracing", Kind: "tracing", Tools: jaeger.Tools},
	}, cfg)
}

func TestGoldenCatalogBlock(t *testing.T) {
	for _, tc := range []struct {
		name   string
		budget int
	}{
		{"block_lines", 0},
		{"block_names", 300},
		{"block_truncated", 160},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := smallFleet(t, tc.budget)
			s, err := c.NewSession(catalog.SessionConfig{Servers: []string{"prom-eu"}, Mode: "on"})
			if err != nil {
				t.Fatal(err)
			}
			block := s.CatalogBlock()
			goldenfile.CheckNamed(t, tc.name, block)
			if tc.budget > 0 {
				if n := tokens.Count(block); n > tc.budget {
					t.Errorf("block is %d tokens, budget %d", n, tc.budget)
				}
			}
		})
	}
}

// TestGoldenErrors pins the model-facing error texts.
func TestGoldenErrors(t *testing.T) {
	c := catalogtest.BuildFleet(t)
	s, err := c.NewSession(catalog.SessionConfig{Servers: []string{"k8s-1"}, Mode: "on"})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	_, err = s.Load([]string{"pods_lgo", "crashloop", "pods_delete"})
	b.WriteString(err.Error() + "\n\n")
	_, err = s.Load([]string{"nodes_tpo"})
	b.WriteString(err.Error() + "\n\n")
	for _, call := range [][2]string{{"k8s-3", "pods_top"}, {"k8s-1", "pods_delete"}} {
		b.WriteString(s.Allow(call[0], call[1]).Error() + "\n")
	}
	off, err := c.NewSession(catalog.SessionConfig{Servers: []string{"k8s-1"}, Mode: "off"})
	if err != nil {
		t.Fatal(err)
	}
	b.WriteString(off.Allow("k8s-2", "pods_log").Error() + "\n")
	b.WriteString(off.Allow("k8s-2", "pods_delete").Error() + "\n")
	goldenfile.CheckNamed(t, "errors", b.String())
}

// TestCatalogListsExactlyDeferred is the guard: for many scope, slice and
// mode combinations the rendered block names exactly the session's
// deferred, permitted set.
func TestCatalogListsExactlyDeferred(t *testing.T) {
	fleet := catalogtest.Fleet(t)
	tests := []struct {
		name   string
		scopes []string
		slice  []string
		mode   string
		budget int
		load   []string
	}{
		{"read, k8s+prom, on", []string{"read"}, []string{"k8s-1", "prom-eu"}, "on", 100000, nil},
		{"write, gitlab ro+rw, on", []string{"write"}, []string{"gitlab-a", "gitlab-b-ro"}, "on", 100000, nil},
		{"all, whole fleet, auto", []string{"*"}, nil, "auto", 100000, nil},
		{"read, whole fleet, names", []string{"read"}, nil, "on", 3000, nil},
		{"write, slack, default budget", []string{"write"}, []string{"slack"}, "on", 0, []string{"k8s-2.pods_top", "gitlab.list_commits"}},
		{"read, after loads", []string{"read"}, []string{"tracing", "wiki"}, "on", 100000,
			[]string{"pods_top", "prom-us.get_targets", "confluence_search"}},
		{"all, tiny budget, truncated", []string{"*"}, []string{"jira"}, "on", 400, nil},
		{"read, off", []string{"read"}, []string{"k8s-1"}, "off", 100000, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cfg := catalogtest.FleetConfig(true)
			cfg.Budget = tc.budget
			c := catalog.Build(fleet, cfg)
			s, err := c.NewSession(catalog.SessionConfig{Servers: tc.slice, Scopes: tc.scopes, Mode: tc.mode})
			if err != nil {
				t.Fatal(err)
			}
			if tc.load != nil {
				if _, err := s.Load(tc.load); err != nil {
					t.Fatal(err)
				}
			}
			deferred := s.Deferred()
			for _, e := range deferred {
				if !catalog.Permitted(e, tc.scopes) {
					t.Errorf("deferred %s is not permitted", e.Key())
				}
			}
			block := s.CatalogBlock()
			if s.Mode() == "off" {
				if block != "" || deferred != nil {
					t.Fatalf("mode off rendered a catalog")
				}
				return
			}
			p := parseBlock(t, block)
			want := catalogtest.Keys(deferred)
			if len(p.more) == 0 {
				if diff := cmp.Diff(want, p.pairs); diff != "" {
					t.Errorf("block vs Deferred (-want +got)\n%s", diff)
				}
			} else {
				// Truncated: every name shown is deferred, and shown plus
				// counted equals the deferred count of each kind.
				perKind := map[string]int{}
				for _, e := range deferred {
					perKind[e.Kind]++
				}
				shown := map[string]int{}
				for _, kt := range p.pairs {
					if !slices.Contains(want, kt) {
						t.Errorf("block lists %s, which is not deferred", kt)
					}
					shown[strings.SplitN(kt, ".", 2)[0]]++
				}
				for k, n := range perKind {
					if shown[k]+p.more[k] != n {
						t.Errorf("kind %s: %d shown + %d counted, want %d", k, shown[k], p.more[k], n)
					}
				}
			}
			// Active and deferred never overlap on a server.
			active := map[string]bool{}
			for _, r := range s.Active() {
				for _, srv := range r.Servers {
					active[srv+"."+r.Tool] = true
				}
			}
			for _, e := range deferred {
				for _, srv := range e.Servers {
					if active[srv+"."+e.Tool] {
						t.Errorf("%s.%s is both active and deferred", srv, e.Tool)
					}
				}
			}
			budget := tc.budget
			if budget == 0 {
				budget = catalog.DefaultBudget
			}
			if n := tokens.Count(block); n > budget {
				t.Errorf("block is %d tokens, budget %d", n, budget)
			}
		})
	}
}

// TestBudgetForms measures the two forms on the real fleet.
func TestBudgetForms(t *testing.T) {
	fleet := catalogtest.Fleet(t)
	for _, budget := range []int{1 << 20, 5000, 2500, 1900, catalog.DefaultBudget, 600} {
		cfg := catalogtest.FleetConfig(true)
		cfg.Budget = budget
		c := catalog.Build(fleet, cfg)
		s, err := c.NewSession(catalog.SessionConfig{Scopes: []string{"*"}, Mode: "on"})
		if err != nil {
			t.Fatal(err)
		}
		block := s.CatalogBlock()
		p := parseBlock(t, block)
		more := 0
		for _, n := range p.more {
			more += n
		}
		var defs int
		for _, e := range s.Deferred() {
			tl, _ := c.Tool(e.Kind, e.Tool)
			defs += tokens.MCPTools([]mcp.Tool{tl})
		}
		nameKinds := 0
		for _, l := range strings.Split(block, "\n") {
			if reNames.MatchString(l) {
				nameKinds++
			}
		}
		t.Logf("budget %7d: %d deferred tools (full definitions %d tokens), block %d tokens, %d kinds as names, %d tools named, %d counted only",
			budget, len(s.Deferred()), defs, tokens.Count(block), nameKinds, len(p.pairs), more)
		if budget < 1<<20 && tokens.Count(block) > budget {
			t.Errorf("block over budget")
		}
	}
}
