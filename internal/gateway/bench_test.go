package gateway_test

import (
	"encoding/json"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpfleet/mcpfleet/internal/gateway"
)

// BenchmarkCallTool compares a call made on the Mux directly with the same
// call made through the gateway by an in-process MCP client: the difference
// is the gateway's cost (JSON-RPC, scope check, result mapping).
func BenchmarkCallTool(b *testing.B) {
	f := newFleetB(b)
	b.Run("direct", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := f.mux.CallTool(b.Context(), "k8s-1", "pods_get", json.RawMessage(`{"name":"web","namespace":"prod"}`)); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("gateway", func(b *testing.B) {
		g, err := gateway.New(gateway.Config{Mux: f.mux})
		if err != nil {
			b.Fatal(err)
		}
		c := connectB(b, g)
		req := mcp.CallToolRequest{}
		req.Params.Name = "callTool"
		req.Params.Arguments = map[string]any{"server": "k8s-1", "tool": "pods_get", "arguments": map[string]any{"name": "web", "namespace": "prod"}}
		b.ReportAllocs()
		for b.Loop() {
			res, err := c.CallTool(b.Context(), req)
			if err != nil || res.IsError {
				b.Fatal(err, res)
			}
		}
	})
}
