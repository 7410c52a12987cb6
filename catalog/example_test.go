package catalog_test

import (
	"context"
	"fmt"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpfleet/mcpfleet/catalog"
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
