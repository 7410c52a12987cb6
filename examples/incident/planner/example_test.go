package planner_test

import (
	"context"
	"fmt"

	"github.com/cloudwego/eino/components/model"
	"github.com/cloudwego/eino/schema"

	"github.com/mcpfleet/mcpfleet/examples/incident/planner"
)

// The planner as orchestrator: offered only spawnSubagents and shown the
// overview, it starts with a triage subagent on the alerting and paging
// servers.
func Example() {
	msgs := []*schema.Message{
		schema.SystemMessage("Servers by kind:\nalertmanager: alertmanager\nkubernetes: k8s-1, k8s-2\npagerduty: pagerduty\n"),
		schema.UserMessage("Payments are failing. Why?"),
	}
	m, err := planner.New().Generate(context.Background(), msgs,
		model.WithTools([]*schema.ToolInfo{{Name: planner.SpawnToolName}}))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(m.Content)
	fmt.Println(m.ToolCalls[0].Function.Name, m.ToolCalls[0].Function.Arguments)
	// Output:
	// First find out what is firing and where.
	// spawnSubagents {"tasks":[{"task":"Triage: list the firing alerts and open pages. Name the affected cluster, namespace and service, and the Prometheus server the alerts come from.","servers":["alertmanager","pagerduty"]}]}
}
