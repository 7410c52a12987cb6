package openai_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/cloudwego/eino/components/embedding"
	"github.com/cloudwego/eino/compose"
	"github.com/google/go-cmp/cmp"
	mcpeino "github.com/mcpfleet/mcpfleet/adapters/eino"
	"github.com/mcpfleet/mcpfleet/adapters/eino/einotest"
	"github.com/mcpfleet/mcpfleet/adapters/eino/openai"
	"github.com/mcpfleet/mcpfleet/catalog"
	"github.com/mcpfleet/mcpfleet/catalog/search"
	"github.com/mcpfleet/mcpfleet/internal/fixtures"
	"github.com/mcpfleet/mcpfleet/kindgroups"
)

// The embedder is both an eino component and, adapted, a catalog one.
var (
	_ embedding.Embedder = (*openai.Embedder)(nil)
	_ catalog.Embedder   = mcpeino.CatalogEmbedder(nil)
)

const testKey = "sk-test-0123456789"

// testConcepts is the fake model's knowledge: it knows that "journaux"
// (French) means logs and "bounce" means restart, which BM25 cannot.
var testConcepts = einotest.Concepts(
	[]string{"log", "logs", "journaux", "output"},
	[]string{"restart", "bounce", "recycle", "delete"},
	[]string{"metric", "metrics", "query", "promql", "mesures"},
)

func newEmbedder(t *testing.T, base string, cfg openai.EmbedderConfig) *openai.Embedder {
	t.Helper()
	cfg.BaseURL = base
	if cfg.Model == "" {
		cfg.Model = "text-embedding-test"
	}
	e, err := openai.NewEmbedder(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func TestEmbedderConfigFromEnv(t *testing.T) {
	tests := []struct {
		name    string
		env     map[string]string
		want    openai.EmbedderConfig
		missing []string
	}{
		{"unset model means no embedder, not an error",
			map[string]string{"OPENAI_BASE_URL": "https://api.example.com/v1", "OPENAI_API_KEY": "k"}, openai.EmbedderConfig{}, nil},
		{"shares the chat model's endpoint and key",
			map[string]string{"MCPFLEET_EMBED_MODEL": "e5", "OPENAI_BASE_URL": "https://api.example.com/v1", "OPENAI_API_KEY": "k"},
			openai.EmbedderConfig{Model: "e5", BaseURL: "https://api.example.com/v1", APIKey: "k"}, nil},
		{"own base URL overrides the shared one",
			map[string]string{"MCPFLEET_EMBED_MODEL": "e5", "MCPFLEET_EMBED_BASE_URL": "http://localhost:8081/v1", "OPENAI_BASE_URL": "https://api.example.com/v1"},
			openai.EmbedderConfig{Model: "e5", BaseURL: "http://localhost:8081/v1"}, nil},
		{"own endpoint never gets the chat key",
			map[string]string{"MCPFLEET_EMBED_MODEL": "e5", "MCPFLEET_EMBED_BASE_URL": "https://embed.example.com/v1", "OPENAI_API_KEY": "chat-key"},
			openai.EmbedderConfig{Model: "e5", BaseURL: "https://embed.example.com/v1"}, []string{"MCPFLEET_EMBED_API_KEY"}},
		{"own endpoint with its own key",
			map[string]string{"MCPFLEET_EMBED_MODEL": "e5", "MCPFLEET_EMBED_BASE_URL": "https://embed.example.com/v1", "MCPFLEET_EMBED_API_KEY": "embed-key", "OPENAI_API_KEY": "chat-key"},
			openai.EmbedderConfig{Model: "e5", BaseURL: "https://embed.example.com/v1", APIKey: "embed-key"}, nil},
		{"local endpoint needs no key",
			map[string]string{"MCPFLEET_EMBED_MODEL": "nomic-embed-text", "OPENAI_BASE_URL": "http://127.0.0.1:11434/v1"},
			openai.EmbedderConfig{Model: "nomic-embed-text", BaseURL: "http://127.0.0.1:11434/v1"}, nil},
		{"remote endpoint needs a key",
			map[string]string{"MCPFLEET_EMBED_MODEL": "e5", "OPENAI_BASE_URL": "https://api.example.com/v1"},
			openai.EmbedderConfig{Model: "e5", BaseURL: "https://api.example.com/v1"}, []string{"OPENAI_API_KEY"}},
		{"instruction prefixes are kept as written",
			map[string]string{"MCPFLEET_EMBED_MODEL": "e5", "OPENAI_BASE_URL": "http://localhost:8081/v1",
				"MCPFLEET_EMBED_QUERY_PREFIX": "query: ", "MCPFLEET_EMBED_DOC_PREFIX": "passage: "},
			openai.EmbedderConfig{Model: "e5", BaseURL: "http://localhost:8081/v1", QueryPrefix: "query: ", DocPrefix: "passage: "}, nil},
		{"prefixes without a model mean nothing",
			map[string]string{"OPENAI_BASE_URL": "http://localhost:8081/v1", "MCPFLEET_EMBED_QUERY_PREFIX": "query: "},
			openai.EmbedderConfig{}, nil},
		{"no endpoint at all",
			map[string]string{"MCPFLEET_EMBED_MODEL": "e5"},
			openai.EmbedderConfig{Model: "e5"}, []string{"OPENAI_BASE_URL (or MCPFLEET_EMBED_BASE_URL)"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := openai.EmbedderConfigFromEnv(func(k string) string { return tt.env[k] })
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("config (-want +got):\n%s", diff)
			}
			var missing []string
			if me := (*openai.MissingEnvError)(nil); errors.As(err, &me) {
				missing = me.Vars
			} else if err != nil {
				t.Fatalf("error %v is not a *MissingEnvError", err)
			}
			if diff := cmp.Diff(tt.missing, missing); diff != "" {
				t.Errorf("missing vars (-want +got):\n%s", diff)
			}
		})
	}
}

func TestNewOpenAIEmbedderRejectsBadConfig(t *testing.T) {
	tests := []struct {
		name string
		cfg  openai.EmbedderConfig
		want []string // substrings of the error
	}{
		{"empty", openai.EmbedderConfig{}, []string{"Model is empty", "BaseURL is empty"}},
		{"not http", openai.EmbedderConfig{Model: "m", BaseURL: "ftp://user:hunter2@host/v1"}, []string{"http(s) URL"}},
		{"negative batch", openai.EmbedderConfig{Model: "m", BaseURL: "http://h/v1", BatchSize: -1}, []string{"negative"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := openai.NewEmbedder(tt.cfg)
			if !errors.Is(err, openai.ErrEmbedderConfig) {
				t.Fatalf("err = %v, want ErrEmbedderConfig", err)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
			if strings.Contains(err.Error(), "hunter2") {
				t.Errorf("error %q leaks the URL's password", err)
			}
		})
	}
}

func TestOpenAIEmbedderRequestShape(t *testing.T) {
	srv := einotest.NewEmbeddingServer(einotest.EmbeddingServerOptions{Embed: testConcepts})
	defer srv.Close()
	tests := []struct {
		name, key, wantAuth string
	}{
		{"with key", testKey, "Bearer " + testKey},
		{"without key", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := len(srv.Requests())
			// A trailing slash on the base URL must not double the path's.
			e := newEmbedder(t, srv.BaseURL()+"/", openai.EmbedderConfig{Model: "e5-small", APIKey: tt.key})
			texts := []string{"pod logs", "bounce the deployment"}
			if _, err := e.EmbedStrings(t.Context(), texts); err != nil {
				t.Fatal(err)
			}
			got := srv.Requests()[before:]
			want := []einotest.EmbeddingRequest{{Path: "/v1/embeddings", Model: "e5-small", Input: texts, Authorization: tt.wantAuth}}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("requests (-want +got):\n%s", diff)
			}
		})
	}
	t.Run("WithModel overrides per call", func(t *testing.T) {
		before := len(srv.Requests())
		e := newEmbedder(t, srv.BaseURL(), openai.EmbedderConfig{Model: "e5-small"})
		if _, err := e.EmbedStrings(t.Context(), []string{"x"}, embedding.WithModel("e5-large")); err != nil {
			t.Fatal(err)
		}
		if got := srv.Requests()[before:]; len(got) != 1 || got[0].Model != "e5-large" {
			t.Errorf("requests = %+v, want one for e5-large", got)
		}
	})
	t.Run("no texts, no request", func(t *testing.T) {
		before := len(srv.Requests())
		e := newEmbedder(t, srv.BaseURL(), openai.EmbedderConfig{})
		v, err := e.EmbedStrings(t.Context(), nil)
		if err != nil || len(v) != 0 {
			t.Errorf("EmbedStrings(nil) = %v, %v; want no vectors and no error", v, err)
		}
		if n := len(srv.Requests()) - before; n != 0 {
			t.Errorf("%d requests sent, want 0", n)
		}
	})
}

