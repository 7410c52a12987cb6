package gateway_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpfleet/mcpfleet"
	"github.com/mcpfleet/mcpfleet/config"
	"github.com/mcpfleet/mcpfleet/internal/gateway"
	"github.com/mcpfleet/mcpfleet/internal/testfleet"
)

// A fleet of two identical servers served as one MCP server, driven by an
// ordinary MCP client.
func ExampleNew() {
	ctx := context.Background()
	mx, err := mcpfleet.New(ctx, &config.Fleet{},
		mcpfleet.WithInProcess("a", "demo", testfleet.NewServer("a", testfleet.Options{})),
		mcpfleet.WithInProcess("b", "demo", testfleet.NewServer("b", testfleet.Options{})),
		mcpfleet.WithoutNeutralize())
	if err != nil {
		panic(err)
	}
	defer mx.Close()
	g, err := gateway.New(gateway.Config{Mux: mx})
	if err != nil {
		panic(err)
	}
	c, _ := client.NewInProcessClient(g.MCPServer())
	defer c.Close()
	_ = c.Start(ctx)
	init := mcp.InitializeRequest{}
	init.Params.ProtocolVersion = mcp.LATEST_PROTOCOL_VERSION
	_, _ = c.Initialize(ctx, init)

	callTool := func(name string, args map[string]any) string {
		req := mcp.CallToolRequest{}
		req.Params.Name, req.Params.Arguments = name, args
		res, err := c.CallTool(ctx, req)
		if err != nil {
			return err.Error()
		}
		return strings.TrimSpace(res.Content[0].(mcp.TextContent).Text)
	}
	fmt.Println(callTool("listKinds", nil))
	fmt.Println(callTool("callTool", map[string]any{"server": "b", "tool": "echo", "arguments": map[string]any{"text": "hello"}}))
	rejected := callTool("callTool", map[string]any{"server": "b", "tool": "echo", "arguments": map[string]any{"text": "undefined"}})
	fmt.Println(strings.SplitN(rejected, "\n", 2)[0])
	// Output:
	// - demo (7 tools): a, b
	// b: hello
	// call to b.echo rejected (placeholder): some arguments are placeholders, not values.
}
