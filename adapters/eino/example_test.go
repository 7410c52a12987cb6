package eino_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"strings"

	"github.com/cloudwego/eino/compose"
	"github.com/cloudwego/eino/schema"

	"github.com/mcpfleet/mcpfleet"
	mcpeino "github.com/mcpfleet/mcpfleet/adapters/eino"
	"github.com/mcpfleet/mcpfleet/catalog"
	"github.com/mcpfleet/mcpfleet/config"
	"github.com/mcpfleet/mcpfleet/internal/testfleet"
)

// exampleMux serves two kubernetes-kind test servers and one prometheus-kind
// server in process.
func exampleMux(ctx context.Context) *mcpfleet.Mux {
	mx, err := mcpfleet.New(ctx, &config.Fleet{},
		mcpfleet.WithInProcess("k8s-1", "kubernetes", testfleet.NewServer("k8s-1", testfleet.Options{})),
		mcpfleet.WithInProcess("k8s-2", "kubernetes", testfleet.NewServer("k8s-2", testfleet.Options{})),
		mcpfleet.WithInProcess("prom-1", "prometheus", testfleet.NewServer("prom-1", testfleet.Options{})),
		mcpfleet.WithHealthInterval(-1))
	if err != nil {
		log.Fatal(err)
	}
	return mx
}

func ExampleOverviewLambda() {
	ctx := context.Background()
	mx := exampleMux(ctx)
	defer mx.Close()

	g := compose.NewGraph[string, string]()
	_ = g.AddLambdaNode("overview", mcpeino.OverviewLambda(mx))
	_ = g.AddEdge(compose.START, "overview")
	_ = g.AddEdge("overview", compose.END)
	r, err := g.Compile(ctx)
	if err != nil {
		log.Fatal(err)
	}
	out, _ := r.Invoke(ctx, "")
	fmt.Print(out)
	// Output:
	// kubernetes: k8s-1, k8s-2
	// prometheus: prom-1
}

func ExampleCallToolLambda() {
	ctx := context.Background()
	mx := exampleMux(ctx)
	defer mx.Close()

	g := compose.NewGraph[mcpeino.CallInput, mcpeino.CallRecord]()
	_ = g.AddLambdaNode("call", mcpeino.CallToolLambda(mx))
	_ = g.AddEdge(compose.START, "call")
	_ = g.AddEdge("call", compose.END)
	r, err := g.Compile(ctx)
	if err != nil {
		log.Fatal(err)
	}
	for _, in := range []mcpeino.CallInput{
		{Server: "k8s-2", Tool: "echo", Args: json.RawMessage(`{"text":"hi","count":2}`)},
		{Server: "k8s-2", Tool: "echo", Args: json.RawMessage(`{"txt":"hi"}`)}, // fails the schema gate
	} {
		rec, _ := r.Invoke(ctx, in)
		fmt.Println(rec.Status, rec.Server, rec.Tool)
	}
	// Output:
	// ok k8s-2 echo
	// rejected k8s-2 echo
}

func ExampleSearchToolsLambda() {
	ctx := context.Background()
	mx := exampleMux(ctx)
	defer mx.Close()

	cat := catalog.Build(mx.Servers(), catalog.FromFleet(mx.Config()))
	g := compose.NewGraph[mcpeino.SearchInput, []catalog.Hit]()
	_ = g.AddLambdaNode("search", mcpeino.SearchToolsLambda(cat))
	_ = g.AddEdge(compose.START, "search")
	_ = g.AddEdge("search", compose.END)
	r, err := g.Compile(ctx)
	if err != nil {
		log.Fatal(err)
	}
	// Both kinds serve testfleet's pods_log, so the two hits tie; their
	// order is the catalog's tie-break, not part of this example.
	hits, _ := r.Invoke(ctx, mcpeino.SearchInput{Query: "pod logs", K: 2})
	for _, h := range hits {
		fmt.Println(h.Kind, h.Tool, h.Servers)
	}
	// Unordered output:
	// kubernetes pods_log [k8s-1 k8s-2]
	// prometheus pods_log [prom-1]
}

func ExampleFold() {
	ctx := context.Background()
	mx := exampleMux(ctx)
	defer mx.Close()

	plan := mcpeino.Fold(mx.KindGroups(), mx.Tool)
	for _, s := range plan.Specs[:3] {
		fmt.Println(s.Name, s.Servers)
	}
	// Output:
	// kubernetes__big [k8s-1 k8s-2]
	// kubernetes__echo [k8s-1 k8s-2]
	// kubernetes__environ [k8s-1 k8s-2]
}

// Subagents of one Mux share a Cache: the second tool set is lookups, and a
// tool with the same servers gets the very same definition.
func ExampleCache() {
	ctx := context.Background()
	mx := exampleMux(ctx)
	defer mx.Close()

	cache := mcpeino.NewCache()
	all, _, _ := mcpeino.NewTools(mx, mcpeino.ToolsConfig{Cache: cache})
	k8s, _, _ := mcpeino.NewTools(mx, mcpeino.ToolsConfig{Cache: cache, Servers: []string{"k8s-1", "k8s-2"}})
	a, _ := all[0].Info(ctx)
	b, _ := k8s[0].Info(ctx)
	fmt.Println(len(all), len(k8s), a.Name, a == b)
	// Output:
	// 14 7 kubernetes__big true
}

// A MultimodalTool answers with the text rendering, then the images.
func ExampleTool_Multimodal() {
	ctx := context.Background()
	mx := exampleMux(ctx)
	defer mx.Close()

	tools, plan, _ := mcpeino.NewTools(mx, mcpeino.ToolsConfig{})
	spec, _ := plan.Lookup("kubernetes__image")
	for _, t := range tools {
		if t.Spec().Name != spec.Name {
			continue
		}
		res, _ := t.Multimodal().InvokableRun(ctx, &schema.ToolArgument{Text: `{"server":"k8s-1"}`})
		for _, p := range res.Parts {
			if p.Image != nil {
				fmt.Println(p.Type, p.Image.MIMEType)
			} else {
				fmt.Println(p.Type, strings.Contains(p.Text, "[image image/png, 92 bytes base64]"))
			}
		}
	}
	// Output:
	// text true
	// image image/png
}
