package orchestrator_test

import (
	"encoding/json"
	"testing"

	"github.com/cloudwego/eino/components/model"

	"github.com/mcpfleet/mcpfleet/adapters/eino/einotest"
	"github.com/mcpfleet/mcpfleet/internal/tokens"
	"github.com/mcpfleet/mcpfleet/orchestrator"
)

// TestViewTokens measures what the orchestrator's model receives on a
// 23-server fleet, from the scripted model's record of its first call.
func TestViewTokens(t *testing.T) {
	mx, _ := newFleet(t, fleet23()...)
	top := einotest.New(einotest.Answer("nothing to do"))
	o, err := orchestrator.New(mx, orchestrator.Config{Model: top,
		SubagentModel: func(orchestrator.Task) (model.ToolCallingChatModel, error) { return einotest.New(), nil }})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := o.Run(t.Context(), "?"); err != nil {
		t.Fatal(err)
	}
	first := top.Calls()[0]
	overview := tokens.Count(mx.Overview())
	system := tokens.Count(first.Messages[0].Content)
	js, _ := first.Tools[0].ParamsOneOf.ToJSONSchema()
	params, _ := json.Marshal(js)
	tool := tokens.Tools([]tokens.ChatTool{{Type: "function", Function: tokens.ChatFunction{Name: first.Tools[0].Name, Description: first.Tools[0].Desc, Parameters: params}}})
	var all int
	for _, s := range mx.Servers() {
		all += tokens.MCPTools(s.Tools)
	}
	t.Logf("23 servers: overview %d, system prompt %d, spawnSubagents %d, view %d tokens; all tool definitions %d (%.0fx the overview, %.0fx the view)",
		overview, system, tool, system+tool, all, float64(all)/float64(overview), float64(all)/float64(system+tool))
	if overview > 200 {
		t.Errorf("overview %d tokens, want <= 200", overview)
	}
	if system+tool > 600 {
		t.Errorf("orchestrator view %d tokens", system+tool)
	}
}
