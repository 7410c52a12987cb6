package eino_test

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpfleet/mcpfleet"
	"github.com/mcpfleet/mcpfleet/config"
	"github.com/mcpfleet/mcpfleet/internal/fixtures"
	"github.com/mcpfleet/mcpfleet/internal/testfleet"
)

// srv is one test server: a real mcp-go server serving a fixture's tools.
type srv struct {
	name, kind, fixture string
}

// newFleet starts a Mux over in-process servers and returns per-server call counters.
func newFleet(t *testing.T, servers ...srv) (*mcpfleet.Mux, map[string]*atomic.Int64) {
	t.Helper()
	calls := map[string]*atomic.Int64{}
	var opts []mcpfleet.Option
	for _, s := range servers {
		var o testfleet.Options
		if s.fixture != "" {
			o.Tools = fixtures.MustLoad(t, s.fixture).Tools
		}
		o.Calls = &atomic.Int64{}
		calls[s.name] = o.Calls
		opts = append(opts, mcpfleet.WithInProcess(s.name, s.kind, testfleet.NewServer(s.name, o)))
	}
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	mx, err := mcpfleet.New(ctx, &config.Fleet{}, append(opts, mcpfleet.WithHealthInterval(-1))...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { mx.Close() })
	return mx, calls
}