// TestOpenAIEmbedderBatchingAndOrder: texts go in batches, and every
// vector lands at its text's position although the server answers in
// reverse order.
func TestOpenAIEmbedderBatchingAndOrder(t *testing.T) {
	srv := einotest.NewEmbeddingServer(einotest.EmbeddingServerOptions{Embed: testConcepts})
	defer srv.Close()
	words := []string{"logs", "bounce", "metrics", "journaux", "nothing", "output query"}
	texts := make([]string, 150)
	for i := range texts {
		texts[i] = fmt.Sprintf("%s %d", words[i%len(words)], i)
	}
	tests := []struct {
		name  string
		batch int
		sizes []int
	}{
		{"default batch of 64", 0, []int{64, 64, 22}},
		{"batch of 100", 100, []int{100, 50}},
		{"batch of 1000", 1000, []int{150}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := len(srv.Requests())
			e := newEmbedder(t, srv.BaseURL(), openai.EmbedderConfig{BatchSize: tt.batch})
			got, err := e.EmbedStrings(t.Context(), texts)
			if err != nil {
				t.Fatal(err)
			}
			want := make([][]float64, len(texts))
			for i, s := range texts {
				want[i] = testConcepts(s)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("vectors (-want +got):\n%s", diff)
			}
			var sizes []int
			var sent []string
			for _, r := range srv.Requests()[before:] {
				sizes = append(sizes, len(r.Input))
				sent = append(sent, r.Input...)
			}
			if diff := cmp.Diff(tt.sizes, sizes); diff != "" {
				t.Errorf("batch sizes (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(texts, sent); diff != "" {
				t.Errorf("texts sent (-want +got):\n%s", diff)
			}
		})
	}
}

