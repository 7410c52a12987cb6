package openai_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cloudwego/eino/components/embedding"
	"github.com/google/go-cmp/cmp"
	"github.com/mark3labs/mcp-go/mcp"
	mcpeino "github.com/mcpfleet/mcpfleet/adapters/eino"
	"github.com/mcpfleet/mcpfleet/adapters/eino/einotest"
	"github.com/mcpfleet/mcpfleet/adapters/eino/openai"
	"github.com/mcpfleet/mcpfleet/catalog"
	"github.com/mcpfleet/mcpfleet/catalog/search"
	"github.com/mcpfleet/mcpfleet/internal/fixtures"
	"github.com/mcpfleet/mcpfleet/kindgroups"
)

var _ embedding.Embedder = (*openai.EmbedCache)(nil)

// TestEmbedCacheCatalogRebuild: the catalog's entry texts go upstream
// once; building the same catalog again sends none, and changing one
// tool's description sends exactly that entry. Rankings are those of an
// uncached embedder.
func TestEmbedCacheCatalogRebuild(t *testing.T) {
	var servers []kindgroups.Server
	for _, k := range []string{"kubernetes", "prometheus"} {
		servers = append(servers, kindgroups.Server{Name: k + "-1", Kind: k, Tools: fixtures.MustLoad(t, k).Tools})
	}
	ctx := catalog.WithScopes(t.Context(), catalog.ScopeAll)
	const q = "journaux du conteneur"
	srv := einotest.NewEmbeddingServer(einotest.EmbeddingServerOptions{Embed: testConcepts})
	defer srv.Close()
	emb := newEmbedder(t, srv.BaseURL(), openai.EmbedderConfig{})
	// EmbedTimeout -1: the search waits for every vector, however
	// loaded the machine, so what reached the endpoint is settled.
	want := hitNames(catalog.Build(servers, catalog.Config{Embedder: mcpeino.CatalogEmbedder(emb), EmbedTimeout: -1}).Search(ctx, q, 5))

	cached := mcpeino.CatalogEmbedder(openai.NewEmbedCache(emb, 0))
	// sent builds a catalog, searches it, and returns the texts that
	// reached the endpoint meanwhile.
	sent := func(t *testing.T, servers []kindgroups.Server) []string {
		t.Helper()
		before := len(srv.Requests())
		got := hitNames(catalog.Build(servers, catalog.Config{Embedder: cached, EmbedTimeout: -1}).Search(ctx, q, 5))
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("ranking through the cache (-uncached +cached):\n%s", diff)
		}
		var texts []string
		for _, r := range srv.Requests()[before:] {
			texts = append(texts, r.Input...)
		}
		return texts
	}
	first := sent(t, servers)
	t.Logf("first build: %d texts upstream", len(first))
	if len(first) < 10 || first[len(first)-1] != q {
		t.Fatalf("first build sent %d texts ending %q; want every entry, then the query", len(first), first[len(first)-1])
	}
	if again := sent(t, servers); len(again) != 0 {
		t.Errorf("second build of the same catalog sent %d texts upstream, want 0: %q", len(again), again)
	}

	changed := slices.Clone(servers)
	changed[1].Tools = slices.Clone(changed[1].Tools)
	tool := &changed[1].Tools[0]
	tool.Description += " Also known as the metrics explorer."
	got := sent(t, changed)
	if len(got) != 1 || !strings.Contains(got[0], tool.Description) {
		t.Errorf("after one description changed, sent %q; want only the entry of %s", got, tool.Name)
	}
}

// recorder is an embedding.Embedder that records the texts and model of
// each call and answers with a vector naming the model and the text.
type recorder struct {
	mu    sync.Mutex
	calls []string // "model: text|text"
	fail  error
	drop  bool // answer one vector short
}

func (r *recorder) EmbedStrings(_ context.Context, texts []string, opts ...embedding.Option) ([][]float64, error) {
	model := "default"
	if o := embedding.GetCommonOptions(nil, opts...); o.Model != nil {
		model = *o.Model
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.calls = append(r.calls, model+": "+strings.Join(texts, "|"))
	if r.fail != nil {
		return nil, r.fail
	}
	out := make([][]float64, len(texts))
	for i, t := range texts {
		out[i] = vectorOf(model, t)
	}
	if r.drop {
		out = out[:len(out)-1]
	}
	return out, nil
}

func (r *recorder) take() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	c := r.calls
	r.calls = nil
	return c
}

// vectorOf tells models and texts apart: the model's length, then each
// byte of the text.
func vectorOf(model, text string) []float64 {
	v := []float64{float64(len(model))}
	for _, b := range []byte(text) {
		v = append(v, float64(b))
	}
	return v
}

