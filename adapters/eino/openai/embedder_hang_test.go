package openai_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	mcpeino "github.com/mcpfleet/mcpfleet/adapters/eino"
	"github.com/mcpfleet/mcpfleet/adapters/eino/openai"
	"github.com/mcpfleet/mcpfleet/catalog"
	"github.com/mcpfleet/mcpfleet/catalog/search"
	"github.com/mcpfleet/mcpfleet/internal/fixtures"
	"github.com/mcpfleet/mcpfleet/kindgroups"
)

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