func TestOpenAIEmbedderErrors(t *testing.T) {
	closed := einotest.NewEmbeddingServer(einotest.EmbeddingServerOptions{})
	closedURL := closed.BaseURL()
	closed.Close()
	tests := []struct {
		name     string
		opts     einotest.EmbeddingServerOptions
		base     string // overrides the server's base URL
		maxBytes int64
		reason   openai.EmbedReason
		status   int
		attempts int      // 3 where the default retries apply
		text     []string // substrings of Error()
	}{
		{"HTTP 500", einotest.EmbeddingServerOptions{Status: 500}, "", 0, openai.EmbedReasonStatus, 500, 3,
			[]string{"HTTP 500 Internal Server Error: http_status after 3 attempts", "scripted failure"}},
		{"HTTP 401", einotest.EmbeddingServerOptions{Status: 401}, "", 0, openai.EmbedReasonStatus, 401, 1, []string{"HTTP 401"}},
		{"malformed JSON", einotest.EmbeddingServerOptions{Body: `{"data": [`}, "", 0, openai.EmbedReasonResponse, 200, 1, []string{"malformed JSON"}},
		{"wrong count", einotest.EmbeddingServerOptions{Drop: true}, "", 0, openai.EmbedReasonCount, 200, 1, []string{"sent 3 texts, got 2 vectors"}},
		{"index out of range", einotest.EmbeddingServerOptions{Body: `{"data":[{"index":0,"embedding":[1]},{"index":1,"embedding":[1]},{"index":7,"embedding":[1]}]}`},
			"", 0, openai.EmbedReasonResponse, 200, 1, []string{"index 7 out of range"}},
		{"index twice", einotest.EmbeddingServerOptions{Body: `{"data":[{"index":0,"embedding":[1]},{"index":0,"embedding":[1]},{"index":1,"embedding":[1]}]}`},
			"", 0, openai.EmbedReasonResponse, 200, 1, []string{"index 0 appears twice"}},
		{"mixed dimensions", einotest.EmbeddingServerOptions{Body: `{"data":[{"index":0,"embedding":[1,2]},{"index":1,"embedding":[1]},{"index":2,"embedding":[1,2]}]}`},
			"", 0, openai.EmbedReasonResponse, 200, 1, []string{"vector 1 has 1 dimensions"}},
		{"response too large", einotest.EmbeddingServerOptions{}, "", 64, openai.EmbedReasonTooLarge, 200, 1, []string{"over 64 bytes"}},
		{"connection refused", einotest.EmbeddingServerOptions{}, closedURL, 0, openai.EmbedReasonRequest, 0, 3, []string{"request after 3 attempts"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := einotest.NewEmbeddingServer(tt.opts)
			defer srv.Close()
			base := srv.BaseURL()
			if tt.base != "" {
				base = tt.base
			}
			e := newEmbedder(t, base, openai.EmbedderConfig{APIKey: testKey, MaxResponseBytes: tt.maxBytes})
			openai.SetRetryClock(e, time.Now, (&fakeWaits{}).Sleep)
			v, err := e.EmbedStrings(t.Context(), []string{"a", "b", "c"})
			var ee *openai.EmbedError
			if !errors.As(err, &ee) {
				t.Fatalf("EmbedStrings = %v, %v; want an *EmbedError", v, err)
			}
			if v != nil {
				t.Errorf("vectors = %v alongside an error, want nil", v)
			}
			got := struct {
				Endpoint, Model  string
				Reason           openai.EmbedReason
				Status, Attempts int
			}{ee.Endpoint, ee.Model, ee.Reason, ee.Status, ee.Attempts}
			want := got
			want.Endpoint, want.Model, want.Reason, want.Status, want.Attempts = base+"/embeddings", "text-embedding-test", tt.reason, tt.status, tt.attempts
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("error fields (-want +got):\n%s", diff)
			}
			msg := err.Error()
			for _, s := range append([]string{base + "/embeddings", "text-embedding-test"}, tt.text...) {
				if !strings.Contains(msg, s) {
					t.Errorf("error %q lacks %q", msg, s)
				}
			}
			if strings.Contains(msg, testKey) {
				t.Errorf("error %q contains the API key", msg)
			}
		})
	}
}

// TestOpenAIEmbedderContext: a cancelled ctx and the per-request timeout
// both end a request the server never answers, as *EmbedError matching
// the context error.
func TestOpenAIEmbedderContext(t *testing.T) {
	srv := einotest.NewEmbeddingServer(einotest.EmbeddingServerOptions{Block: true})
	defer srv.Close()
	t.Run("cancel", func(t *testing.T) {
		e := newEmbedder(t, srv.BaseURL(), openai.EmbedderConfig{})
		ctx, cancel := context.WithCancel(t.Context())
		before := len(srv.Requests())
		go func() {
			// Cancel once the request is in flight, not before it is sent.
			for len(srv.Requests()) == before {
				time.Sleep(time.Millisecond)
			}
			cancel()
		}()
		_, err := e.EmbedStrings(ctx, []string{"a"})
		var ee *openai.EmbedError
		if !errors.As(err, &ee) || ee.Reason != openai.EmbedReasonRequest || !errors.Is(err, context.Canceled) {
			t.Errorf("err = %v, want a request *EmbedError wrapping context.Canceled", err)
		}
	})
	t.Run("timeout", func(t *testing.T) {
		e := newEmbedder(t, srv.BaseURL(), openai.EmbedderConfig{Timeout: 20 * time.Millisecond})
		_, err := e.EmbedStrings(t.Context(), []string{"a"})
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("err = %v, want context.DeadlineExceeded", err)
		}
	})
}