// call is one EmbedStrings through the cache and the upstream calls it
// should make ("model: text|text"; none for nil).
type call struct {
	texts    []string
	model    string // embedding.WithModel; "" for none
	upstream []string
}

// TestEmbedCacheMisses: only misses go upstream, once each and in input
// order; the model is part of the key; the least recently used entry
// goes first when the cache is full.
func TestEmbedCacheMisses(t *testing.T) {
	tests := []struct {
		name  string
		max   int
		calls []call
	}{
		{"misses only, in input order, each once", 0, []call{
			{texts: []string{"a", "b"}, upstream: []string{"default: a|b"}},
			{texts: []string{"c", "b", "a", "c", "d"}, upstream: []string{"default: c|d"}},
			{texts: []string{"d", "a"}},
			{texts: nil},
		}},
		{"the model is part of the key", 0, []call{
			{texts: []string{"a"}, upstream: []string{"default: a"}},
			{texts: []string{"a"}, model: "m2", upstream: []string{"m2: a"}},
			{texts: []string{"a"}, model: "m2"},
			{texts: []string{"a"}},
		}},
		{"full: the least recently used goes", 2, []call{
			{texts: []string{"a", "b"}, upstream: []string{"default: a|b"}},
			{texts: []string{"a"}}, // b is now the least recently used
			{texts: []string{"c"}, upstream: []string{"default: c"}},
			{texts: []string{"a", "c"}},
			{texts: []string{"b"}, upstream: []string{"default: b"}},
		}},
		{"one call larger than the bound", 2, []call{
			{texts: []string{"a", "b", "c"}, upstream: []string{"default: a|b|c"}},
			{texts: []string{"b", "c"}},
			{texts: []string{"a"}, upstream: []string{"default: a"}},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := &recorder{}
			c := openai.NewEmbedCache(r, tt.max)
			for i, cl := range tt.calls {
				var opts []embedding.Option
				model := "default"
				if cl.model != "" {
					opts, model = append(opts, embedding.WithModel(cl.model)), cl.model
				}
				got, err := c.EmbedStrings(t.Context(), cl.texts, opts...)
				if err != nil {
					t.Fatalf("call %d: %v", i, err)
				}
				want := make([][]float64, len(cl.texts))
				for j, text := range cl.texts {
					want[j] = vectorOf(model, text)
				}
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("call %d %q: vectors (-want +got):\n%s", i, cl.texts, diff)
				}
				if diff := cmp.Diff(cl.upstream, r.take()); diff != "" {
					t.Errorf("call %d %q: upstream (-want +got):\n%s", i, cl.texts, diff)
				}
			}
		})
	}
}

// TestEmbedCacheFailures: a failed or short answer is an error and
// caches nothing, so the next call asks again for the same texts.
func TestEmbedCacheFailures(t *testing.T) {
	down := errors.New("endpoint down")
	tests := []struct {
		name  string
		fault func(*recorder)
		text  string
		is    error
	}{
		{"the wrapped embedder's error, unchanged", func(r *recorder) { r.fail = down }, "endpoint down", down},
		{"a vector short", func(r *recorder) { r.drop = true }, "returned 1 vectors for 2 texts", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := &recorder{}
			c := openai.NewEmbedCache(r, 0)
			if _, err := c.EmbedStrings(t.Context(), []string{"kept"}); err != nil {
				t.Fatalf("priming: %v", err)
			}
			r.take()
			tt.fault(r)
			for range 2 {
				v, err := c.EmbedStrings(t.Context(), []string{"kept", "a", "b"})
				if err == nil || !strings.Contains(err.Error(), tt.text) || v != nil {
					t.Fatalf("EmbedStrings = %v, %v; want nil and an error containing %q", v, err, tt.text)
				}
				if tt.is != nil && !errors.Is(err, tt.is) {
					t.Errorf("error %v does not match %v", err, tt.is)
				}
			}
			if diff := cmp.Diff([]string{"default: a|b", "default: a|b"}, r.take()); diff != "" {
				t.Errorf("upstream (-want +got):\n%s", diff)
			}
		})
	}
}

