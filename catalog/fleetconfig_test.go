package catalog_test

import (
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/mcpfleet/mcpfleet"
	"github.com/mcpfleet/mcpfleet/catalog"
	"github.com/mcpfleet/mcpfleet/catalog/search"
	"github.com/mcpfleet/mcpfleet/config"
	"github.com/mcpfleet/mcpfleet/internal/testfleet"
)

func TestCatalogConfigSearch(t *testing.T) {
	off := false
	tests := []struct {
		name        string
		search      config.Search
		wantNoLex   bool
		wantNoRe    bool
		wantSynonym string
	}{
		{"default", config.Search{}, false, false, ""},
		{"synonyms", config.Search{Synonyms: map[string]string{"blast radius": "dependencies"}}, false, false, "dependencies"},
		{"lexicon off", config.Search{Lexicon: &off}, true, false, ""},
		{"rerank off", config.Search{Rerank: &off}, false, true, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := catalog.FromFleet(&config.Fleet{Search: tc.search})
			if c.NoLexicon != tc.wantNoLex || c.NoRerank != tc.wantNoRe || c.Synonyms["blast radius"] != tc.wantSynonym {
				t.Errorf("got NoLexicon=%v NoRerank=%v Synonyms=%v", c.NoLexicon, c.NoRerank, c.Synonyms)
			}
		})
	}
}

// TestBuildCatalogWeights: a fleet file's rerank weights with a misspelt
// feature fail BuildCatalog with an error naming the nearest feature,
// where catalog.Build would panic; so does a path nobody read; valid ones
// are used.
func TestBuildCatalogWeights(t *testing.T) {
	good := search.DefaultRerankWeights()
	bad := maps.Clone(good)
	bad["bse"] = bad["base"]
	delete(bad, "base")
	for _, tc := range []struct {
		name    string
		path    string
		weights map[string]float64
		wantErr []string
	}{
		{"none", "", nil, nil},
		{"defaults", "w.json", good, nil},
		{"typo", "w.json", bad, []string{`"bse"`, `"base"`}},
		// A Fleet built in Go with a path config.Load never read.
		{"unread", "w.json", nil, []string{"not read", "config.Load"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := &config.Fleet{Search: config.Search{RerankWeights: tc.path, RerankWeightValues: tc.weights}}
			mx, err := mcpfleet.New(t.Context(), cfg,
				mcpfleet.WithInProcess("k8s-1", "kubernetes", testfleet.NewServer("k8s-1", testfleet.Options{})),
				mcpfleet.WithHealthInterval(-1))
			if err != nil {
				t.Fatal(err)
			}
			defer mx.Close()
			cat, err := catalog.BuildFleet(mx.Servers(), mx.Config())
			if tc.wantErr == nil {
				if err != nil || cat == nil {
					t.Fatalf("BuildCatalog = %v, %v", cat, err)
				}
				if hits := cat.Search(catalog.WithScopes(t.Context(), catalog.ScopeAll), "pod logs", 1); len(hits) == 0 {
					t.Error("no hit for pod logs")
				}
				return
			}
			if err == nil {
				t.Fatal("BuildCatalog accepted the weights")
			}
			for _, want := range append([]string{"search.rerank_weights"}, tc.wantErr...) {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error %q does not mention %s", err, want)
				}
			}
			if err := catalog.CheckFleet(cfg); err == nil {
				t.Error("CheckCatalogConfig accepted the weights")
			}
		})
	}
}

// TestCatalogConfigIDPatterns: a kind's id_patterns reach the catalog
// compiled, in order; one that Fleet.Validate would refuse is left out
// rather than failing the catalog.
func TestCatalogConfigIDPatterns(t *testing.T) {
	c := catalog.FromFleet(&config.Fleet{KindSettings: map[string]config.KindSettings{
		"jira":   {IDPatterns: []string{`\b[A-Z][A-Z0-9]+-[0-9]+\b`}},
		"gitlab": {IDPatterns: []string{`(?:^|\s)![0-9]+\b`, `(unclosed`, `x*`, `\b`, `\b[a-z]+/[a-z]+\b`}},
	}})
	got := map[string][]string{}
	for kind, kc := range c.Kinds {
		for _, re := range kc.IDPatterns {
			got[kind] = append(got[kind], re.String())
		}
	}
	want := map[string][]string{
		"jira":   {`\b[A-Z][A-Z0-9]+-[0-9]+\b`},
		"gitlab": {`(?:^|\s)![0-9]+\b`, `\b[a-z]+/[a-z]+\b`},
	}
	if !maps.EqualFunc(got, want, slices.Equal) {
		t.Errorf("IDPatterns = %q, want %q", got, want)
	}
}

// TestWithFleet: the fleet settings of a second fleet replace the
// first's wholesale (a kind or a switch the new fleet lacks is gone), and
// the fields that do not come from a fleet are kept.
func TestWithFleet(t *testing.T) {
	off := false
	old := &config.Fleet{Search: config.Search{Lexicon: &off, Synonyms: map[string]string{"a": "b"}},
		KindSettings: map[string]config.KindSettings{"gone": {CoreTools: []string{"x"}}}}
	c := catalog.FromFleet(old)
	c.Budget = 123
	c = c.WithFleet(&config.Fleet{KindSettings: map[string]config.KindSettings{"k8s": {CoreTools: []string{"pods_list"}}}})
	if c.Budget != 123 {
		t.Errorf("Budget = %d, want 123 kept", c.Budget)
	}
	if c.NoLexicon || c.Synonyms != nil {
		t.Errorf("NoLexicon=%v Synonyms=%v, want the old fleet's gone", c.NoLexicon, c.Synonyms)
	}
	if got := slices.Sorted(maps.Keys(c.Kinds)); !slices.Equal(got, []string{"k8s"}) || !slices.Equal(c.Kinds["k8s"].CoreTools, []string{"pods_list"}) {
		t.Errorf("Kinds = %+v, want only k8s with its core tools", c.Kinds)
	}
}