// TestOpenAIEmbedderInChain: the embedder is an eino component, usable as a
// compose node.
func TestOpenAIEmbedderInChain(t *testing.T) {
	srv := einotest.NewEmbeddingServer(einotest.EmbeddingServerOptions{Embed: testConcepts})
	defer srv.Close()
	e := newEmbedder(t, srv.BaseURL(), openai.EmbedderConfig{})
	r, err := compose.NewChain[[]string, [][]float64]().AppendEmbedding(e).Compile(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	got, err := r.Invoke(t.Context(), []string{"pod logs", "bounce"})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([][]float64{testConcepts("pod logs"), testConcepts("bounce")}, got); diff != "" {
		t.Errorf("vectors (-want +got):\n%s", diff)
	}
}

func TestCatalogEmbedderNil(t *testing.T) {
	var off *openai.Embedder // what EmbedderFromEnv returns with MCPFLEET_EMBED_MODEL unset
	if got := mcpeino.CatalogEmbedder(off); got != nil {
		t.Errorf("CatalogEmbedder(nil *Embedder) = %#v, want nil", got)
	}
	if got := mcpeino.CatalogEmbedder(nil); got != nil {
		t.Errorf("CatalogEmbedder(nil) = %#v, want nil", got)
	}
}

// TestHybridSearchOverHTTP: over real fixture tools, a query only the
// embedding understands ranks the right tools once the catalog has the
// embedder, and a failing endpoint leaves search as BM25 alone.
func TestHybridSearchOverHTTP(t *testing.T) {
	var servers []kindgroups.Server
	for _, k := range []string{"kubernetes", "prometheus", "gitlab"} {
		servers = append(servers, kindgroups.Server{Name: k + "-1", Kind: k, Tools: fixtures.MustLoad(t, k).Tools})
	}
	ctx := catalog.WithScopes(t.Context(), catalog.ScopeAll)
	const q = "journaux du conteneur" // French: the container's logs
	bm25 := catalog.Build(servers, catalog.Config{}).Search(ctx, q, 5)

	srv := einotest.NewEmbeddingServer(einotest.EmbeddingServerOptions{Embed: testConcepts})
	defer srv.Close()
	e := newEmbedder(t, srv.BaseURL(), openai.EmbedderConfig{})
	hybrid := catalog.Build(servers, catalog.Config{Embedder: mcpeino.CatalogEmbedder(e)}).Search(ctx, q, 5)
	if len(hybrid) == 0 || !strings.Contains(hybrid[0].Tool, "log") {
		t.Fatalf("hybrid top = %v, want a logs tool first (BM25 alone: %v)", hitNames(hybrid), hitNames(bm25))
	}
	t.Logf("BM25 %v\nhybrid %v", hitNames(bm25), hitNames(hybrid))
	if cmp.Equal(hitNames(bm25), hitNames(hybrid)) {
		t.Errorf("hybrid ranking equals BM25's: %v", hitNames(bm25))
	}

	down := einotest.NewEmbeddingServer(einotest.EmbeddingServerOptions{Status: http.StatusServiceUnavailable})
	defer down.Close()
	// No retries: the fallback is the point here, not the waits before it.
	failing := catalog.Build(servers, catalog.Config{Embedder: mcpeino.CatalogEmbedder(newEmbedder(t, down.BaseURL(), openai.EmbedderConfig{MaxRetries: -1}))})
	if diff := cmp.Diff(hitNames(bm25), hitNames(failing.Search(ctx, q, 5))); diff != "" {
		t.Errorf("failing embedder: ranking (-bm25 +got):\n%s", diff)
	}
}

func hitNames(hits []catalog.Hit) []string {
	out := make([]string, len(hits))
	for i, h := range hits {
		out[i] = h.Kind + "." + h.Tool
	}
	return out
}

// TestOpenAIEmbedderScrubsEscapedKey: an endpoint that echoes the key
// JSON-escaped (here "\u0065" for its last "e") puts no part of it in the
// error, even where the 200-byte cut of the detail falls inside the key.
func TestOpenAIEmbedderScrubsEscapedKey(t *testing.T) {
	const key = "sk-fuzz-key"
	body := `{"error":{"message":"` + strings.Repeat("x", 193) + `sk-fuzz-k\u0065y"}}`
	e, err := openai.NewEmbedder(openai.EmbedderConfig{Model: "m", BaseURL: "http://embed.invalid/v1", APIKey: key,
		HTTPClient: &http.Client{Transport: bodyTransport{http.StatusUnauthorized, body}}})
	if err != nil {
		t.Fatal(err)
	}
	_, err = e.EmbedStrings(t.Context(), []string{"a"})
	if err == nil || strings.Contains(err.Error(), key[:7]) {
		t.Errorf("error %v holds the start of the key %q", err, key[:7])
	}
}

// TestOpenAIEmbedderUnboundedResponse: MaxResponseBytes at its largest
// means no practical bound; it must not overflow into reading nothing.
func TestOpenAIEmbedderUnboundedResponse(t *testing.T) {
	body := `{"data":[{"index":0,"embedding":[0.5,1]}]}`
	e, err := openai.NewEmbedder(openai.EmbedderConfig{Model: "m", BaseURL: "http://embed.invalid/v1",
		MaxResponseBytes: math.MaxInt64, HTTPClient: &http.Client{Transport: bodyTransport{http.StatusOK, body}}})
	if err != nil {
		t.Fatal(err)
	}
	got, err := e.EmbedStrings(t.Context(), []string{"a"})
	if diff := cmp.Diff([][]float64{{0.5, 1}}, got); err != nil || diff != "" {
		t.Errorf("err %v, vectors (-want +got):\n%s", err, diff)
	}
}

// TestHybridSearchPrefixes: the catalog sends the query with
// EmbedQueryPrefix and every entry with EmbedDocPrefix, byte for byte,
// and otherwise the same texts as without prefixes.
func TestHybridSearchPrefixes(t *testing.T) {
	servers := []kindgroups.Server{{Name: "k8s", Kind: "kubernetes", Tools: fixtures.MustLoad(t, "kubernetes").Tools}}
	ctx := catalog.WithScopes(t.Context(), catalog.ScopeAll)
	const q = "journaux du conteneur"
	sent := func(t *testing.T, qp, dp string) (entries []string, query string) {
		t.Helper()
		srv := einotest.NewEmbeddingServer(einotest.EmbeddingServerOptions{Embed: testConcepts})
		defer srv.Close()
		e := newEmbedder(t, srv.BaseURL(), openai.EmbedderConfig{})
		c := catalog.Build(servers, catalog.Config{Embedder: mcpeino.CatalogEmbedder(e), EmbedQueryPrefix: qp, EmbedDocPrefix: dp})
		if hits := c.Search(ctx, q, 3); len(hits) == 0 {
			t.Fatal("no hits")
		}
		reqs := srv.Requests()
		if len(reqs) < 2 || len(reqs[len(reqs)-1].Input) != 1 {
			t.Fatalf("requests %+v; want entry batches, then the query alone", reqs)
		}
		for _, r := range reqs[:len(reqs)-1] {
			entries = append(entries, r.Input...)
		}
		return entries, reqs[len(reqs)-1].Input[0]
	}
	plain, plainQuery := sent(t, "", "")
	entries, query := sent(t, "query: ", "passage: ")
	if want := "query: " + plainQuery; query != want || plainQuery != q {
		t.Errorf("query sent as %q (without prefixes %q), want %q", query, plainQuery, want)
	}
	want := make([]string, len(plain))
	for i, s := range plain {
		want[i] = "passage: " + s
	}
	if diff := cmp.Diff(want, entries); diff != "" {
		t.Errorf("entry texts (-want +got):\n%s", diff)
	}
}

// step is one scripted answer of a retryServer: a status with headers, or
// a connection dropped before any answer.
type step struct {
	status int
	header map[string]string
	drop   bool
}

// retryServer answers requests with its script, one step each, and once
// the script is spent with a vector per input text. Error bodies echo the
// API key, as a careless endpoint might.
type retryServer struct {
	*httptest.Server
	mu       sync.Mutex
	script   []step
	requests int
}

func newRetryServer(t *testing.T, script ...step) *retryServer {
	s := &retryServer{script: script}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct{ Input []string }
		_ = json.NewDecoder(r.Body).Decode(&req)
		s.mu.Lock()
		n := s.requests
		s.requests++
		s.mu.Unlock()
		if n < len(s.script) {
			st := s.script[n]
			if st.drop {
				conn, _, err := http.NewResponseController(w).Hijack()
				if err == nil {
					conn.Close()
				}
				return
			}
			for k, v := range st.header {
				w.Header().Set(k, v)
			}
			w.WriteHeader(st.status)
			_, _ = w.Write([]byte(`{"error":{"message":"scripted ` + http.StatusText(st.status) + ` for ` + r.Header.Get("Authorization") + `"}}`))
			return
		}
		data := make([]map[string]any, len(req.Input))
		for i := range req.Input {
			data[i] = map[string]any{"index": i, "embedding": []float64{float64(i), 1}}
		}
		_ = json.NewEncoder(w).Encode(map[string]any{"data": data})
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *retryServer) count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.requests
}

