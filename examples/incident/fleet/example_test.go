package fleet_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mcpfleet/mcpfleet/examples/incident/fleet"
)

// The same tool answers differently on each instance: only k8s-3 runs the
// bad revision of payments-api.
func ExampleNewServer() {
	ctx := context.Background()
	for _, name := range []string{"k8s-1", "k8s-3"} {
		s, err := fleet.NewServer(fleet.Instance{Kind: "kubernetes", Name: name})
		if err != nil {
			panic(err)
		}
		c, err := client.NewInProcessClient(s)
		if err != nil {
			panic(err)
		}
		if err := c.Start(ctx); err != nil {
			panic(err)
		}
		init := mcp.InitializeRequest{}
		init.Params.ProtocolVersion = mcp.LATEST_PROTOCOL_VERSION
		init.Params.ClientInfo = mcp.Implementation{Name: "example", Version: "1"}
		if _, err := c.Initialize(ctx, init); err != nil {
			panic(err)
		}
		req := mcp.CallToolRequest{}
		req.Params.Name = "pods_list_in_namespace"
		req.Params.Arguments = map[string]any{"namespace": "payments", "labelSelector": "app=payments-api"}
		res, err := c.CallTool(ctx, req)
		if err != nil {
			panic(err)
		}
		rows := strings.Split(strings.TrimSpace(res.Content[0].(mcp.TextContent).Text), "\n")[1:]
		f := strings.Fields(rows[0])
		fmt.Printf("%s: %d pods, first %s %s restarts=%s\n", name, len(rows), f[0], f[2], f[3])
		c.Close()
	}
	// Output:
	// k8s-1: 3 pods, first payments-api-5d8b4c-hq7vz Running restarts=0
	// k8s-3: 3 pods, first payments-api-7f9c6d-xk2lp CrashLoopBackOff restarts=14
}

// Read-only instances expose exactly the read-only subset of a kind.
func ExampleTools() {
	write, _ := fleet.Tools(fleet.Instance{Kind: "gitlab", Name: "gitlab-a-write"})
	read, _ := fleet.Tools(fleet.Instance{Kind: "gitlab", Name: "gitlab-a", ReadOnly: true})
	fmt.Println(len(write), len(read))
	// Output: 116 63
}

// Example_runbookPoolGuidance reads the payments-api runbook from the
// simulated wiki over in-process MCP, as an investigating agent would.
func Example_runbookPoolGuidance() {
	ctx := context.Background()
	s, err := fleet.NewServer(fleet.Instance{Kind: "wiki", Name: "wiki"})
	if err != nil {
		panic(err)
	}
	c, err := client.NewInProcessClient(s)
	if err != nil {
		panic(err)
	}
	defer c.Close()
	if err := c.Start(ctx); err != nil {
		panic(err)
	}
	init := mcp.InitializeRequest{}
	init.Params.ProtocolVersion = mcp.LATEST_PROTOCOL_VERSION
	if _, err := c.Initialize(ctx, init); err != nil {
		panic(err)
	}
	req := mcp.CallToolRequest{}
	req.Params.Name = "confluence_get_page"
	req.Params.Arguments = map[string]any{"title": "payments-api runbook", "space_key": "PAY"}
	res, err := c.CallTool(ctx, req)
	if err != nil {
		panic(err)
	}
	var page struct {
		Title   string `json:"title"`
		Content string `json:"content"`
	}
	if err := json.Unmarshal([]byte(res.Content[0].(mcp.TextContent).Text), &page); err != nil {
		panic(err)
	}
	fmt.Println(page.Title)
	for _, line := range strings.Split(page.Content, "\n") {
		if strings.Contains(line, "maxPoolSize must") || strings.Contains(line, "kubectl rollout undo") {
			fmt.Println(strings.TrimSpace(line))
		}
	}
	// Output:
	// payments-api runbook
	// - maxPoolSize must stay >= 40 under prod load. A pod runs up to ~35 concurrent DB calls at peak, and the pool also serves the health checks.
	// 3. fastest: kubectl rollout undo deployment/payments-api -n payments
}
