package fleet

import (
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
)

// startInProcess starts one simulated server and returns an initialized
// client talking to it in-process.
func startInProcess(t *testing.T, in Instance) *client.Client {
	t.Helper()
	s, err := NewServer(in)
	if err != nil {
		t.Fatal(err)
	}
	c, err := client.NewInProcessClient(s)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	if err := c.Start(t.Context()); err != nil {
		t.Fatal(err)
	}
	initialize(t, c)
	return c
}

func initialize(t *testing.T, c *client.Client) {
	t.Helper()
	req := mcp.InitializeRequest{}
	req.Params.ProtocolVersion = mcp.LATEST_PROTOCOL_VERSION
	req.Params.ClientInfo = mcp.Implementation{Name: "fleet-test", Version: "0.0.1"}
	if _, err := c.Initialize(t.Context(), req); err != nil {
		t.Fatalf("initialize: %v", err)
	}
}

// call calls a tool and returns its text and error flag; a transport or
// protocol failure fails the test.
func call(t *testing.T, c *client.Client, tool string, args map[string]any) (string, bool) {
	t.Helper()
	req := mcp.CallToolRequest{}
	req.Params.Name = tool
	req.Params.Arguments = args
	res, err := c.CallTool(t.Context(), req)
	if err != nil {
		t.Fatalf("%s: %v", tool, err)
	}
	var b strings.Builder
	for _, ct := range res.Content {
		if tc, ok := ct.(mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String(), res.IsError
}