// fakeWaits is the embedder's clock and sleep: it records each wait and
// moves its clock on instead of sleeping.
type fakeWaits struct {
	mu    sync.Mutex
	now   time.Time
	waits []time.Duration
}

func (f *fakeWaits) Now() time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.now
}

func (f *fakeWaits) Sleep(ctx context.Context, d time.Duration) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.waits = append(f.waits, d)
	f.now = f.now.Add(d)
	return ctx.Err()
}

func (f *fakeWaits) all() []time.Duration {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]time.Duration(nil), f.waits...)
}

// retryEmbedder is an embedder on base whose waits f records.
func retryEmbedder(t *testing.T, base string, cfg openai.EmbedderConfig, f *fakeWaits) *openai.Embedder {
	t.Helper()
	cfg.APIKey = testKey
	e := newEmbedder(t, base, cfg)
	openai.SetRetryClock(e, f.Now, f.Sleep)
	return e
}

// span is an accepted range for a jittered backoff.
type span struct{ lo, hi time.Duration }

// TestOpenAIEmbedderRetries: which failures are retried, how long the
// embedder waits between attempts (Retry-After when the endpoint names a
// wait, else a jittered exponential backoff), and what the error says
// when the attempts run out.
func TestOpenAIEmbedderRetries(t *testing.T) {
	start := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	status := func(code int, header ...string) step {
		h := map[string]string{}
		for i := 0; i+1 < len(header); i += 2 {
			h[header[i]] = header[i+1]
		}
		return step{status: code, header: h}
	}
	tests := []struct {
		name       string
		cfg        openai.EmbedderConfig
		script     []step
		requests   int
		waits      []span
		status     int // of the error; 0 when the call succeeds
		attempts   int // of the error
		retryAfter time.Duration
		text       []string // substrings of the error
	}{
		{name: "429 with Retry-After seconds, then success",
			script: []step{status(429, "Retry-After", "2")}, requests: 2, waits: []span{{2 * time.Second, 2 * time.Second}}},
		{name: "503 with Retry-After as an HTTP date",
			script:   []step{status(503, "Retry-After", start.Add(3*time.Second).Format(http.TimeFormat))},
			requests: 2, waits: []span{{3 * time.Second, 3 * time.Second}}},
		{name: "Retry-After in the past falls back to backoff",
			script:   []step{status(503, "Retry-After", start.Add(-time.Hour).Format(http.TimeFormat))},
			requests: 2, waits: []span{{250 * time.Millisecond, 500 * time.Millisecond}}},
		{name: "500 twice, then success, with growing backoff",
			script: []step{status(500), status(500)}, requests: 3,
			waits: []span{{250 * time.Millisecond, 500 * time.Millisecond}, {500 * time.Millisecond, time.Second}}},
		{name: "408 is retried", script: []step{status(408)}, requests: 2, waits: []span{{250 * time.Millisecond, 500 * time.Millisecond}}},
		{name: "a dropped connection is retried", script: []step{{drop: true}}, requests: 2, waits: []span{{250 * time.Millisecond, 500 * time.Millisecond}}},
		{name: "500 until the attempts run out",
			script: []step{status(500), status(500), status(500)}, requests: 3,
			waits:  []span{{250 * time.Millisecond, 500 * time.Millisecond}, {500 * time.Millisecond, time.Second}},
			status: 500, attempts: 3, text: []string{"HTTP 500 Internal Server Error: http_status after 3 attempts: scripted Internal Server Error"}},
		{name: "more retries when configured",
			cfg:    openai.EmbedderConfig{MaxRetries: 4},
			script: []step{status(502), status(502), status(502), status(502)}, requests: 5,
			waits: []span{{250 * time.Millisecond, 500 * time.Millisecond}, {500 * time.Millisecond, time.Second},
				{time.Second, 2 * time.Second}, {2 * time.Second, 4 * time.Second}}},
		{name: "no retries when MaxRetries is negative",
			cfg:    openai.EmbedderConfig{MaxRetries: -1},
			script: []step{status(500)}, requests: 1, status: 500, attempts: 1},
		{name: "400 is not retried",
			script: []step{status(400)}, requests: 1, status: 400, attempts: 1, text: []string{"HTTP 400 Bad Request: http_status: scripted"}},
		{name: "401 is not retried", script: []step{status(401)}, requests: 1, status: 401, attempts: 1},
		{name: "501 is not retried", script: []step{status(501)}, requests: 1, status: 501, attempts: 1},
		{name: "a Retry-After beyond MaxRetryWait ends the call at once",
			script: []step{status(429, "Retry-After", "60")}, requests: 1, status: 429, attempts: 1, retryAfter: time.Minute,
			text: []string{"(retry after 1m0s)"}},
		{name: "waits add up to MaxRetryWait",
			cfg:    openai.EmbedderConfig{MaxRetries: 5, MaxRetryWait: 5 * time.Second},
			script: []step{status(429, "Retry-After", "3"), status(429, "Retry-After", "3")}, requests: 2,
			waits: []span{{3 * time.Second, 3 * time.Second}}, status: 429, attempts: 2, retryAfter: 3 * time.Second,
			text: []string{"after 2 attempts", "(retry after 3s)"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := newRetryServer(t, tt.script...)
			f := &fakeWaits{now: start}
			e := retryEmbedder(t, srv.URL, tt.cfg, f)
			v, err := e.EmbedStrings(t.Context(), []string{"a", "b"})
			if n := srv.count(); n != tt.requests {
				t.Errorf("%d requests, want %d", n, tt.requests)
			}
			waits := f.all()
			if len(waits) != len(tt.waits) {
				t.Errorf("waits %v, want %d within %v", waits, len(tt.waits), tt.waits)
			}
			for i, w := range waits[:min(len(waits), len(tt.waits))] {
				if w < tt.waits[i].lo || w > tt.waits[i].hi {
					t.Errorf("wait %d = %v, want within [%v, %v]", i, w, tt.waits[i].lo, tt.waits[i].hi)
				}
			}
			if tt.status == 0 {
				if diff := cmp.Diff([][]float64{{0, 1}, {1, 1}}, v); err != nil || diff != "" {
					t.Fatalf("err %v, vectors (-want +got):\n%s", err, diff)
				}
				return
			}
			var ee *openai.EmbedError
			if !errors.As(err, &ee) {
				t.Fatalf("EmbedStrings = %v, %v; want an *EmbedError", v, err)
			}
			got := [3]any{ee.Status, ee.Attempts, ee.RetryAfter}
			if diff := cmp.Diff([3]any{tt.status, tt.attempts, tt.retryAfter}, got); diff != "" {
				t.Errorf("status, attempts, retry-after (-want +got):\n%s", diff)
			}
			msg := err.Error()
			for _, s := range tt.text {
				if !strings.Contains(msg, s) {
					t.Errorf("error %q lacks %q", msg, s)
				}
			}
			if strings.Contains(msg, testKey) {
				t.Errorf("error %q contains the API key", msg)
			}
		})
	}
}

