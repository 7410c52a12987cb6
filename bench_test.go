package mcpfleet_test

import (
	"encoding/json"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpfleet/mcpfleet"
	"github.com/mcpfleet/mcpfleet/config"
	"github.com/mcpfleet/mcpfleet/internal/testfleet"
)

// BenchmarkCallTool compares one call through the multiplexer (resolve,
// normalize, placeholder walk, schema validation, hooks) with the same call
// made by an mcp-go client straight to the same in-process server.
func BenchmarkCallTool(b *testing.B) {
	args := map[string]any{"name": "api-7f9c", "namespace": "prod", "tailLines": 100}
	raw, _ := json.Marshal(args)
	b.Run("direct", func(b *testing.B) {
		c, err := client.NewInProcessClient(testfleet.NewServer("k8s-1", testfleet.Options{}))
		if err != nil {
			b.Fatal(err)
		}
		defer c.Close()
		if err := c.Start(b.Context()); err != nil {
			b.Fatal(err)
		}
		init := mcp.InitializeRequest{}
		init.Params.ClientInfo = mcp.Implementation{Name: "bench", Version: "1"}
		if _, err := c.Initialize(b.Context(), init); err != nil {
			b.Fatal(err)
		}
		b.ReportAllocs()
		for b.Loop() {
			req := mcp.CallToolRequest{}
			req.Params.Name = "pods_log"
			// Decoding is part of the work either way: the model's
			// arguments arrive as JSON.
			var a map[string]any
			_ = json.Unmarshal(raw, &a)
			req.Params.Arguments = a
			if _, err := c.CallTool(b.Context(), req); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("mux", func(b *testing.B) {
		cfg := &config.Fleet{KindSettings: map[string]config.KindSettings{
			"kubernetes": {ArgsTransformer: []string{"camelCase", "singularResourceType"}},
		}}
		mx, err := mcpfleet.New(b.Context(), cfg, mcpfleet.WithHealthInterval(-1),
			mcpfleet.WithInProcess("k8s-1", "kubernetes", testfleet.NewServer("k8s-1", testfleet.Options{})))
		if err != nil {
			b.Fatal(err)
		}
		defer mx.Close()
		b.ReportAllocs()
		for b.Loop() {
			if _, err := mx.CallTool(b.Context(), "k8s-1", "pods_log", raw); err != nil {
				b.Fatal(err)
			}
		}
	})
}
