package search

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"time"
)

// Hybrid search defaults, used where Config leaves a field zero.
const (
	// DefaultEmbedTimeout bounds one search's wait for embeddings: long
	// enough for a query on a local CPU model, short enough that an agent
	// does not notice a dead endpoint.
	DefaultEmbedTimeout = 5 * time.Second
	// DefaultEmbedEntriesTimeout bounds the one computation of every
	// entry's vector, which for a large fleet on a CPU takes minutes.
	DefaultEmbedEntriesTimeout = 2 * time.Minute
	// DefaultEmbedCooldown is how long search stays BM25 after the
	// embedder failed, before one search tries again.
	DefaultEmbedCooldown = 30 * time.Second
	// MaxEmbedRetryDelay bounds how far a [RetryDelayer] error stretches
	// the cool-down: an endpoint asking for an hour must not turn
	// embeddings off for the hour on a misread header.
	MaxEmbedRetryDelay = 10 * time.Minute
)

// RetryDelayer is implemented by embedder errors that know how long the
// endpoint asked to be left alone, such as an HTTP 429's Retry-After.
// The catalog finds it with errors.As, so it may sit anywhere in the
// error's chain. After such a failure, search stays BM25 for the longer
// of Config.EmbedCooldown and RetryDelay, the latter at most
// MaxEmbedRetryDelay: trying sooner than the endpoint asked would only
// be refused again. A zero or negative RetryDelay changes nothing.
type RetryDelayer interface {
	RetryDelay() time.Duration
}

// ErrEmbedTimeout is passed to Config.OnEmbedError (wrapped, with the
// timeout) when the embedder did not return a query's vector within
// Config.EmbedTimeout.
var ErrEmbedTimeout = errors.New("catalog: no query embedding within the timeout")

// errEmbedPending means the entry vectors are still being computed: the
// search answers with BM25, and only the computation's own outcome counts
// as a success or a failure.
var errEmbedPending = errors.New("catalog: entry vectors still being computed")

// errEmbedSettled means the failure was already reported by whoever ran
// the entry computation.
var errEmbedSettled = errors.New("catalog: entry vectors failed")

// embedState is the mutable side of hybrid search: the entry vectors, the
// computation in flight, and the cool-down. Its lock is never held across
// a call to the embedder, so no search queues behind another's slow call.
type embedState struct {
	e                         Embedder
	queryPrefix, docPrefix    string
	timeout, entries, cooling time.Duration
	onError                   func(error)
	now                       func() time.Time

	mu      sync.Mutex
	vectors [][]float64 // per entry; nil until computed
	build   *entryBuild // the computation in flight, if any
	failing bool        // the last attempt failed; OnEmbedError was called
	until   time.Time   // while failing, no attempt before this
	probing bool        // while failing, a search is trying again
}

// entryBuild is one computation of the entry vectors. vecs and err are
// set before done is closed.
type entryBuild struct {
	done chan struct{}
	vecs [][]float64
	err  error
	// slow is set once a search gave up waiting: later searches answer
	// with BM25 at once instead of each waiting out its timeout.
	slow bool
}

func newEmbedState(cfg Options) *embedState {
	s := &embedState{e: cfg.Embedder, queryPrefix: cfg.EmbedQueryPrefix, docPrefix: cfg.EmbedDocPrefix,
		timeout: cfg.EmbedTimeout, entries: cfg.EmbedEntriesTimeout, cooling: cfg.EmbedCooldown,
		onError: cfg.OnEmbedError, now: cfg.Now}
	if s.timeout == 0 {
		s.timeout = DefaultEmbedTimeout
	}
	if s.entries <= 0 {
		s.entries = DefaultEmbedEntriesTimeout
	}
	if s.cooling == 0 {
		s.cooling = DefaultEmbedCooldown
	}
	if s.now == nil {
		s.now = time.Now
	}
	return s
}

