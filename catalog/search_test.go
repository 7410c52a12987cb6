package catalog_test

import (
	"context"
	"errors"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpfleet/mcpfleet/catalog"
	"github.com/mcpfleet/mcpfleet/catalog/internal/catalogtest"
	"github.com/mcpfleet/mcpfleet/catalog/tuning"
	"github.com/mcpfleet/mcpfleet/internal/fixtures"
	"github.com/mcpfleet/mcpfleet/kindgroups"
)

func tops(hits []catalog.Hit) []string {
	out := make([]string, len(hits))
	for i, h := range hits {
		out[i] = h.Kind + "." + h.Tool
	}
	return out
}

func codeCatalog(cfg catalog.Config) *catalog.Catalog {
	return catalog.Build([]kindgroups.Server{{Name: "lsp", Kind: "code", Tools: []mcp.Tool{
		catalogtest.Tool("find_symbol", "Locate a symbol definition in the workspace.", true),
		catalogtest.Tool("find_references", "Find every reference to a symbol.", true),
		catalogtest.Tool("search_code", "Full-text search over source files; finds symbols, strings and comments.", true),
		catalogtest.Tool("kubectl_get", "Show one or many Kubernetes resources.", true),
		catalogtest.Tool("getPodLogs", "Read the logs of a pod.", true),
		catalogtest.Tool("restart_pod", "Delete a pod so that its controller recreates it.", false),
	}}}, cfg)
}

func TestSearchNames(t *testing.T) {
	c := codeCatalog(catalog.Config{})
	ctx := catalog.WithScopes(t.Context(), "*")
	tests := []struct {
		query string
		first string
	}{
		{"find_symbol", "code.find_symbol"},
		{"find symbol", "code.find_symbol"},
		{"kubectl_get", "code.kubectl_get"},
		{"kubectl get", "code.kubectl_get"},
		{"get pod logs", "code.getPodLogs"}, // camelCase split
		{"symbols in strings, then find_references", "code.find_references"},
		{"code.search_code please", "code.search_code"},
		{"lsp.find_symbol", "code.find_symbol"},
		{"restarting pods", "code.restart_pod"}, // stemming
	}
	for _, tc := range tests {
		t.Run(tc.query, func(t *testing.T) {
			hits := c.Search(ctx, tc.query, 3)
			if len(hits) == 0 || hits[0].Kind+"."+hits[0].Tool != tc.first {
				t.Errorf("top = %v, want %s first", tops(hits), tc.first)
			}
		})
	}
	// Read-only: the write tool is invisible even by exact name.
	if hits := c.Search(t.Context(), "restart_pod", 5); len(hits) > 0 && hits[0].Tool == "restart_pod" {
		t.Errorf("read-only search found restart_pod: %v", tops(hits))
	}
}

func TestSearchK(t *testing.T) {
	c := catalogtest.BuildFleet(t)
	ctx := catalog.WithScopes(t.Context(), "*")
	for _, tc := range []struct{ k, want int }{{0, 5}, {-1, 5}, {3, 3}, {100, 20}} {
		if got := len(c.Search(ctx, "list", tc.k)); got != tc.want {
			t.Errorf("k=%d: %d hits, want %d", tc.k, got, tc.want)
		}
	}
	if hits := c.Search(ctx, "pods_delete", 1); len(hits) != 1 || hits[0].AvoidWhen == "" {
		t.Errorf("avoid_when missing from %+v", hits)
	}
	if hits := c.Search(ctx, "zzzqqq", 5); len(hits) != 0 {
		t.Errorf("nonsense query found %v", tops(hits))
	}
}

