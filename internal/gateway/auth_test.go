package gateway_test

import (
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpfleet/mcpfleet"
	"github.com/mcpfleet/mcpfleet/config"
	"github.com/mcpfleet/mcpfleet/internal/gateway"
	"github.com/mcpfleet/mcpfleet/internal/testfleet"
)

// TestCacheScope: through the gateway, tokens with the same scopes share
// cached results and a client sees the hit in _meta; a token with other
// scopes does not get them.
func TestCacheScope(t *testing.T) {
	upstream := new(atomic.Int64)
	cfg := &config.Fleet{Cache: config.Cache{Kinds: map[string]config.KindCache{"misc": {TTL: time.Minute}}}}
	mx, err := mcpfleet.New(t.Context(), cfg, mcpfleet.WithHealthInterval(-1), mcpfleet.WithCacheScope(gateway.CacheScope),
		mcpfleet.WithInProcess("misc", "misc", testfleet.NewServer("misc", testfleet.Options{Calls: upstream})))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { mx.Close() })
	g := newGateway(t, gateway.Config{Mux: mx, Tokens: map[string][]string{
		"a": {"read", "write"}, "b": {"write", "read"}, "c": {"read"}}})
	ts := httptest.NewServer(g.Handler())
	t.Cleanup(ts.Close)
	args := map[string]any{"server": "misc", "tool": "echo", "arguments": map[string]any{"text": "x"}}
	for _, step := range []struct {
		token   string
		want    any // the _meta mark
		reached int64
	}{
		{"a", nil, 1},
		{"b", "hit", 1}, // the same scopes, listed in another order
		{"c", nil, 2},   // other scopes
		{"c", "hit", 2},
	} {
		res := call(t, tokenClient(t, ts.URL, step.token), "callTool", args)
		var mark any
		if res.Meta != nil {
			mark = res.Meta.AdditionalFields[mcpfleet.CacheMetaKey]
		}
		if res.IsError || mark != step.want || upstream.Load() != step.reached {
			t.Errorf("token %s: IsError %v, _meta mark %v, %d server calls; want mark %v, %d calls",
				step.token, res.IsError, mark, upstream.Load(), step.want, step.reached)
		}
	}
}
