package gateway

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mcpfleet/mcpfleet"
	"github.com/mcpfleet/mcpfleet/config"
)

// Limiter counts calls against the rate limits of the fleet file's
// rate_limits section. Allow takes one call from the budget under key,
// which holds perMinute calls a minute, all of which may be spent at once
// (GCRA with a burst of perMinute). It reports whether the call fits and,
// when it does not, how long until one would. Implementations must be
// safe for concurrent use. MemoryLimiter counts in one process;
// stores/redislimit shares the counts between replicas.
type Limiter interface {
	Allow(ctx context.Context, key string, perMinute int) (ok bool, retryAfter time.Duration, err error)
}

// limitTimeout bounds one Allow: a store that does not answer by then
// counts as failed, and rate_limits.on_store_error decides.
const limitTimeout = 500 * time.Millisecond

// ReasonRateLimited counts refusals of calls over a rate limit, and of
// calls refused because the limits could not be checked (fail closed).
const ReasonRateLimited mcpfleet.Reason = "rate_limited"

// MemoryLimiter is a Limiter for one process: the theoretical arrival time
// of each key's next call, in a map.
type MemoryLimiter struct {
	now func() time.Time

	mu    sync.Mutex
	tat   map[string]time.Time
	calls int
}

// NewMemoryLimiter returns an empty MemoryLimiter.
func NewMemoryLimiter() *MemoryLimiter {
	return &MemoryLimiter{now: time.Now, tat: map[string]time.Time{}}
}

// Allow implements Limiter; it never fails.
func (m *MemoryLimiter) Allow(_ context.Context, key string, perMinute int) (bool, time.Duration, error) {
	if perMinute <= 0 {
		return false, time.Minute, nil
	}
	interval := time.Minute / time.Duration(perMinute)
	now := m.now()
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.calls++; m.calls%1024 == 0 {
		m.sweep(now)
	}
	tat := m.tat[key]
	if tat.Before(now) {
		tat = now
	}
	next := tat.Add(interval)
	if allowAt := next.Add(-time.Minute); now.Before(allowAt) {
		return false, allowAt.Sub(now), nil
	}
	m.tat[key] = next
	return true, 0, nil
}

// sweep drops keys whose budget is whole again, which the map would
// otherwise keep for every caller ever seen.
func (m *MemoryLimiter) sweep(now time.Time) {
	for k, tat := range m.tat {
		if !tat.After(now) {
			delete(m.tat, k)
		}
	}
}

// limits is the gateway's rate limiting: the fleet file's policy and the
// Limiter that counts.
type limits struct {
	cfg     config.RateLimits
	limiter Limiter
	// warned (unix nanoseconds) throttles the store-failure warning.
	warned atomic.Int64
}

func newLimits(cfg config.RateLimits, l Limiter) *limits {
	if len(cfg.Kinds) == 0 {
		return nil
	}
	if l == nil {
		l = NewMemoryLimiter()
	}
	return &limits{cfg: cfg, limiter: l}
}

// admit takes the call from its caller's budget, or returns the text of
// a refusal that the model reads. Callers are told apart by their caller
// id (one per bearer token); callers without one share a budget.
func (g *Gateway) admit(ctx context.Context, server, kind string) (refusal string) {
	l := g.limits
	if l == nil {
		return ""
	}
	rl, ok := l.cfg.Kinds[kind]
	if !ok {
		return ""
	}
	what, scope := limitScope(server, kind, rl)
	caller := mcpfleet.CallerFrom(ctx)
	if caller == "" {
		caller = "anonymous"
	}
	lctx, cancel := context.WithTimeout(ctx, limitTimeout)
	defer cancel()
	ok, retry, err := l.limiter.Allow(lctx, caller+"|"+scope, rl.CallsPerMinute)
	if err != nil {
		now := time.Now()
		if prev := l.warned.Load(); now.UnixNano()-prev > int64(10*time.Second) && l.warned.CompareAndSwap(prev, now.UnixNano()) {
			g.log.Warn("gateway: rate limits cannot be checked", "fail", map[bool]string{true: "closed", false: "open"}[l.cfg.FailClosed()], "err", err)
		}
		if l.cfg.FailClosed() {
			return limitsUnavailable
		}
		return ""
	}
	if !ok {
		return rateLimited(what, rl.CallsPerMinute, retry)
	}
	return ""
}

// limitScope names what a limit counts, for the model and for the key.
func limitScope(server, kind string, rl config.RateLimit) (what, key string) {
	if rl.PerKind() {
		return "kind " + kind, "kind:" + kind
	}
	return "server " + server, "server:" + server
}