func TestSessionSearchLoaded(t *testing.T) {
	c := catalogtest.BuildFleet(t)
	s, err := c.NewSession(catalog.SessionConfig{Servers: []string{"k8s-1"}, Mode: "on"})
	if err != nil {
		t.Fatal(err)
	}
	hit := func() catalog.Hit {
		hs := s.Search(t.Context(), "pods_top", 1)
		if len(hs) != 1 || hs[0].Tool != "pods_top" {
			t.Fatalf("hits = %v", tops(hs))
		}
		return hs[0]
	}
	if hit().Loaded {
		t.Error("pods_top loaded before loadTools")
	}
	if _, err := s.Load([]string{"k8s-1.pods_top"}); err != nil {
		t.Fatal(err)
	}
	if hit().Loaded {
		t.Error("loaded on one of five servers counts as loaded")
	}
	if _, err := s.Load([]string{"kubernetes.pods_top"}); err != nil {
		t.Fatal(err)
	}
	if h := hit(); !h.Loaded || len(h.Servers) != 5 {
		t.Errorf("after kind load: %+v", h)
	}
	hs := s.Search(t.Context(), "delete the crashing pod", 5)
	for _, h := range hs {
		if h.Tool == "pods_delete" {
			t.Errorf("read session found pods_delete")
		}
	}
}

// conceptEmbedder maps words to a few concept axes, standing in for a
// model that knows "bounce" means restart.
type conceptEmbedder struct {
	fail  bool
	calls int
}

var concepts = [][]string{
	{"cycle", "bounce", "restart", "recreate", "delete", "kill"},
	{"log", "logs", "output", "read"},
	{"symbol", "definition", "reference", "references"},
	{"kubernetes", "resources", "show"},
}

func (e *conceptEmbedder) EmbedStrings(_ context.Context, texts []string) ([][]float64, error) {
	e.calls++
	if e.fail {
		return nil, errors.New("model down")
	}
	out := make([][]float64, len(texts))
	for i, s := range texts {
		v := make([]float64, len(concepts))
		for _, w := range strings.Fields(strings.ToLower(s)) {
			w = strings.Trim(w, ".,;:")
			for d, ws := range concepts {
				for _, cw := range ws {
					if w == cw {
						v[d]++
					}
				}
			}
		}
		out[i] = v
	}
	return out, nil
}

func TestHybridSearch(t *testing.T) {
	ctx := catalog.WithScopes(t.Context(), "*")
	q := "cycle it"
	if hits := codeCatalog(catalog.Config{}).Search(ctx, q, 3); len(hits) != 0 {
		t.Fatalf("BM25 alone found %v; the test needs a query only embeddings understand", tops(hits))
	}
	emb := &conceptEmbedder{}
	c := codeCatalog(catalog.Config{Embedder: emb})
	hits := c.Search(ctx, q, 3)
	if len(hits) == 0 || hits[0].Tool != "restart_pod" {
		t.Fatalf("hybrid top = %v, want restart_pod first", tops(hits))
	}
	// Fusion keeps BM25's exact matches on top.
	if hits := c.Search(ctx, "find symbol", 2); hits[0].Tool != "find_symbol" {
		t.Errorf("hybrid lost the lexical match: %v", tops(hits))
	}
	c.Search(ctx, "logs", 2)
	if emb.calls != 4 { // entries once, then one per query
		t.Errorf("embedder called %d times, want 4", emb.calls)
	}
	// A failing embedder degrades to BM25.
	failing := codeCatalog(catalog.Config{Embedder: &conceptEmbedder{fail: true}})
	want := tops(codeCatalog(catalog.Config{}).Search(ctx, "pod logs", 3))
	if diff := cmp.Diff(want, tops(failing.Search(ctx, "pod logs", 3))); diff != "" {
		t.Errorf("fallback (-want +got)\n%s", diff)
	}
}