// hybrid fuses the BM25 ranking with embedding similarity by reciprocal
// rank fusion. It reports false when there are no embeddings to fuse
// (failure, timeout, cool-down, cancellation).
func (c *Index) hybrid(ctx context.Context, query string, ranked []scored, allow func(int) bool) ([]scored, bool) {
	vecs, qv, ok := c.embeddings(ctx, query)
	if !ok {
		return nil, false
	}
	var sim []scored
	for d, v := range vecs {
		if allow(d) {
			sim = append(sim, scored{d, cosine(qv, v)})
		}
	}
	sim = topN(sim, hybridDepth)
	fused := map[int]float64{}
	lexRank := map[int]int{}
	for r, s := range ranked {
		fused[s.doc] += 1 / float64(rrfK+r+1)
		lexRank[s.doc] = r + 1
	}
	for r, s := range sim {
		fused[s.doc] += 1 / float64(rrfK+r+1)
	}
	out := make([]scored, 0, len(fused))
	for d, s := range fused {
		out = append(out, scored{d, s})
	}
	// Equal fused scores go to the better lexical rank: a word match is
	// evidence, a tie in embedding space is not.
	rankOf := func(d int) int {
		if r, ok := lexRank[d]; ok {
			return r
		}
		return math.MaxInt
	}
	slices.SortFunc(out, func(a, b scored) int {
		if a.score != b.score {
			if a.score > b.score {
				return -1
			}
			return 1
		}
		if ra, rb := rankOf(a.doc), rankOf(b.doc); ra != rb {
			if ra < rb {
				return -1
			}
			return 1
		}
		return a.doc - b.doc
	})
	return out, true
}

// embeddings returns the entry vectors and the query's vector, or false
// when search must do without: during a cool-down, when the wait ran out,
// when the embedder failed or the caller gave up.
func (c *Index) embeddings(ctx context.Context, query string) ([][]float64, []float64, bool) {
	s := c.emb
	s.mu.Lock()
	probe := false
	if s.failing {
		if s.cooling < 0 || s.now().Before(s.until) || s.probing {
			s.mu.Unlock()
			return nil, nil, false
		}
		// One search tries again; the others stay BM25 meanwhile, so a
		// still-dead endpoint costs one search one timeout.
		s.probing, probe = true, true
	}
	s.mu.Unlock()

	wctx, cancel := ctx, context.CancelFunc(func() {})
	if s.timeout > 0 {
		wctx, cancel = context.WithTimeout(ctx, s.timeout)
	}
	defer cancel()
	vecs, err := c.entryVectors(ctx, wctx)
	var qv []float64
	if err == nil {
		qv, err = s.queryVector(ctx, wctx, query)
	}
	s.settle(ctx, err, probe)
	return vecs, qv, err == nil
}

// settle records a search's outcome. Success ends an outage. An error
// while ctx is done is the caller's cancellation, and a computation still
// in flight or already reported is no news: neither changes anything.
// Any other error starts a cool-down, and OnEmbedError is called, outside
// the lock, when it starts an outage.
func (s *embedState) settle(ctx context.Context, err error, probe bool) {
	s.mu.Lock()
	if probe {
		s.probing = false
	}
	first := false
	switch {
	case err == nil:
		s.failing = false
	case errors.Is(err, errEmbedPending), errors.Is(err, errEmbedSettled), ctx.Err() != nil:
	default:
		first = !s.failing
		s.failing = true
		s.until = s.now().Add(s.cooldown(err))
	}
	s.mu.Unlock()
	if first && s.onError != nil {
		s.onError(err)
	}
}

// cooldown is how long search stays BM25 after err: Config.EmbedCooldown,
// stretched to the wait err asks for, if any, up to MaxEmbedRetryDelay.
func (s *embedState) cooldown(err error) time.Duration {
	var rd RetryDelayer
	if errors.As(err, &rd) {
		return max(s.cooling, min(rd.RetryDelay(), MaxEmbedRetryDelay))
	}
	return s.cooling
}