// TestEmbedCacheConcurrent: callers sharing a small cache, so that
// entries are evicted while others read them, each get their own
// texts' vectors (run with -race).
func TestEmbedCacheConcurrent(t *testing.T) {
	c := openai.NewEmbedCache(&recorder{}, 3)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 50 {
				texts := []string{fmt.Sprint(i % 5), fmt.Sprint(g), fmt.Sprint((i + g) % 7)}
				got, err := c.EmbedStrings(t.Context(), texts)
				if err != nil {
					t.Error(err)
					return
				}
				for j, text := range texts {
					if !cmp.Equal(vectorOf("default", text), got[j]) {
						t.Errorf("goroutine %d: vector for %q is %v", g, text, got[j])
						return
					}
				}
			}
		})
	}
	wg.Wait()
}

// TestEmbedCacheOff: wrapping no embedder, as EmbedderFromEnv returns with
// MCPFLEET_EMBED_MODEL unset, leaves the catalog without one.
func TestEmbedCacheOff(t *testing.T) {
	var off *openai.Embedder
	for name, e := range map[string]embedding.Embedder{"nil": nil, "nil *Embedder": off} {
		c := openai.NewEmbedCache(e, 0)
		if c != nil {
			t.Errorf("NewEmbedCache(%s) = %p, want nil", name, c)
		}
		if got := mcpeino.CatalogEmbedder(c); got != nil {
			t.Errorf("CatalogEmbedder(NewEmbedCache(%s)) = %#v, want nil", name, got)
		}
	}
}

// The catalog stretches its cool-down to the wait an *EmbedError names.
var _ search.RetryDelayer = (*openai.EmbedError)(nil)

// batchServer answers with testConcepts' vectors, except that the
// requests numbered in fail (from 1) get that status, once each, with
// Retry-After when retryAfter is set. It records every request's texts.
type batchServer struct {
	*httptest.Server
	fail       map[int]int // request number → status
	retryAfter string

	mu    sync.Mutex
	sent  []string // per request, "text|text"
	count int
}

func newBatchServer(t *testing.T, retryAfter string, fail map[int]int) *batchServer {
	s := &batchServer{fail: fail, retryAfter: retryAfter}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct{ Input []string }
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		s.mu.Lock()
		s.count++
		status := s.fail[s.count]
		s.sent = append(s.sent, strings.Join(req.Input, "|"))
		s.mu.Unlock()
		if status != 0 {
			if s.retryAfter != "" {
				w.Header().Set("Retry-After", s.retryAfter)
			}
			http.Error(w, `{"error":{"message":"scripted failure"}}`, status)
			return
		}
		data := make([]map[string]any, len(req.Input))
		for i, text := range req.Input {
			data[i] = map[string]any{"index": i, "embedding": testConcepts(text)}
		}
		_ = json.NewEncoder(w).Encode(map[string]any{"data": data})
	}))
	t.Cleanup(s.Close)
	return s
}

// take returns the requests' texts since the last take.
func (s *batchServer) take() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	sent := s.sent
	s.sent = nil
	return sent
}

// decorated is an embedder between the cache and an *Embedder,
// which the cache cannot see through.
type decorated struct{ embedding.Embedder }

