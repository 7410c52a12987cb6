package catalog_test

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mcpfleet/mcpfleet/catalog"
	"github.com/mcpfleet/mcpfleet/catalog/internal/catalogtest"
	"github.com/mcpfleet/mcpfleet/catalog/search"
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

// TestSearchCompoundNames: run-together names meet the words a request
// says, through the index's own vocabulary, and a one-word name is a word
// of the request, not a name it quotes.
func TestSearchCompoundNames(t *testing.T) {
	c := catalog.Build([]kindgroups.Server{
		{Name: "cloud", Kind: "cloud", Tools: []mcp.Tool{
			catalogtest.Tool("whoami", "Show the authenticated principal.", true),
			catalogtest.Tool("listprojects", "Return every project the token can see.", true),
			catalogtest.Tool("keyvault", "Manage secrets, keys and certificates.", true),
			catalogtest.Tool("storage", "Manage storage accounts and a vault of blobs.", true),
			catalogtest.Tool("search", "Search cloud resources by name.", true),
		}},
		{Name: "jira", Kind: "jira", Tools: []mcp.Tool{
			catalogtest.Tool("jira_search", "Search Jira issues with JQL.", true),
			catalogtest.Tool("jira_get_issue", "Get one Jira issue.", true),
		}},
	}, catalog.Config{})
	ctx := catalog.WithScopes(t.Context(), catalog.ScopeAll)
	for _, tc := range []struct{ query, first string }{
		{"who am I logged in as", "cloud.whoami"},
		{"list projects", "cloud.listprojects"},
		{"open the key vault", "cloud.keyvault"},
		{"search jira for open bugs", "jira.jira_search"},
		{"search", "cloud.search"},
	} {
		t.Run(tc.query, func(t *testing.T) {
			if got := tops(c.Search(ctx, tc.query, 3)); len(got) == 0 || got[0] != tc.first {
				t.Errorf("top = %v, want %s first", got, tc.first)
			}
		})
	}
}

// TestLexicon: requests in on-call words, none of which the tool names or
// descriptions use, find their tool on the real fixture fleet with no
// aliases configured.
func TestLexicon(t *testing.T) {
	c := catalog.Build(catalogtest.Fleet(t), catalogtest.FleetConfig(false))
	// The lexicon's own effect: which twin of the right area ranks first
	// is the reranker's job, and the eval measures it.
	c.SetRerankWeightsForTest(nil)
	ctx := catalog.WithScopes(t.Context(), catalog.ScopeAll)
	tests := []struct {
		query string
		want  []string // any of these in the top 3
	}{
		{"bounce the checkout pod", []string{"kubernetes.pods_delete", "kubernetes.resources_delete"}},
		{"what did the payments pod print before it died", []string{"kubernetes.pods_log"}},
		{"what's the 5xx rate for checkout", []string{"prometheus.execute_query", "grafana.query_prometheus"}},
		{"get me a shell in the redis pod", []string{"kubernetes.pods_exec"}},
		{"is any exporter failing to be scraped", []string{"prometheus.get_targets"}},
		{"is the search cluster degraded", []string{"opensearch.ClusterHealthTool"}},
		{"how long has OPS-88 been open", []string{"jira.jira_get_issue_dates"}},
	}
	for _, tc := range tests {
		t.Run(tc.query, func(t *testing.T) {
			hits := tops(c.Search(ctx, tc.query, 3))
			for _, h := range hits {
				for _, w := range tc.want {
					if h == w {
						return
					}
				}
			}
			t.Errorf("top 3 = %v, want one of %v", hits, tc.want)
		})
	}
}

