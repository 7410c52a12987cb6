package gateway

import (
	"maps"
	"sync"
	"sync/atomic"

	"github.com/mcpfleet/mcpfleet"
)

// Counters is what /metrics serves: the gateway's own counts since start.
type Counters struct {
	// Requests counts tool requests by gateway tool (listKinds, …).
	Requests map[string]int64 `json:"requests"`
	// Calls counts callTool outcomes by status (ok, repaired, rejected,
	// tool_error, upstream_error, timeout, down).
	Calls map[string]int64 `json:"calls"`
	// Rejections counts rejected and down calls by reason.
	Rejections map[string]int64 `json:"rejections"`
	// ServerCalls counts callTool requests by target server.
	ServerCalls map[string]int64 `json:"server_calls"`
	// InFlight is the number of requests running now.
	InFlight int64 `json:"in_flight"`
}

type counters struct {
	inflight atomic.Int64
	mu       sync.Mutex
	requests map[string]int64
	calls    map[string]int64
	rejects  map[string]int64
	servers  map[string]int64
}

func bump(m *map[string]int64, k string) {
	if *m == nil {
		*m = map[string]int64{}
	}
	(*m)[k]++
}

func (c *counters) begin(tool string) {
	c.inflight.Add(1)
	c.mu.Lock()
	bump(&c.requests, tool)
	c.mu.Unlock()
}

func (c *counters) end() { c.inflight.Add(-1) }

func (c *counters) server(s string) {
	c.mu.Lock()
	bump(&c.servers, s)
	c.mu.Unlock()
}

func (c *counters) outcome(st mcpfleet.Status, r mcpfleet.Reason) {
	c.mu.Lock()
	bump(&c.calls, string(st))
	if r != "" {
		bump(&c.rejects, string(r))
	}
	c.mu.Unlock()
}

// Counters returns a copy of the counts so far.
func (g *Gateway) Counters() Counters {
	c := &g.counters
	c.mu.Lock()
	defer c.mu.Unlock()
	orEmpty := func(m map[string]int64) map[string]int64 {
		if m == nil {
			return map[string]int64{}
		}
		return maps.Clone(m)
	}
	return Counters{Requests: orEmpty(c.requests), Calls: orEmpty(c.calls), Rejections: orEmpty(c.rejects),
		ServerCalls: orEmpty(c.servers), InFlight: c.inflight.Load()}
}
