package catalog_test

import (
	"bytes"
	"context"
	"fmt"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mcpfleet/mcpfleet/catalog"
	"github.com/mcpfleet/mcpfleet/catalog/tuning"
	"github.com/mcpfleet/mcpfleet/kindgroups"
)

func Example() {
	ro := func(name, desc string) mcp.Tool {
		return mcp.Tool{Name: name, Description: desc, RawInputSchema: []byte(`{"type":"object"}`),
			Annotations: mcp.ToolAnnotation{ReadOnlyHint: mcp.ToBoolPtr(true)}}
	}
	k8s := []mcp.Tool{
		ro("pods_list", "List pods in all namespaces."),
		ro("pods_log", "Get the logs of a pod container."),
		ro("events_list", "List cluster events, warnings first."),
		{Name: "pods_delete", Description: "Delete a pod.", RawInputSchema: []byte(`{"type":"object"}`)},
	}
	c := catalog.Build([]kindgroups.Server{
		{Name: "k8s-1", Kind: "kubernetes", Tools: k8s},
		{Name: "k8s-2", Kind: "kubernetes", Tools: k8s},
	}, catalog.Config{Kinds: map[string]catalog.KindConfig{
		"kubernetes": {CoreTools: []string{"pods_list"}, Aliases: map[string][]string{"pods_log": {"crashloop"}}},
	}})

	// A read-only agent working on k8s-1; pods_delete is invisible to it.
	s, err := c.NewSession(catalog.SessionConfig{Servers: []string{"k8s-1"}, Scopes: []string{"read"}, Mode: "on"})
	if err != nil {
		panic(err)
	}
	fmt.Println("active:", s.Active())
	for _, h := range s.Search(context.Background(), "why is checkout in a crashloop, any warnings?", 2) {
		fmt.Printf("hit: %s.%s loaded=%v\n", h.Kind, h.Tool, h.Loaded)
	}
	res, err := s.Load([]string{"pods_log", "k8s-1.pods_list", "pods_delete"})
	fmt.Printf("loaded=%v already=%v\n", res.Loaded, res.AlreadyActive)
	fmt.Println(err)
	fmt.Println("gate:", s.Allow("k8s-2", "pods_log"), s.Allow("k8s-2", "pods_list") != nil)
	// Output:
	// active: [{kubernetes pods_list [k8s-1]}]
	// hit: kubernetes.pods_log loaded=false
	// hit: kubernetes.events_list loaded=false
	// loaded=[pods_log] already=[k8s-1.pods_list]
	// loadTools: pods_delete: no such tool; nearest: pods_list, pods_log
	// gate: <nil> true
}

func exampleCatalog() *catalog.Catalog {
	ro := func(name, desc string) mcp.Tool {
		return mcp.Tool{Name: name, Description: desc, RawInputSchema: []byte(`{"type":"object"}`),
			Annotations: mcp.ToolAnnotation{ReadOnlyHint: mcp.ToBoolPtr(true)}}
	}
	k8s := []mcp.Tool{
		ro("pods_list", "List pods in all namespaces."),
		ro("pods_top", "Show CPU and memory use of pods."),
		ro("nodes_top", "Show CPU and memory use of nodes."),
	}
	return catalog.Build([]kindgroups.Server{
		{Name: "k8s-1", Kind: "kubernetes", Tools: k8s},
		{Name: "k8s-2", Kind: "kubernetes", Tools: k8s},
	}, catalog.Config{Kinds: map[string]catalog.KindConfig{"kubernetes": {CoreTools: []string{"pods_list"}}}})
}

// Sessions that share a conversation ID share what they loaded.
func ExampleSessionConfig_conversationID() {
	c := exampleCatalog()
	ctx := context.Background()
	first, _ := c.NewSessionContext(ctx, catalog.SessionConfig{Servers: []string{"k8s-1"}, Mode: "on", ConversationID: "INC-42"})
	if _, err := first.LoadContext(ctx, []string{"pods_top"}); err != nil {
		panic(err)
	}
	next, _ := c.NewSessionContext(ctx, catalog.SessionConfig{Servers: []string{"k8s-1"}, Mode: "on", ConversationID: "INC-42"})
	other, _ := c.NewSessionContext(ctx, catalog.SessionConfig{Servers: []string{"k8s-1"}, Mode: "on", ConversationID: "INC-43"})
	fmt.Println("same conversation:", next.Allow("k8s-1", "pods_top") == nil)
	fmt.Println("other conversation:", other.Allow("k8s-1", "pods_top") == nil)
	// Output:
	// same conversation: true
	// other conversation: false
}

// A JSON Lines telemetry log, read back into a search report.
func ExampleNewJSONLRecorder() {
	c := exampleCatalog()
	ctx := context.Background()
	var log bytes.Buffer
	s, _ := c.NewSession(catalog.SessionConfig{ID: "s1", Servers: []string{"k8s-1"}, Mode: "on", Recorder: catalog.NewJSONLRecorder(&log)})
	s.Search(ctx, "disk latency", 3)          // nothing matches
	s.LoadContext(ctx, []string{"nodes_top"}) // loaded by name: search never showed it
	s.AllowContext(ctx, "k8s-1", "nodes_top")

	events, err := tuning.ReadLog(&log)
	if err != nil {
		panic(err)
	}
	rep := tuning.AnalyzeLog(events)
	fmt.Printf("%d searches, %d loads, %d calls\n", rep.Searches, rep.Loads, rep.Calls)
	fmt.Println("empty:", rep.EmptyQueries)
	for _, f := range rep.FalseNegatives {
		fmt.Println("false negative:", f.Tool, "after", f.Queries)
	}
	// Output:
	// 1 searches, 1 loads, 1 calls
	// empty: [{disk latency 1}]
	// false negative: kubernetes.nodes_top after [disk latency]
}
