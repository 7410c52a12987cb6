package openai_test

import (
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cloudwego/eino/components/embedding"
	"github.com/google/go-cmp/cmp"
	"github.com/mark3labs/mcp-go/mcp"

	mcpeino "github.com/mcpfleet/mcpfleet/adapters/eino"
	"github.com/mcpfleet/mcpfleet/adapters/eino/openai"
	"github.com/mcpfleet/mcpfleet/catalog"
	"github.com/mcpfleet/mcpfleet/catalog/search"
	"github.com/mcpfleet/mcpfleet/kindgroups"
)

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
