package orchestrator_test

import (
	"context"
	"fmt"
	"log"

	"github.com/cloudwego/eino/components/model"

	"github.com/mcpfleet/mcpfleet"
	"github.com/mcpfleet/mcpfleet/adapters/eino/einotest"
	"github.com/mcpfleet/mcpfleet/config"
	"github.com/mcpfleet/mcpfleet/internal/testfleet"
	"github.com/mcpfleet/mcpfleet/orchestrator"
)

// The orchestrator sees "kind: servers" lines and one tool; subagents do the
// calls. Both models are scripted here.
func Example() {
	ctx := context.Background()
	mx, err := mcpfleet.New(ctx, &config.Fleet{},
		mcpfleet.WithInProcess("k8s-1", "kubernetes", testfleet.NewServer("k8s-1", testfleet.Options{})),
		mcpfleet.WithInProcess("prom-1", "prometheus", testfleet.NewServer("prom-1", testfleet.Options{})),
		mcpfleet.WithHealthInterval(-1))
	if err != nil {
		log.Fatal(err)
	}
	defer mx.Close()

	planner := einotest.New(
		einotest.Calls(einotest.Call(orchestrator.SpawnName, map[string]any{"tasks": []map[string]any{
			{"task": "Is the cluster healthy?", "servers": []string{"k8s-1"}},
			{"task": "Are metrics flowing?", "servers": []string{"prom-1"}},
		}})),
		einotest.Answer("cluster and metrics are fine"),
	)
	sub := func(t orchestrator.Task) (model.ToolCallingChatModel, error) {
		kind, _ := mx.KindOf(t.Servers[0])
		return einotest.New(
			einotest.Calls(einotest.Call(kind+"__echo", map[string]any{"server": t.Servers[0], "text": "ok"})),
			einotest.Answer(t.Servers[0]+" looks fine"),
		), nil
	}
	o, err := orchestrator.New(mx, orchestrator.Config{Model: planner, SubagentModel: sub})
	if err != nil {
		log.Fatal(err)
	}
	tr, err := o.Run(ctx, "Is everything fine?")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(tr.Answer)
	for _, s := range tr.Subagents {
		fmt.Println(s.Servers, s.Report.Answer, len(s.Report.Calls), s.Report.Calls[0].Status)
	}
	// Output:
	// cluster and metrics are fine
	// [k8s-1] k8s-1 looks fine 1 ok
	// [prom-1] prom-1 looks fine 1 ok
}