// TestOpenAIEmbedderRetryStopsForContext: the wait before a retry ends
// when ctx does, and a wait that would outlast ctx's deadline is not
// begun.
func TestOpenAIEmbedderRetryStopsForContext(t *testing.T) {
	t.Run("cancelled during the wait", func(t *testing.T) {
		srv := newRetryServer(t, step{status: 503, header: map[string]string{"Retry-After": "1"}})
		ctx, cancel := context.WithCancel(t.Context())
		f := &fakeWaits{now: time.Now()}
		e := retryEmbedder(t, srv.URL, openai.EmbedderConfig{}, f)
		// The wait blocks, as a real one would, until the caller cancels.
		openai.SetRetryClock(e, f.Now, func(ctx context.Context, d time.Duration) error {
			_ = f.Sleep(ctx, d)
			cancel()
			<-ctx.Done()
			return ctx.Err()
		})
		_, err := e.EmbedStrings(ctx, []string{"a"})
		var ee *openai.EmbedError
		if !errors.As(err, &ee) || ee.Reason != openai.EmbedReasonRequest || !errors.Is(err, context.Canceled) {
			t.Fatalf("err = %v, want a request *EmbedError wrapping context.Canceled", err)
		}
		for _, s := range []string{"interrupted while waiting to retry", "HTTP 503 Service Unavailable"} {
			if !strings.Contains(err.Error(), s) {
				t.Errorf("error %q lacks %q", err, s)
			}
		}
		if n := srv.count(); n != 1 {
			t.Errorf("%d requests, want 1", n)
		}
	})
	t.Run("a wait past the deadline is not begun", func(t *testing.T) {
		srv := newRetryServer(t, step{status: 429, header: map[string]string{"Retry-After": "120"}})
		now := time.Now()
		ctx, cancel := context.WithDeadline(t.Context(), now.Add(time.Minute))
		defer cancel()
		f := &fakeWaits{now: now}
		e := retryEmbedder(t, srv.URL, openai.EmbedderConfig{MaxRetryWait: time.Hour}, f)
		_, err := e.EmbedStrings(ctx, []string{"a"})
		var ee *openai.EmbedError
		if !errors.As(err, &ee) || ee.Status != 429 || ee.RetryAfter != 2*time.Minute {
			t.Fatalf("err = %v, want the 429 *EmbedError asking for 2m", err)
		}
		if w := f.all(); len(w) != 0 {
			t.Errorf("waited %v past the deadline", w)
		}
	})
}