// TestSynonyms: Config.Synonyms extends the lexicon and NoLexicon turns
// the built-in part off.
func TestSynonyms(t *testing.T) {
	ctx := catalog.WithScopes(t.Context(), "*")
	tests := []struct {
		name  string
		cfg   catalog.Config
		query string
		want  string // top hit, "" for none
	}{
		{"built-in bounce", catalog.Config{}, "bounce it", "code.restart_pod"},
		{"no lexicon", catalog.Config{NoLexicon: true}, "bounce it", ""},
		{"unknown word", catalog.Config{}, "cycle it", ""},
		{"user synonym", catalog.Config{Synonyms: map[string]string{"cycle": "restart"}}, "cycle it", "code.restart_pod"},
		{"user phrase", catalog.Config{Synonyms: map[string]string{"go to definition": "symbol"}}, "go to definition of Foo", "code.find_symbol"},
		{"phrase as written", catalog.Config{Synonyms: map[string]string{"jump there": "symbol"}}, "jump there", "code.find_symbol"},
		{"phrase out of order", catalog.Config{Synonyms: map[string]string{"jump there": "symbol"}}, "there, jump", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			hits := codeCatalog(tc.cfg).Search(ctx, tc.query, 3)
			got := ""
			if len(hits) > 0 {
				got = hits[0].Kind + "." + hits[0].Tool
			}
			if got != tc.want {
				t.Errorf("top = %q (all %v), want %q", got, tops(hits), tc.want)
			}
		})
	}
}

// TestAliasAsWritten: an alias matches as written (stemmed, articles
// skipped), not as a bag of words anywhere in the request.
func TestAliasAsWritten(t *testing.T) {
	ro := func(name, desc string) mcp.Tool { return catalogtest.Tool(name, desc, true) }
	c := catalog.Build([]kindgroups.Server{{Name: "k", Kind: "k8s", Tools: []mcp.Tool{
		ro("pods_delete", "Remove a pod."),
		ro("pods_top", "Resource consumption of pods."),
	}}}, catalog.Config{Kinds: map[string]catalog.KindConfig{"k8s": {
		Aliases: map[string][]string{"pods_delete": {"kill pod"}},
	}}})
	// Two tools are too few for the reranker's features to mean much.
	c.SetRerankWeightsForTest(nil)
	ctx := catalog.WithScopes(t.Context(), "*")
	for _, tc := range []struct{ query, want string }{
		{"kill the pod", "pods_delete"},
		{"kill pods api-1 and api-2", "pods_delete"},
		{"pod keeps getting OOM killed, what is its consumption", "pods_top"},
	} {
		hits := c.Search(ctx, tc.query, 2)
		if len(hits) == 0 || hits[0].Tool != tc.want {
			t.Errorf("%q: top = %v, want %s", tc.query, tops(hits), tc.want)
		}
	}
}

func TestSigils(t *testing.T) {
	ctx := catalog.WithScopes(t.Context(), catalog.ScopeAll)
	c := catalog.Build(catalogtest.Fleet(t), catalogtest.FleetConfig(false))
	for _, tc := range []struct{ query, kind string }{
		{"status of !981", "gitlab"},
		{"what are people saying in #payments", "slack"},
		{"status of OPS-88", "jira"},
	} {
		hits := c.Search(ctx, tc.query, 1)
		if len(hits) == 0 || hits[0].Kind != tc.kind {
			t.Errorf("%q: top = %v, want kind %s", tc.query, tops(hits), tc.kind)
		}
	}
}

// TestTimeIsNotHistory: "since yesterday" bounds any request in time;
// it once expanded to a page's history and put wiki and slack history
// above the commits asked for.
func TestTimeIsNotHistory(t *testing.T) {
	c := catalogtest.BuildFleet(t)
	ctx := catalog.WithScopes(t.Context(), catalog.ScopeAll)
	for _, q := range []string{"commits on main since yesterday evening", "list the commits since yesterday in payments-api"} {
		hits := tops(c.Search(ctx, q, 3))
		if len(hits) == 0 || hits[0] != "gitlab.list_commits" {
			t.Errorf("%q: top 3 = %v, want gitlab.list_commits first", q, hits)
		}
	}
}

