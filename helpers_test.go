package mcpfleet_test

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpfleet/mcpfleet"
)

var envelopeRE = regexp.MustCompile(`(?m)^<tool_output [^\n]*>\n|\n</tool_output>$`)

// plain returns a result's text without the neutralization envelopes, for
// tests about what the server answered.
func plain(res *mcpfleet.Result) string {
	if res == nil {
		return ""
	}
	return strings.TrimSpace(envelopeRE.ReplaceAllString(res.Text(), ""))
}

// recorder is a Metrics that remembers what it was told.
type recorder struct {
	mu        sync.Mutex
	calls     []string // server/tool/status/reason
	offloaded int64
	defused   int
	reconnect int
	cached    []mcpfleet.CacheResult
	pins      []string // server/tool/problems/quarantined
}

func (r *recorder) PinFlagged(ctx context.Context, is mcpfleet.PinIssue) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.pins = append(r.pins, fmt.Sprintf("%s/%s/%s/%t", is.Server, is.Tool, strings.Join(is.Problems, ","), is.Quarantined))
}

func (r *recorder) pinned() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.pins)
}

func (r *recorder) CallDone(ctx context.Context, c *mcpfleet.Call, o mcpfleet.Outcome) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.calls = append(r.calls, fmt.Sprintf("%s/%s/%s/%s", c.Server, c.Tool, o.Status, o.Reason))
}

func (r *recorder) Offloaded(ctx context.Context, c *mcpfleet.Call, n int64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.offloaded += n
}

func (r *recorder) Defused(ctx context.Context, c *mcpfleet.Call, n int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.defused += n
}

func (r *recorder) Reconnected(ctx context.Context, server string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.reconnect++
}

func (r *recorder) Cached(ctx context.Context, c *mcpfleet.Call, res mcpfleet.CacheResult) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.cached = append(r.cached, res)
}

// checkQueueTimeout holds server one's only slot with a slow call, then
// checks that a second call is rejected as overloaded within d (the
// queue timeout, not the call timeout) and that the holder still ends.
func checkQueueTimeout(t *testing.T, mx *mcpfleet.Mux, d time.Duration) {
	t.Helper()
	done := make(chan error, 1)
	go func() {
		_, err := call(t, mx, "one", "slow", `{"ms": 1500}`)
		done <- err
	}()
	waitFor(t, 5*time.Second, "the slot to be taken", func() bool { return statusOf(mx, "one").InFlight == 1 })
	start := time.Now()
	_, err := call(t, mx, "one", "echo", `{"text":"x"}`)
	var rej *mcpfleet.RejectError
	if !errors.As(err, &rej) || rej.Reason != mcpfleet.ReasonOverloaded {
		t.Fatalf("queued call: %v, want overloaded", err)
	}
	if el := time.Since(start); el > d {
		t.Errorf("queued call waited %v; the queue timeout is 100ms", el)
	}
	if err := <-done; err != nil {
		t.Errorf("the slot holder failed: %v", err)
	}
}
