package mcpfleet_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpfleet/mcpfleet"
	"github.com/mcpfleet/mcpfleet/config"
	"github.com/mcpfleet/mcpfleet/internal/testfleet"
)

// TestInProcessCallCarriesNoOuterRequestState relays a call made inside an
// outer MCP server's tool handler (whose ctx carries that request's headers
// and session) to an in-process upstream. The upstream must see a clean
// request: before the fix mcp-go read the outer headers and refused the
// call ("Mcp-Name header value … does not match body value …").
func TestInProcessCallCarriesNoOuterRequestState(t *testing.T) {
	mx := newMux(t, &config.Fleet{}, mcpfleet.WithInProcess("inner", "test", testfleet.NewServer("inner", testfleet.Options{})))
	outer := server.NewMCPServer("outer", "1")
	outer.AddTool(mcp.Tool{Name: "relay", RawInputSchema: json.RawMessage(`{"type":"object"}`)},
		func(ctx context.Context, r mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			res, err := mx.CallTool(ctx, "inner", "echo", json.RawMessage(`{"text":"through"}`))
			if err != nil {
				return mcp.NewToolResultError(err.Error()), nil
			}
			return &res.CallToolResult, nil
		})
	url := testfleet.ServeHTTP(t, outer)
	outerMx := newMux(t, &config.Fleet{Servers: []config.Server{{Name: "outer", Kind: "outer", Transport: "http", URL: url,
		Headers: map[string]string{"X-Test": http.CanonicalHeaderKey("x")}}}}, mcpfleet.WithoutNeutralize())
	res, err := call(t, outerMx, "outer", "relay", `{}`)
	if err != nil {
		t.Fatal(err)
	}
	if res.IsError {
		t.Fatalf("relayed call failed: %s", res.Text())
	}
	if got := res.Text(); !strings.Contains(got, "inner: through") {
		t.Errorf("relayed result = %q, want the inner echo", res.Text())
	}
}
