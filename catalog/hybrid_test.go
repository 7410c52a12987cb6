package catalog_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpfleet/mcpfleet/catalog"
	"github.com/mcpfleet/mcpfleet/catalog/internal/catalogtest"
	"github.com/mcpfleet/mcpfleet/catalog/search"
)

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
