package mcpfleet_test

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"

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
