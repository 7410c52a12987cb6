package gateway_test

import (
	"net/http/httptest"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
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

// TestResultOwnerOverHTTP: over streamable HTTP with two bearer tokens, a
// result offloaded for token A reads back with A, and with B gets exactly
// the answer an unknown handle gets.
func TestResultOwnerOverHTTP(t *testing.T) {
	f := newFleet(t)
	g := newGateway(t, gateway.Config{Mux: f.mux, Tokens: map[string][]string{"a-token": {"read"}, "b-token": {"read"}}})
	ts := httptest.NewServer(g.Handler())
	t.Cleanup(ts.Close)
	clients := map[string]*client.Client{}
	for _, tok := range []string{"a-token", "b-token"} {
		c, err := httpClient(t, ts.URL, tok)
		if err != nil {
			t.Fatalf("%s: %v", tok, err)
		}
		clients[tok] = c
	}
	a, b := clients["a-token"], clients["b-token"]
	res := call(t, a, "callTool", map[string]any{"server": "misc", "tool": "big", "arguments": map[string]any{"bytes": 200000}})
	m := regexp.MustCompile(`readResult \{"handle": "([^"]+)"`).FindStringSubmatch(text(res))
	if res.IsError || m == nil {
		t.Fatalf("want a preview naming a handle, got IsError %v:\n%.600s", res.IsError, text(res))
	}
	handle := m[1]
	const unknown = "r-000000000000"
	for _, tc := range []struct {
		tool string
		args func(h string) map[string]any
		want string
	}{
		{"readResult", func(h string) map[string]any { return map[string]any{"handle": h, "offset": 100, "limit": 2} }, "line 100: request handled"},
		{"grepResult", func(h string) map[string]any { return map[string]any{"handle": h, "pattern": "line 4242:"} }, "line 4242: request handled"},
	} {
		t.Run(tc.tool, func(t *testing.T) {
			if got := call(t, a, tc.tool, tc.args(handle)); got.IsError || !strings.Contains(text(got), tc.want) {
				t.Errorf("token A: IsError %v, text %.300q; want %q", got.IsError, text(got), tc.want)
			}
			got := call(t, b, tc.tool, tc.args(handle))
			never := call(t, b, tc.tool, tc.args(unknown))
			if !got.IsError || strings.Contains(text(got), tc.want) {
				t.Fatalf("token B read token A's result: IsError %v, text %.300q", got.IsError, text(got))
			}
			if g, w := strings.ReplaceAll(text(got), handle, unknown), text(never); g != w || !never.IsError {
				t.Errorf("token B's refusal differs from an unknown handle's:\n got %s\nwant %s", g, w)
			}
		})
	}
}

func TestCallerID(t *testing.T) {
	a, b := gateway.CallerID("a-token"), gateway.CallerID("b-token")
	for _, tc := range []struct {
		name string
		ok   bool
	}{
		{"stable", gateway.CallerID("a-token") == a},
		{"distinct per token", a != b},
		{"not anonymous", a != "" && b != ""},
		{"secret not kept", !strings.Contains(a, "a-token") && !strings.Contains(b, "b-token")},
	} {
		if !tc.ok {
			t.Errorf("%s: CallerID gave %q and %q", tc.name, a, b)
		}
	}
}