func TestLint(t *testing.T) {
	c := catalog.Build([]kindgroups.Server{{Name: "s", Kind: "k", Tools: []mcp.Tool{
		catalogtest.Tool("a", "Get the status of a pod.", true),
		catalogtest.Tool("b", "Get the status of a node, with conditions.", true),
		catalogtest.Tool("c", "get THE status of A deployment.", true),
		catalogtest.Tool("d", "List pods.", true),
		catalogtest.Tool("e", "Something else entirely here.", true),
	}}}, catalog.Config{Kinds: map[string]catalog.KindConfig{"k": {
		CatalogLines: map[string]string{"d": "List pods", "e": "List pods"},
	}}})
	want := tuning.LintReport{
		MissingLines: []tuning.KindTool{{Kind: "k", Tool: "a"}, {Kind: "k", Tool: "b"}, {Kind: "k", Tool: "c"}},
		Collisions: []tuning.Collision{
			{Kind: "k", Prefix: "get the status of a", Tools: []string{"a", "b", "c"}},
			{Kind: "k", Prefix: "list pods", Tools: []string{"d", "e"}},
		},
	}
	if diff := cmp.Diff(want, tuning.Lint(c)); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
}

func TestLintFleet(t *testing.T) {
	r := tuning.Lint(catalogtest.BuildFleet(t))
	t.Logf("fleet: %d tools lack a hand-written line, %d collisions", len(r.MissingLines), len(r.Collisions))
	for _, col := range r.Collisions {
		if len(col.Tools) < 2 {
			t.Errorf("collision of one: %+v", col)
		}
	}
}

// TestSearchKindSignal: when the query names a kind ("jira") or uses words
// only one kind's tools use ("loki", "traces"), the top hits stay in that
// kind even though other kinds have tools matching its verb ("search").
func TestSearchKindSignal(t *testing.T) {
	c := catalogtest.BuildFleet(t)
	ctx := catalog.WithScopes(t.Context(), "*")
	tests := []struct{ query, kind string }{
		{"search jira for open bugs in payments", "jira"},
		{"search traces with errors for the cart service", "tracing"},
		{"search loki logs for timeout errors in checkout", "grafana"},
		{"search confluence for the failover runbook", "wiki"},
		{"list pods on the k8s clusters", "kubernetes"},
	}
	for _, tc := range tests {
		t.Run(tc.query, func(t *testing.T) {
			hits := c.Search(ctx, tc.query, 3)
			for _, h := range hits {
				if h.Kind != tc.kind {
					t.Errorf("top 3 = %v, want all of kind %s", tops(hits), tc.kind)
					break
				}
			}
		})
	}
}

// TestAliasInIdentifier: an alias counts where the request asks for it in
// words, not where an identifier happens to contain it. The test fleet
// gives resources_get the alias "yaml".
func TestAliasInIdentifier(t *testing.T) {
	c := catalogtest.BuildFleet(t)
	ctx := catalog.WithScopes(t.Context(), "*")
	tests := []struct {
		query string
		top   bool // whether kubernetes:resources_get must be first
	}{
		{"show me the yaml of the checkout deployment", true},
		{"dump the checkout deployment as yaml", true},
		{"read charts/api/values-prod.yaml from main in the platform-helm repo", false},
		{"read values-prod.yaml from the helm repo", false},
	}
	for _, tc := range tests {
		t.Run(tc.query, func(t *testing.T) {
			hits := c.Search(ctx, tc.query, 3)
			if len(hits) == 0 {
				t.Fatal("no hits")
			}
			first := hits[0].Kind + ":" + hits[0].Tool
			if got := first == "kubernetes:resources_get"; got != tc.top {
				t.Errorf("top 3 = %v; want resources_get first: %v", tops(hits), tc.top)
			}
		})
	}
}

