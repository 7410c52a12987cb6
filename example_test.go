package mcpfleet_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpfleet/mcpfleet"
	"github.com/mcpfleet/mcpfleet/config"
	"github.com/mcpfleet/mcpfleet/normalizers"
)

// clusterServer is a small real MCP server with one Kubernetes-shaped tool.
func clusterServer(name string) *server.MCPServer {
	s := server.NewMCPServer(name, "1.0.0")
	ro := true
	s.AddTool(mcp.Tool{
		Name:        "pods_log",
		Description: "Get the logs of a pod",
		RawInputSchema: json.RawMessage(`{"type":"object","properties":{
			"name":{"type":"string","description":"Name of the pod"},
			"namespace":{"type":"string"},
			"tail":{"type":"integer"}},"required":["name"],"additionalProperties":false}`),
		Annotations: mcp.ToolAnnotation{ReadOnlyHint: &ro},
	}, func(ctx context.Context, r mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		args, _ := json.Marshal(r.GetArguments())
		return mcp.NewToolResultText(name + " got " + string(args)), nil
	})
	return s
}

// ExampleNew folds three clusters running the same server into one kind.
func ExampleNew() {
	ctx := context.Background()
	mx, err := mcpfleet.New(ctx, &config.Fleet{},
		mcpfleet.WithInProcess("k8s-1", "kubernetes", clusterServer("k8s-1")),
		mcpfleet.WithInProcess("k8s-2", "kubernetes", clusterServer("k8s-2")),
		mcpfleet.WithInProcess("wiki", "", clusterServer("wiki")))
	if err != nil {
		log.Fatal(err)
	}
	defer mx.Close()
	fmt.Print(mx.Overview())
	for _, g := range mx.KindGroups() {
		fmt.Println(g.Kind, g.Tools)
	}
	// Output:
	// kubernetes: k8s-1, k8s-2
	// wiki: wiki
	// kubernetes [pods_log]
	// wiki [pods_log]
}

// ExampleMux_CallTool shows a call repaired by configured normalizers and a
// call rejected before it reaches the server, with the text a model reads.
func ExampleMux_CallTool() {
	ctx := context.Background()
	cfg, err := config.LoadBytes([]byte(`
servers:
  - {name: k8s-1, kind: kubernetes, command: unused-in-this-example}
kind_settings:
  kubernetes:
    args_transformer: [coerceTypes]
    field_map: {pod_name: name}
`), "yaml", "")
	if err != nil {
		log.Fatal(err)
	}
	mx, err := mcpfleet.New(ctx, cfg, mcpfleet.WithoutNeutralize(),
		mcpfleet.WithInProcess("k8s-1", "kubernetes", clusterServer("k8s-1")))
	if err != nil {
		log.Fatal(err)
	}
	defer mx.Close()

	res, err := mx.CallTool(ctx, "k8s-1", "pods_log", json.RawMessage(`{"pod_name":"api-7f9c","tail":"50"}`))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Text(), res.Repairs)

	_, err = mx.CallTool(ctx, "k8s-1", "pods_log", json.RawMessage(`{"name":"<none>"}`))
	var rej *mcpfleet.RejectError
	if errors.As(err, &rej) {
		fmt.Println(rej.Reason)
		fmt.Println(rej.ModelText())
	}
	// Output:
	// k8s-1 got {"name":"api-7f9c","tail":50} [coerceTypes field_map]
	// placeholder
	// call to k8s-1.pods_log rejected (placeholder): some arguments are placeholders, not values.
	// - at /name: got "<none>"; want a real value (string: Name of the pod). This looks like a placeholder.
	// Send real values: look them up with another tool or ask; never send a placeholder. Leave optional fields out instead.
}

// ExampleWithArgsTransformer registers a custom transformer and names it
// from the YAML config like a built-in.
func ExampleWithArgsTransformer() {
	ctx := context.Background()
	// Some clusters' users write pod names in upper case; the servers want
	// lower case.
	lowerName := func(ctx context.Context, c normalizers.Call) (map[string]any, error) {
		out := make(map[string]any, len(c.Args))
		for k, v := range c.Args {
			out[k] = v
		}
		if s, ok := out["name"].(string); ok {
			out["name"] = strings.ToLower(s)
		}
		return out, nil
	}
	cfg, err := config.LoadBytes([]byte(`
servers:
  - {name: k8s-1, kind: kubernetes, command: unused-in-this-example}
kind_settings:
  kubernetes:
    args_transformer: [lowerName]
`), "yaml", "") // lowerName is named once, in WithArgsTransformer below
	if err != nil {
		log.Fatal(err)
	}
	mx, err := mcpfleet.New(ctx, cfg, mcpfleet.WithoutNeutralize(),
		mcpfleet.WithArgsTransformer("lowerName", lowerName),
		mcpfleet.WithInProcess("k8s-1", "kubernetes", clusterServer("k8s-1")))
	if err != nil {
		log.Fatal(err)
	}
	defer mx.Close()
	res, err := mx.CallTool(ctx, "k8s-1", "pods_log", json.RawMessage(`{"name":"API-7F9C"}`))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Text(), res.Repairs)
	// Output:
	// k8s-1 got {"name":"api-7f9c"} [lowerName]
}