// gateEmbedder answers with concept vectors, but first waits on gate
// (when set) without looking at ctx, as a badly written embedder would;
// fail makes every call fail.
type gateEmbedder struct {
	mu    sync.Mutex
	calls [][]string
	gate  chan struct{}
	fail  error
}

func (e *gateEmbedder) EmbedStrings(_ context.Context, texts []string) ([][]float64, error) {
	e.mu.Lock()
	e.calls = append(e.calls, texts)
	gate, fail := e.gate, e.fail
	e.mu.Unlock()
	if gate != nil {
		<-gate
	}
	if fail != nil {
		return nil, fail
	}
	return (&conceptEmbedder{}).EmbedStrings(context.Background(), texts)
}

func (e *gateEmbedder) set(gate chan struct{}, fail error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.gate, e.fail = gate, fail
}

func (e *gateEmbedder) n() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return len(e.calls)
}

type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *clock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

const (
	gateTimeout = 200 * time.Millisecond
	gateBound   = 10 * time.Second // generous: only "not stuck" is asserted
)

// timedSearch runs a search and fails the test if it outlived gateBound.
func timedSearch(t *testing.T, c *catalog.Catalog, q string) []string {
	t.Helper()
	start := time.Now()
	hits := tops(c.Search(catalog.WithScopes(t.Context(), "*"), q, 3))
	if d := time.Since(start); d > gateBound {
		t.Errorf("search %q took %v", q, d)
	}
	return hits
}

// TestHybridPrefixes: the texts the catalog sends carry the prefixes.
func TestHybridPrefixes(t *testing.T) {
	emb := &gateEmbedder{}
	c := codeCatalog(catalog.Config{Embedder: emb, EmbedQueryPrefix: "query: ", EmbedDocPrefix: "passage: "})
	timedSearch(t, c, "cycle it")
	if emb.n() != 2 {
		t.Fatalf("%d calls, want the entries then the query", emb.n())
	}
	if diff := cmp.Diff([]string{"query: cycle it"}, emb.calls[1]); diff != "" {
		t.Errorf("query texts (-want +got):\n%s", diff)
	}
	// Entries go in kind, tool order: search_code is the last.
	want := "passage: code search code: Full-text search over source files. Full-text search over source files; finds symbols, strings and comments."
	if got := emb.calls[0][len(emb.calls[0])-1]; got != want {
		t.Errorf("last entry text = %q, want %q", got, want)
	}
	for _, s := range emb.calls[0] {
		if !strings.HasPrefix(s, "passage: code ") {
			t.Errorf("entry text %q lacks the prefix", s)
		}
	}
}

// TestHybridSlowEmbedder: an embedder that ignores ctx and never answers
// costs a search at most EmbedTimeout, whether it is computing the
// entries or a query, and a concurrent search does not queue behind it.
func TestHybridSlowEmbedder(t *testing.T) {
	bm25 := tops(codeCatalog(catalog.Config{}).Search(catalog.WithScopes(t.Context(), "*"), "pod logs", 3))
	tests := []struct {
		name  string
		warm  bool // the entries are computed before the embedder stalls
		calls int  // embedder calls by the stalled searches
	}{
		{"entries stall", false, 1},
		{"query stalls", true, 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			emb := &gateEmbedder{}
			var reported []error
			var mu sync.Mutex
			c := codeCatalog(catalog.Config{Embedder: emb, EmbedTimeout: gateTimeout, Now: (&clock{}).Now,
				OnEmbedError: func(err error) { mu.Lock(); reported = append(reported, err); mu.Unlock() }})
			if tt.warm {
				timedSearch(t, c, "logs")
			}
			gate := make(chan struct{})
			defer close(gate)
			emb.set(gate, nil)
			before := emb.n()
			var wg sync.WaitGroup
			got := make([][]string, 3)
			for i := range got {
				wg.Go(func() { got[i] = timedSearch(t, c, "pod logs") })
			}
			wg.Wait()
			for i, g := range got {
				if diff := cmp.Diff(bm25, g); diff != "" {
					t.Errorf("search %d (-bm25 +got):\n%s", i, diff)
				}
			}
			if n := emb.n() - before; n > tt.calls {
				t.Errorf("%d embedder calls, want at most %d", n, tt.calls)
			}
			mu.Lock()
			defer mu.Unlock()
			if tt.warm && (len(reported) != 1 || !errors.Is(reported[0], search.ErrEmbedTimeout)) {
				t.Errorf("reported %v, want one ErrEmbedTimeout", reported)
			}
			if !tt.warm && len(reported) != 0 {
				t.Errorf("reported %v while the entries are still being computed", reported)
			}
		})
	}
}

