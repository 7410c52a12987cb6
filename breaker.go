package mcpfleet

import (
	"fmt"
	"sync"
	"time"

	"github.com/mcpfleet/mcpfleet/config"
)

// breaker is a per-server circuit breaker over consecutive failures. Only
// timeouts and transport errors count: a tool that answers IsError is
// working as designed. After the cooldown one trial call goes through
// (half-open); its success closes the circuit, its failure reopens it.
type breaker struct {
	limit    int           // consecutive failures that open the circuit; <=0 disables
	cooldown time.Duration // how long the circuit stays open

	mu       sync.Mutex
	failures int
	openTill time.Time // zero when closed
	trial    bool      // a half-open trial call is in flight
}

// breakerLimit is the limit b configures: 0, off, when b disables it.
func breakerLimit(b config.Breaker) int {
	if !*b.Enabled {
		return 0
	}
	return b.Failures
}

// allow reports whether a call may go out now, and if not, when to retry.
func (b *breaker) allow(now time.Time) (bool, time.Time) {
	if b.limit <= 0 {
		return true, time.Time{}
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.openTill.IsZero() {
		return true, time.Time{}
	}
	if now.Before(b.openTill) || b.trial {
		return false, b.openTill
	}
	b.trial = true
	return true, time.Time{}
}

// done records a call's result: failed means timeout or transport error.
func (b *breaker) done(failed bool, now time.Time) {
	if b.limit <= 0 {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	wasTrial := b.trial
	b.trial = false
	if !failed {
		b.failures, b.openTill = 0, time.Time{}
		return
	}
	b.failures++
	if wasTrial || b.failures >= b.limit {
		b.openTill = now.Add(b.cooldown)
	}
}

// reset closes the circuit: a fresh connection starts with a clean slate.
func (b *breaker) reset() {
	b.mu.Lock()
	b.failures, b.openTill, b.trial = 0, time.Time{}, false
	b.mu.Unlock()
}

func (b *breaker) state() (failures int, openTill time.Time) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.failures, b.openTill
}

func circuitOpen(server, tool string, until time.Time, failures int) *RejectError {
	return reject(server, tool, ReasonCircuitOpen, Problem{Path: "server",
		Got:  fmt.Sprintf("%q, which failed %d times in a row", server, failures),
		Hint: fmt.Sprintf("Calls to %s resume after %s (in %s).", server, until.UTC().Format(time.RFC3339), time.Until(until).Round(time.Second))})
}