// entryVectors returns every entry's vector, computing them once. ctx is
// the caller's, wctx bounds this search's wait. The computation runs on
// its own goroutine, detached from ctx and bounded by EmbedEntriesTimeout,
// unless EmbedTimeout is negative: then it runs here, under ctx.
func (c *Index) entryVectors(ctx, wctx context.Context) ([][]float64, error) {
	s := c.emb
	s.mu.Lock()
	if s.vectors != nil {
		v := s.vectors
		s.mu.Unlock()
		return v, nil
	}
	b := s.build
	switch {
	case b == nil:
		b = &entryBuild{done: make(chan struct{})}
		s.build = b
		s.mu.Unlock()
		if s.timeout < 0 {
			c.buildVectors(ctx, ctx, b)
		} else {
			// The first search may be cancelled or give up; the vectors
			// are for every later search too.
			bctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), s.entries)
			go func() {
				defer cancel()
				c.buildVectors(context.Background(), bctx, b)
			}()
		}
	case b.slow:
		s.mu.Unlock()
		return nil, errEmbedPending
	default:
		s.mu.Unlock()
	}
	select {
	case <-b.done:
		if b.err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			return nil, errEmbedSettled
		}
		return b.vecs, nil
	case <-wctx.Done():
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		s.mu.Lock()
		b.slow = true
		s.mu.Unlock()
		return nil, errEmbedPending
	}
}

// buildVectors runs one entry computation under bctx and records it; a
// failure is settled (cool-down, OnEmbedError) before done is closed, as
// the caller's cancellation if ctx is done.
func (c *Index) buildVectors(ctx, bctx context.Context, b *entryBuild) {
	s := c.emb
	texts := make([]string, len(c.docs))
	for i, e := range c.docs {
		texts[i] = s.docPrefix + e.Kind + " " + strings.Join(nameWords(e.Tool), " ") + ": " + e.Line + ". " + e.Description
	}
	v, err := s.e.EmbedStrings(bctx, texts)
	if err == nil && len(v) != len(texts) {
		v, err = nil, errEmbedCount
	}
	s.mu.Lock()
	s.build = nil
	if err == nil {
		s.vectors = v
	}
	b.vecs, b.err = v, err
	s.mu.Unlock()
	if err != nil {
		s.settle(ctx, err, false)
	}
	close(b.done)
}

// queryVector embeds the query, giving up when wctx ends even if the
// embedder does not honour it: a slow endpoint must not stall the search.
func (s *embedState) queryVector(ctx, wctx context.Context, query string) ([]float64, error) {
	type result struct {
		v   [][]float64
		err error
	}
	embed := func() result {
		v, err := s.e.EmbedStrings(wctx, []string{s.queryPrefix + query})
		if err == nil && len(v) != 1 {
			err = errEmbedCount
		}
		return result{v, err}
	}
	var r result
	if s.timeout < 0 {
		r = embed()
	} else {
		ch := make(chan result, 1)
		go func() { ch <- embed() }()
		select {
		case r = <-ch:
		case <-wctx.Done():
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			return nil, fmt.Errorf("%w (%v)", ErrEmbedTimeout, s.timeout)
		}
	}
	if r.err != nil {
		return nil, r.err
	}
	return r.v[0], nil
}

type embedCountError struct{}

func (embedCountError) Error() string {
	return "catalog: embedder returned the wrong number of vectors"
}

var errEmbedCount error = embedCountError{}

func cosine(a, b []float64) float64 {
	var dot, na, nb float64
	for i := range min(len(a), len(b)) {
		dot += a[i] * b[i]
		na += a[i] * a[i]
		nb += b[i] * b[i]
	}
	if na == 0 || nb == 0 {
		return 0
	}
	return dot / math.Sqrt(na*nb)
}