// TestEmbedCacheKeepsEarlierBatches: when a later batch fails, the
// earlier batches' vectors reach the caller in EmbedError.Embedded and
// stay in the cache, so the next call sends only the texts still
// missing; behind a decorator the cache keeps nothing, since it cannot
// know which texts those vectors belong to.
func TestEmbedCacheKeepsEarlierBatches(t *testing.T) {
	texts := []string{"pod logs", "restart", "metrics", "journaux", "bounce"}
	tests := []struct {
		name     string
		fail     int // the request that fails, from 1
		decorate bool
		embedded int      // len(EmbedError.Embedded) of the first call
		first    []string // requests of the first call
		second   []string // requests of the second
	}{
		{"second batch fails", 2, false, 2,
			[]string{"pod logs|restart", "metrics|journaux"},
			[]string{"metrics|journaux", "bounce"}},
		{"last batch fails", 3, false, 4,
			[]string{"pod logs|restart", "metrics|journaux", "bounce"},
			[]string{"bounce"}},
		{"first batch fails: nothing to keep", 1, false, 0,
			[]string{"pod logs|restart"},
			[]string{"pod logs|restart", "metrics|journaux", "bounce"}},
		{"behind a decorator: nothing kept", 2, true, 2,
			[]string{"pod logs|restart", "metrics|journaux"},
			[]string{"pod logs|restart", "metrics|journaux", "bounce"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := newBatchServer(t, "", map[int]int{tt.fail: http.StatusInternalServerError})
			var emb embedding.Embedder = newEmbedder(t, srv.URL, openai.EmbedderConfig{BatchSize: 2, MaxRetries: -1})
			if tt.decorate {
				emb = decorated{emb}
			}
			c := openai.NewEmbedCache(emb, 0)

			v, err := c.EmbedStrings(t.Context(), texts)
			var ee *openai.EmbedError
			if v != nil || !errors.As(err, &ee) || ee.Status != http.StatusInternalServerError {
				t.Fatalf("first call = %v, %v; want nil and an *EmbedError with HTTP 500", v, err)
			}
			want := make([][]float64, len(texts))
			for i, text := range texts {
				want[i] = testConcepts(text)
			}
			if diff := cmp.Diff(want[:tt.embedded], ee.Embedded, cmpEmpty); diff != "" {
				t.Errorf("EmbedError.Embedded (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.first, srv.take()); diff != "" {
				t.Errorf("first call's requests (-want +got):\n%s", diff)
			}

			got, err := c.EmbedStrings(t.Context(), texts)
			if err != nil {
				t.Fatalf("second call: %v", err)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("second call's vectors (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.second, srv.take()); diff != "" {
				t.Errorf("second call's requests (-want +got):\n%s", diff)
			}
		})
	}
}

// cmpEmpty treats a nil and an empty slice of vectors alike.
var cmpEmpty = cmp.Comparer(func(a, b [][]float64) bool {
	if len(a) == 0 || len(b) == 0 {
		return len(a) == len(b)
	}
	return cmp.Equal(a, b)
})

// TestEmbedCacheRateLimitedCatalog: a catalog whose entry vectors fail at the
// second batch on a 429 asking for 120 s stays BM25 for those 120 s,
// not the 30 s cool-down, and then sends only the entries the first
// batch did not cover, and the query.
func TestEmbedCacheRateLimitedCatalog(t *testing.T) {
	var tools []mcp.Tool
	for _, name := range []string{"pods_log", "pods_delete", "pods_list", "events_list", "nodes_top"} {
		tools = append(tools, mcp.Tool{Name: name, Description: "Works on " + strings.ReplaceAll(name, "_", " ") + "."})
	}
	servers := []kindgroups.Server{{Name: "k8s-1", Kind: "kubernetes", Tools: tools}}
	const retry = 120 * time.Second
	srv := newBatchServer(t, strconv.Itoa(int(retry/time.Second)), map[int]int{2: http.StatusTooManyRequests})
	emb := newEmbedder(t, srv.URL, openai.EmbedderConfig{BatchSize: 2})
	clk := struct {
		sync.Mutex
		now time.Time
	}{now: time.Unix(1e9, 0)}
	now := func() time.Time { clk.Lock(); defer clk.Unlock(); return clk.now }
	advance := func(d time.Duration) { clk.Lock(); clk.now = clk.now.Add(d); clk.Unlock() }
	var reported []error
	cat := catalog.Build(servers, catalog.Config{
		Embedder: mcpeino.CatalogEmbedder(openai.NewEmbedCache(emb, 0)),
		// EmbedTimeout -1: each search runs its embedder calls itself,
		// so what reached the endpoint is settled when it returns.
		EmbedTimeout: -1, Now: now,
		OnEmbedError: func(err error) { reported = append(reported, err) },
	})
	ctx := catalog.WithScopes(t.Context(), catalog.ScopeAll)
	const q = "journaux du pod"
	search := func() []string { cat.Search(ctx, q, 3); return srv.take() }

	first := search()
	if len(first) != 2 || strings.Count(first[0], "|") != 1 {
		t.Fatalf("first search sent %q; want the first batch of two entries, then the failed second", first)
	}
	var ee *openai.EmbedError
	if len(reported) != 1 || !errors.As(reported[0], &ee) || ee.Status != http.StatusTooManyRequests || ee.RetryAfter != retry {
		t.Fatalf("reported %v; want one *EmbedError with HTTP 429 and RetryAfter %v", reported, retry)
	}
	advance(retry - time.Second)
	if sent := search(); len(sent) != 0 {
		t.Errorf("a second before the Retry-After ran out, sent %q; want nothing", sent)
	}
	advance(2 * time.Second)
	sent := search()
	if len(sent) == 0 || sent[len(sent)-1] != q {
		t.Fatalf("after the Retry-After, sent %q; want the missing entries, then the query", sent)
	}
	entries := strings.Split(strings.Join(sent[:len(sent)-1], "|"), "|")
	if n := len(tools) - 2; len(entries) != n || strings.Contains(first[0], entries[0]) {
		t.Errorf("after the Retry-After, sent entries %q; want the %d the first batch did not cover", entries, n)
	}
	if len(reported) != 1 {
		t.Errorf("reported %d errors, want 1: one outage", len(reported))
	}
}