// TestIDPatterns: a request that carries a kind's identifier is about
// that kind. Two kinds here serve the same Jira tools, one per project
// key, so nothing but the key can tell them apart.
func TestIDPatterns(t *testing.T) {
	jira := fixtures.MustLoad(t, "jira")
	servers := []kindgroups.Server{
		{Name: "alpha-1", Kind: "alpha", Tools: jira.Tools},
		{Name: "beta-1", Kind: "beta", Tools: jira.Tools},
	}
	kinds := map[string]catalog.KindConfig{
		"alpha": {IDPatterns: []*regexp.Regexp{regexp.MustCompile(`\bOPS-[0-9]+\b`)}},
		"beta":  {IDPatterns: []*regexp.Regexp{regexp.MustCompile(`\bPAY-[0-9]+\b`)}},
	}
	ctx := catalog.WithScopes(t.Context(), catalog.ScopeAll)
	tests := []struct {
		query, kind string
	}{
		{"leave a comment on PAY-311 saying the fix shipped", "beta"},
		{"leave a comment on OPS-311 saying the fix shipped", "alpha"},
		{"log 2h against PAY-88 for the drill", "beta"},
		{"who is assigned to PAY-7?", "beta"},
	}
	for _, rerank := range []bool{true, false} {
		c := catalog.Build(servers, catalog.Config{Kinds: kinds, NoRerank: !rerank})
		for _, tc := range tests {
			hits := c.Search(ctx, tc.query, 3)
			if len(hits) == 0 || hits[0].Kind != tc.kind {
				t.Errorf("rerank=%v %q: top = %v, want %s's tool first", rerank, tc.query, tops(hits), tc.kind)
			}
		}
	}
	// Without patterns the twins tie, and the kind that comes first wins
	// whatever the key: the test above is not passing by luck of order.
	c := catalog.Build(servers, catalog.Config{})
	if hits := c.Search(ctx, tests[0].query, 3); len(hits) == 0 || hits[0].Kind != "alpha" {
		t.Errorf("without patterns: top = %v, want alpha's twin first", tops(hits))
	}
}

// TestIDPatternsCopied: Build keeps its own list of a kind's patterns, as
// it does of aliases, so a caller reusing its Config cannot change (or
// race with) a built catalog's searches.
func TestIDPatternsCopied(t *testing.T) {
	jira := fixtures.MustLoad(t, "jira")
	servers := []kindgroups.Server{
		{Name: "alpha-1", Kind: "alpha", Tools: jira.Tools},
		{Name: "beta-1", Kind: "beta", Tools: jira.Tools},
	}
	pats := []*regexp.Regexp{regexp.MustCompile(`\bPAY-[0-9]+\b`)}
	c := catalog.Build(servers, catalog.Config{Kinds: map[string]catalog.KindConfig{"beta": {IDPatterns: pats}}})
	pats[0] = regexp.MustCompile(`\bOPS-[0-9]+\b`)
	ctx := catalog.WithScopes(t.Context(), catalog.ScopeAll)
	if hits := c.Search(ctx, "leave a comment on PAY-311 saying the fix shipped", 3); len(hits) == 0 || hits[0].Kind != "beta" {
		t.Errorf("top = %v, want beta's tool first: the pattern given to Build still holds", tops(hits))
	}
}

// TestNoRerank: Config.NoRerank ranks by BM25 alone, and the reranker
// changes the order of some eval queries (else it would be dead weight).
func TestNoRerank(t *testing.T) {
	ctx := catalog.WithScopes(t.Context(), catalog.ScopeAll)
	cfg := catalogtest.FleetConfig(true)
	on := catalog.Build(catalogtest.Fleet(t), cfg)
	cfg.NoRerank = true
	off := catalog.Build(catalogtest.Fleet(t), cfg)
	hook := catalog.Build(catalogtest.Fleet(t), catalogtest.FleetConfig(true))
	hook.SetRerankWeightsForTest(nil)
	differ := 0
	for _, q := range catalogtest.Queries(t)[:100] {
		a, b, c := tops(on.Search(ctx, q.Q, 5)), tops(off.Search(ctx, q.Q, 5)), tops(hook.Search(ctx, q.Q, 5))
		if !slices.Equal(b, c) {
			t.Fatalf("%q: NoRerank gives %v, BM25 alone %v", q.Q, b, c)
		}
		if !slices.Equal(a, b) {
			differ++
		}
	}
	if differ == 0 {
		t.Error("the reranker changed no ranking of 100 queries")
	}
	t.Logf("the reranker changed %d of 100 rankings", differ)
}