// TestHybridCooldown: after a failure the embedder is left alone for the
// cool-down, then exactly one of several concurrent searches tries it;
// a negative cool-down never tries again.
func TestHybridCooldown(t *testing.T) {
	down := errors.New("model down")
	tests := []struct {
		name     string
		cooldown time.Duration
		retries  int // searches that try again after 31 s, of four concurrent ones
	}{
		{"default 30 s", 0, 1},
		{"negative: off for good", -1, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			emb := &gateEmbedder{fail: down}
			clk := &clock{now: time.Unix(1e9, 0)}
			var reported []error
			var mu sync.Mutex
			c := codeCatalog(catalog.Config{Embedder: emb, EmbedCooldown: tt.cooldown, Now: clk.Now,
				OnEmbedError: func(err error) { mu.Lock(); reported = append(reported, err); mu.Unlock() }})
			timedSearch(t, c, "cycle it")
			if emb.n() != 1 {
				t.Fatalf("%d calls, want 1", emb.n())
			}
			clk.advance(29 * time.Second)
			timedSearch(t, c, "cycle it")
			if emb.n() != 1 {
				t.Errorf("%d calls during the cool-down, want still 1", emb.n())
			}
			// The retry holds the others back while it runs.
			gate := make(chan struct{})
			emb.set(gate, nil)
			clk.advance(2 * time.Second)
			var wg sync.WaitGroup
			var done atomic.Int32
			for range 4 {
				wg.Go(func() { timedSearch(t, c, "cycle it"); done.Add(1) })
			}
			// Every search but the retry answers while it is held.
			for deadline := time.Now().Add(gateBound); done.Load() < int32(4-tt.retries) && time.Now().Before(deadline); {
				time.Sleep(time.Millisecond)
			}
			close(gate)
			wg.Wait()
			// A retry computes the entries the first attempt failed on,
			// then embeds its query.
			if n, want := emb.n()-1, 2*tt.retries; n != want {
				t.Errorf("%d calls after the cool-down, want %d", n, want)
			}
			if tt.retries > 0 {
				if got := timedSearch(t, c, "cycle it"); len(got) == 0 || got[0] != "code.restart_pod" {
					t.Errorf("after recovery top = %v, want code.restart_pod", got)
				}
			}
			mu.Lock()
			defer mu.Unlock()
			if diff := cmp.Diff([]string{down.Error()}, errTexts(reported)); diff != "" {
				t.Errorf("reported (-want +got):\n%s", diff)
			}
		})
	}
}

// delayError is an embedder failure that asks for a wait, as an HTTP
// 429 with Retry-After does.
type delayError struct{ d time.Duration }

func (e delayError) Error() string             { return fmt.Sprintf("rate limited, retry after %v", e.d) }
func (e delayError) RetryDelay() time.Duration { return e.d }

