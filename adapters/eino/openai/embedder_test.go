package openai_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/cloudwego/eino/components/embedding"
	"github.com/cloudwego/eino/compose"
	"github.com/google/go-cmp/cmp"

	mcpeino "github.com/mcpfleet/mcpfleet/adapters/eino"
	"github.com/mcpfleet/mcpfleet/adapters/eino/einotest"
	"github.com/mcpfleet/mcpfleet/adapters/eino/openai"
	"github.com/mcpfleet/mcpfleet/catalog"
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
