package subagent_test

import (
	"context"
	"fmt"
	"log"

	"github.com/cloudwego/eino/compose"
	"github.com/cloudwego/eino/schema"

	"github.com/mcpfleet/mcpfleet"
	"github.com/mcpfleet/mcpfleet/adapters/eino/einotest"
	"github.com/mcpfleet/mcpfleet/config"
	"github.com/mcpfleet/mcpfleet/internal/testfleet"
	"github.com/mcpfleet/mcpfleet/subagent"
)

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

// A subagent over one server: its tools are active, the rest of the fleet is
// one loadTools away. The model here is scripted; use
// adapters/eino/openai.ModelFromEnv for a real one.
func Example_subagent() {
	ctx := context.Background()
	mx := exampleMux(ctx)
	defer mx.Close()

	model := einotest.New(
		einotest.Calls(
			einotest.Call("kubernetes__echo", map[string]any{"server": "k8s-1", "text": "ping"}),
			einotest.Call("kubernetes__echo", map[string]any{"server": "k8s-2", "text": "ping"}), // not in the slice
		),
		einotest.Calls(einotest.Call(subagent.LoadToolsName, map[string]any{"names": []string{"k8s-2.echo"}})),
		einotest.Calls(einotest.Call("kubernetes__echo", map[string]any{"server": "k8s-2", "text": "ping"})),
		einotest.Answer("both clusters answer"),
	)
	sa, err := subagent.New(ctx, mx, subagent.Config{Servers: []string{"k8s-1"}, Model: model, Mode: "on"})
	if err != nil {
		log.Fatal(err)
	}
	rep, err := sa.Run(ctx, "Do both clusters answer?")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("answer:", rep.Answer)
	fmt.Println("steps:", rep.Steps, "loaded:", rep.Loaded)
	for _, c := range rep.Calls {
		fmt.Println(c.Server, c.Tool, c.Status)
	}
	// Unordered output:
	// answer: both clusters answer
	// steps: 4 loaded: [k8s-2.echo]
	// k8s-1 echo ok
	// k8s-2 echo rejected
	// k8s-2 echo ok
}

func ExampleLambda() {
	ctx := context.Background()
	mx := exampleMux(ctx)
	defer mx.Close()

	model := einotest.New(
		einotest.Calls(einotest.Call("prometheus__echo", map[string]any{"server": "prom-1", "text": "up"})),
		einotest.Answer("prom-1 is up"),
	)
	g := compose.NewGraph[subagent.Input, *subagent.Report]()
	_ = g.AddLambdaNode("subagent", subagent.Lambda(mx, subagent.Config{Model: model, Mode: "off"}))
	_ = g.AddEdge(compose.START, "subagent")
	_ = g.AddEdge("subagent", compose.END)
	r, err := g.Compile(ctx)
	if err != nil {
		log.Fatal(err)
	}
	rep, err := r.Invoke(ctx, subagent.Input{Task: "Is prometheus up?", Servers: []string{"prom-1"}})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(rep.Answer, len(rep.Calls), rep.Calls[0].Status)
	// Output:
	// prom-1 is up 1 ok
}

func ExampleSliceTokens() {
	ctx := context.Background()
	mx := exampleMux(ctx)
	defer mx.Close()

	c, err := subagent.SliceTokens(ctx, mx, subagent.Config{Servers: []string{"k8s-1"}, Mode: "on"})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(c.Mode, c.ActiveTools, c.Total == c.Tools+c.MetaTools+c.Instruction)
	// Output:
	// on 7 true
}

// A chat continues a conversation with the same subagent: each turn passes
// the history so far, and the report covers that turn only. Tools loaded in
// one turn stay loaded for the next.
func ExampleSubagent_RunMessages() {
	ctx := context.Background()
	mx := exampleMux(ctx)
	defer mx.Close()

	model := einotest.New(
		einotest.Calls(einotest.Call(subagent.LoadToolsName, map[string]any{"names": []string{"k8s-2.echo"}})),
		einotest.Answer("loaded k8s-2's echo"),
		einotest.Calls(einotest.Call("kubernetes__echo", map[string]any{"server": "k8s-2", "text": "ping"})),
		einotest.Answer("k8s-2 answers"),
	)
	sa, err := subagent.New(ctx, mx, subagent.Config{Servers: []string{"k8s-1"}, Model: model, Mode: "on"})
	if err != nil {
		log.Fatal(err)
	}
	var history []*schema.Message
	turn := func(say string) {
		history = append(history, schema.UserMessage(say))
		rep, err := sa.RunMessages(ctx, history)
		if err != nil {
			log.Fatal(err)
		}
		history = append(history, rep.Messages...) // what the model said and the tools answered
		fmt.Printf("%q: %s (steps %d, calls %d, loaded %v)\n", rep.Task, rep.Answer, rep.Steps, len(rep.Calls), rep.Loaded)
	}
	turn("Get ready to check k8s-2.")
	turn("Does k8s-2 answer?")
	fmt.Println("history:", len(history), "messages")
	// Output:
	// "Get ready to check k8s-2.": loaded k8s-2's echo (steps 2, calls 0, loaded [k8s-2.echo])
	// "Does k8s-2 answer?": k8s-2 answers (steps 2, calls 1, loaded [])
	// history: 8 messages
}