// TestHybridCooldownRetryDelay: an error that names a wait stretches the
// cool-down to it, wherever it sits in the chain, but never past
// MaxEmbedRetryDelay nor below Config.EmbedCooldown.
func TestHybridCooldownRetryDelay(t *testing.T) {
	tests := []struct {
		name     string
		cooldown time.Duration
		err      error
		want     time.Duration // from the failure to the next try
	}{
		{"longer than the cool-down", 0, delayError{2 * time.Minute}, 2 * time.Minute},
		{"wrapped", 0, fmt.Errorf("embedding: %w", delayError{2 * time.Minute}), 2 * time.Minute},
		{"shorter: the cool-down stands", 0, delayError{10 * time.Second}, search.DefaultEmbedCooldown},
		{"none named", 0, delayError{}, search.DefaultEmbedCooldown},
		{"capped", 0, delayError{time.Hour}, search.MaxEmbedRetryDelay},
		{"a configured cool-down past the cap stands", 20 * time.Minute, delayError{time.Hour}, 20 * time.Minute},
		{"no wait named", 0, errors.New("model down"), search.DefaultEmbedCooldown},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			emb := &gateEmbedder{fail: tt.err}
			clk := &clock{now: time.Unix(1e9, 0)}
			// EmbedTimeout -1: every embedder call runs within its search.
			c := codeCatalog(catalog.Config{Embedder: emb, EmbedTimeout: -1, EmbedCooldown: tt.cooldown, Now: clk.Now})
			timedSearch(t, c, "cycle it")
			emb.set(nil, nil)
			clk.advance(tt.want - time.Second)
			timedSearch(t, c, "cycle it")
			if n := emb.n(); n != 1 {
				t.Errorf("%d calls a second before %v, want still 1", n, tt.want)
			}
			clk.advance(2 * time.Second)
			if got := timedSearch(t, c, "cycle it"); emb.n() != 3 || len(got) == 0 || got[0] != "code.restart_pod" {
				t.Errorf("a second after %v: %d calls, top %v; want the entries and the query embedded, code.restart_pod", tt.want, emb.n(), got)
			}
		})
	}
}

// TestHybridCancelledNotAFailure: a search whose ctx is already cancelled
// answers with BM25 and starts no cool-down, even one for good.
func TestHybridCancelledNotAFailure(t *testing.T) {
	for _, timeout := range []time.Duration{0, -1} {
		emb := &gateEmbedder{}
		var reported []error
		c := codeCatalog(catalog.Config{Embedder: emb, EmbedTimeout: timeout, EmbedCooldown: -1,
			OnEmbedError: func(err error) { reported = append(reported, err) }})
		ctx, cancel := context.WithCancel(catalog.WithScopes(t.Context(), "*"))
		cancel()
		c.Search(ctx, "cycle it", 3)
		if got := timedSearch(t, c, "cycle it"); len(got) == 0 || got[0] != "code.restart_pod" {
			t.Errorf("timeout %v: after a cancelled search top = %v, want code.restart_pod", timeout, got)
		}
		if len(reported) != 0 {
			t.Errorf("timeout %v: reported %v", timeout, reported)
		}
	}
}

func errTexts(errs []error) []string {
	var out []string
	for _, e := range errs {
		out = append(out, e.Error())
	}
	return out
}

// TestHybridFailureIsBM25: with its embedder failing, a hybrid catalog
// ranks every labelled request exactly as a catalog without one, scores
// included, although it asks BM25 for a deeper ranking to fuse.
func TestHybridFailureIsBM25(t *testing.T) {
	ctx := catalog.WithScopes(t.Context(), catalog.ScopeAll)
	plain := catalogtest.BuildFleet(t)
	emb := &gateEmbedder{}
	emb.set(nil, errors.New("endpoint down"))
	cfg := catalogtest.FleetConfig(true)
	cfg.Embedder, cfg.EmbedCooldown = emb, -1
	hybrid := catalog.Build(catalogtest.Fleet(t), cfg)
	for _, q := range catalogtest.Queries(t) {
		for _, k := range []int{5, catalog.MaxK} {
			want, got := plain.Search(ctx, q.Q, k), hybrid.Search(ctx, q.Q, k)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Fatalf("Search(%q, %d) with a failing embedder (-plain +hybrid):\n%s", q.Q, k, diff)
			}
		}
	}
	if emb.n() != 1 {
		t.Errorf("%d embedder calls, want 1 (cooldown forever after the first failure)", emb.n())
	}
}