// TestEmbedderConfigFromEnvMaxRetries: MCPFLEET_EMBED_MAX_RETRIES counts
// retries as an operator would (0 is none), and a value that is not a
// whole number is an error naming the variable and what it takes,
// alongside any missing variable.
func TestEmbedderConfigFromEnvMaxRetries(t *testing.T) {
	tests := []struct {
		name    string
		value   string
		base    string
		want    int
		bad     bool
		missing bool
	}{
		{name: "unset means the default", want: 0},
		{name: "a count", value: "5", want: 5},
		{name: "spaces around it", value: " 4 ", want: 4},
		{name: "zero turns retries off", value: "0", want: -1},
		{name: "negative turns retries off", value: "-2", want: -1},
		{name: "not a number", value: "three", bad: true},
		{name: "a duration is not a count", value: "3s", bad: true},
		{name: "reported with a missing endpoint", value: "x", base: "-", bad: true, missing: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := map[string]string{"MCPFLEET_EMBED_MODEL": "e5", "OPENAI_BASE_URL": "http://localhost:8081/v1", "MCPFLEET_EMBED_MAX_RETRIES": tt.value}
			if tt.base == "-" {
				delete(env, "OPENAI_BASE_URL")
			}
			c, err := openai.EmbedderConfigFromEnv(func(k string) string { return env[k] })
			var ve *openai.EnvValueError
			var me *openai.MissingEnvError
			if got := errors.As(err, &ve); got != tt.bad {
				t.Fatalf("err = %v; EnvValueError %v, want %v", err, got, tt.bad)
			}
			if got := errors.As(err, &me); got != tt.missing {
				t.Errorf("err = %v; MissingEnvError %v, want %v", err, got, tt.missing)
			}
			if tt.bad {
				want := `eino: MCPFLEET_EMBED_MAX_RETRIES: got "` + tt.value + `", want a whole number of retries, 0 for none`
				if ve.Error() != want {
					t.Errorf("error %q, want %q", ve, want)
				}
				return
			}
			if c.MaxRetries != tt.want {
				t.Errorf("MaxRetries = %d, want %d", c.MaxRetries, tt.want)
			}
		})
	}
}

// hangServer is an embeddings endpoint that answers like a model until
// hang is set; then it holds every request until the client gives up or
// the test ends.
type hangServer struct {
	*httptest.Server
	hang     atomic.Bool
	requests atomic.Int32
	arrived  chan struct{} // one send per request, dropped when full
	release  chan struct{}
}

func newHangServer(t *testing.T) *hangServer {
	s := &hangServer{arrived: make(chan struct{}, 64), release: make(chan struct{})}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct{ Input []string }
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		s.requests.Add(1)
		select {
		case s.arrived <- struct{}{}:
		default:
		}
		if s.hang.Load() {
			select {
			case <-s.release:
			case <-r.Context().Done():
			}
			return
		}
		type datum struct {
			Index     int       `json:"index"`
			Embedding []float64 `json:"embedding"`
		}
		data := make([]datum, len(req.Input))
		for i, text := range req.Input {
			data[i] = datum{i, testConcepts(text)}
		}
		_ = json.NewEncoder(w).Encode(map[string]any{"data": data})
	}))
	// Cleanups run last first: release the handlers, then close.
	t.Cleanup(s.Close)
	t.Cleanup(func() { close(s.release) })
	return s
}

// fakeClock is Config.Now for the cool-down.
type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// errorLog is Config.OnEmbedError.
type errorLog struct {
	mu   sync.Mutex
	errs []error
}

func (l *errorLog) add(err error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.errs = append(l.errs, err)
}

func (l *errorLog) all() []error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]error(nil), l.errs...)
}

// hangBound is a generous upper bound for a search whose EmbedTimeout is
// hangTimeout: the assertion is that a search does not wait out the
// embedder's own 30 s request timeout, not how fast it is.
const (
	hangTimeout = time.Second
	hangBound   = 15 * time.Second
)

type hangFixture struct {
	srv   *hangServer
	cat   *catalog.Catalog
	clock *fakeClock
	log   *errorLog
	bm25  []string // the BM25 ranking of hangQuery
}

const hangQuery = "journaux du conteneur" // French: the container's logs

func newHangFixture(t *testing.T, cfg catalog.Config) *hangFixture {
	servers := []kindgroups.Server{{Name: "k8s", Kind: "kubernetes", Tools: fixtures.MustLoad(t, "kubernetes").Tools}}
	f := &hangFixture{srv: newHangServer(t), clock: &fakeClock{now: time.Unix(1e9, 0)}, log: &errorLog{}}
	f.bm25 = hitNames(catalog.Build(servers, catalog.Config{}).Search(catalog.WithScopes(t.Context(), catalog.ScopeAll), hangQuery, 5))
	cfg.Embedder = mcpeino.CatalogEmbedder(newEmbedder(t, f.srv.URL+"/v1", openai.EmbedderConfig{}))
	cfg.Now = f.clock.Now
	cfg.OnEmbedError = f.log.add
	f.cat = catalog.Build(servers, cfg)
	return f
}

// search runs hangQuery and fails the test if it took longer than
// hangBound.
func (f *hangFixture) search(t *testing.T, ctx context.Context) []string {
	t.Helper()
	start := time.Now()
	hits := hitNames(f.cat.Search(catalog.WithScopes(ctx, catalog.ScopeAll), hangQuery, 5))
	if d := time.Since(start); d > hangBound {
		t.Errorf("search took %v with EmbedTimeout %v", d, hangTimeout)
	}
	return hits
}

