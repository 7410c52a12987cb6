package mcpfleet_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpfleet/mcpfleet"
	"github.com/mcpfleet/mcpfleet/config"
)

// TestCyclicStructuredFromHook: a result transform that puts a cyclic Go
// value in structuredContent is a programmer error, but the call must
// come back with a result or an error, not overflow the stack.
func TestCyclicStructuredFromHook(t *testing.T) {
	cyc := map[string]any{"a": "x"}
	cyc["self"] = cyc
	mx := newMux(t, &config.Fleet{},
		mcpfleet.WithInProcess("m-1", "mirror", mirrorServer([]string{"ok"})),
		mcpfleet.WithResultTransform(func(ctx context.Context, c *mcpfleet.Call, r *mcp.CallToolResult) (*mcp.CallToolResult, error) {
			r.StructuredContent = cyc
			return r, nil
		}))
	res, err := mx.CallTool(t.Context(), "m-1", "mirror", json.RawMessage(`{"i": 0}`))
	if err == nil && res == nil {
		t.Fatal("no result and no error")
	}
}