// TestHybridSearchHangingEndpoint: an endpoint that stops answering costs
// a search at most EmbedTimeout, concurrent searches included; then
// search stays BM25 without asking the endpoint for the cool-down, and
// afterwards one search asks again.
func TestHybridSearchHangingEndpoint(t *testing.T) {
	f := newHangFixture(t, catalog.Config{EmbedTimeout: hangTimeout})
	hybrid := f.search(t, t.Context())
	if cmp.Equal(hybrid, f.bm25) {
		t.Fatalf("hybrid ranking equals BM25's %v; the test needs one that differs", hybrid)
	}

	f.srv.hang.Store(true)
	before := f.srv.requests.Load()
	var wg sync.WaitGroup
	got := make([][]string, 3)
	for i := range got {
		wg.Go(func() { got[i] = f.search(t, t.Context()) })
	}
	wg.Wait()
	for i, g := range got {
		if diff := cmp.Diff(f.bm25, g); diff != "" {
			t.Errorf("concurrent search %d while hanging (-bm25 +got):\n%s", i, diff)
		}
	}
	if n := f.srv.requests.Load() - before; n < 1 || n > 3 {
		t.Errorf("%d query requests from 3 searches, want 1 to 3", n)
	}
	errs := f.log.all()
	if len(errs) != 1 || !errors.Is(errs[0], search.ErrEmbedTimeout) {
		t.Fatalf("OnEmbedError got %v, want one ErrEmbedTimeout", errs)
	}

	// The cool-down: BM25, and nothing reaches the endpoint, even when it
	// has recovered.
	f.srv.hang.Store(false)
	before = f.srv.requests.Load()
	for range 3 {
		f.clock.Advance(9 * time.Second)
		if diff := cmp.Diff(f.bm25, f.search(t, t.Context())); diff != "" {
			t.Errorf("search during the cool-down (-bm25 +got):\n%s", diff)
		}
	}
	if n := f.srv.requests.Load() - before; n != 0 {
		t.Errorf("%d requests during the cool-down, want 0", n)
	}

	// After it, one search tries again; a failure starts another
	// cool-down without a second warning.
	f.srv.hang.Store(true)
	f.clock.Advance(4 * time.Second)
	f.search(t, t.Context())
	f.search(t, t.Context())
	if n := f.srv.requests.Load() - before; n != 1 {
		t.Errorf("%d requests after the cool-down, want 1", n)
	}
	if n := len(f.log.all()); n != 1 {
		t.Errorf("OnEmbedError called %d times in one outage, want 1", n)
	}
	f.srv.hang.Store(false)
	f.clock.Advance(search.DefaultEmbedCooldown)
	if diff := cmp.Diff(hybrid, f.search(t, t.Context())); diff != "" {
		t.Errorf("search after recovery (-hybrid +got):\n%s", diff)
	}
	if n := f.srv.requests.Load() - before; n != 2 {
		t.Errorf("%d requests in all after the cool-downs, want 2", n)
	}
}

// TestHybridSearchHangingFromStart: when the entry vectors themselves
// hang, the first search answers with BM25 within EmbedTimeout and later
// ones at once, without new requests, until the computation times out and
// starts the cool-down.
func TestHybridSearchHangingFromStart(t *testing.T) {
	f := newHangFixture(t, catalog.Config{EmbedTimeout: hangTimeout, EmbedEntriesTimeout: 3 * hangTimeout})
	f.srv.hang.Store(true)
	for i := range 3 {
		if diff := cmp.Diff(f.bm25, f.search(t, t.Context())); diff != "" {
			t.Errorf("search %d (-bm25 +got):\n%s", i, diff)
		}
	}
	if n := f.srv.requests.Load(); n != 1 {
		t.Errorf("%d requests, want the one for the entries", n)
	}
	// The computation's own timeout ends the wait for OnEmbedError.
	deadline := time.Now().Add(hangBound)
	for len(f.log.all()) == 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if errs := f.log.all(); len(errs) != 1 || !errors.Is(errs[0], context.DeadlineExceeded) {
		t.Fatalf("OnEmbedError got %v, want one deadline error", errs)
	}
	f.srv.hang.Store(false)
	f.search(t, t.Context())
	if n := f.srv.requests.Load(); n != 1 {
		t.Errorf("%d requests during the cool-down, want still 1", n)
	}
	f.clock.Advance(search.DefaultEmbedCooldown)
	if cmp.Equal(f.bm25, f.search(t, t.Context())) {
		t.Error("search after the cool-down is still BM25 alone")
	}
}

// TestHybridSearchCallerCancel: a search its caller cancels while the
// endpoint is busy returns BM25, and is no failure: no OnEmbedError, no
// cool-down, embeddings stay on even where the first failure would turn
// them off for good.
func TestHybridSearchCallerCancel(t *testing.T) {
	tests := []struct {
		name string
		cfg  catalog.Config
	}{
		{"serve: bounded wait, cool-down", catalog.Config{EmbedTimeout: 10 * hangBound}},
		{"one-shot: unbounded wait, off for good", catalog.Config{EmbedTimeout: -1, EmbedCooldown: -1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newHangFixture(t, tt.cfg)
			hybrid := f.search(t, t.Context()) // the entries, computed
			f.srv.hang.Store(true)
			drain(f.srv.arrived)
			ctx, cancel := context.WithCancel(t.Context())
			go func() {
				<-f.srv.arrived // the query's request is in flight
				cancel()
			}()
			if diff := cmp.Diff(f.bm25, f.search(t, ctx)); diff != "" {
				t.Errorf("cancelled search (-bm25 +got):\n%s", diff)
			}
			f.srv.hang.Store(false)
			before := f.srv.requests.Load()
			if diff := cmp.Diff(hybrid, f.search(t, t.Context())); diff != "" {
				t.Errorf("search after a cancelled one (-hybrid +got):\n%s", diff)
			}
			if n := f.srv.requests.Load() - before; n != 1 {
				t.Errorf("%d requests after a cancelled search, want 1", n)
			}
			if errs := f.log.all(); len(errs) != 0 {
				t.Errorf("OnEmbedError got %v for a cancelled search", errs)
			}
		})
	}
}

func drain(c chan struct{}) {
	for {
		select {
		case <-c:
		default:
			return
		}
	}
}
