package orchestrator_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/cloudwego/eino/components/model"
	"github.com/cloudwego/eino/schema"

	"github.com/mcpfleet/mcpfleet"
	"github.com/mcpfleet/mcpfleet/adapters/eino/einotest"
	"github.com/mcpfleet/mcpfleet/config"
	"github.com/mcpfleet/mcpfleet/internal/goldenfile"
	"github.com/mcpfleet/mcpfleet/internal/testfleet"
	"github.com/mcpfleet/mcpfleet/orchestrator"
)

// goldenMux serves testfleet servers only, so no fixture text reaches testdata.
func goldenMux(t *testing.T) *mcpfleet.Mux {
	t.Helper()
	servers := []struct{ name, kind string }{{"k8s-1", "kubernetes"}, {"k8s-2", "kubernetes"}, {"prom-1", "prometheus"}}
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	var opts []mcpfleet.Option
	for _, s := range servers {
		opts = append(opts, mcpfleet.WithInProcess(s.name, s.kind, testfleet.NewServer(s.name, testfleet.Options{})))
	}
	mx, err := mcpfleet.New(ctx, &config.Fleet{DeferredTools: "on"}, append(opts, mcpfleet.WithHealthInterval(-1))...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { mx.Close() })
	return mx
}

// TestGoldenText pins what the orchestrator's model reads: the system
// prompt, the spawnSubagents definition, and a spawnSubagents result with
// an answered, a failed, a timed-out and a trimmed section, plus the
// refusals of a malformed spawn and an unknown tool.
func TestGoldenText(t *testing.T) {
	mx := goldenMux(t)
	spawn := einotest.Call(orchestrator.SpawnName, map[string]any{"tasks": []map[string]any{
		{"name": "triage", "task": "Is echo answering on the first cluster?", "servers": []string{"k8s-1"}},
		{"task": "Check the ledger cluster", "servers": []string{"ledger"}},
		{"task": "Check the second cluster", "servers": []string{"k8s-2"}},
		{"task": "Summarise the metrics", "servers": []string{"prom-1"}},
	}})
	top := einotest.New(
		einotest.Calls(spawn,
			schema.ToolCall{Type: "function", Function: schema.FunctionCall{Name: orchestrator.SpawnName, Arguments: `{"tasks":[]}`}},
			einotest.Call("pods_log", map[string]any{"name": "payments-api"})),
		einotest.Answer("k8s-1 answers; k8s-2 did not report in time"),
	)
	long := strings.Repeat("prom-1 reports the payments error rate rising every minute since 10:02. ", 20)
	newSub := func(tk orchestrator.Task) (model.ToolCallingChatModel, error) {
		switch tk.Servers[0] {
		case "k8s-1":
			return einotest.New(
				einotest.Calls(einotest.Call("kubernetes__echo", map[string]any{"server": "k8s-1", "text": "ping"}),
					einotest.Call("kubernetes__fail", map[string]any{"server": "k8s-1"})),
				einotest.Answer("echo answers on k8s-1; fail fails as designed"),
			), nil
		case "k8s-2":
			return einotest.New(einotest.Step{Delay: time.Minute, Answer: "too late"}), nil
		default:
			return einotest.New(einotest.Answer(long)), nil
		}
	}
	o, err := orchestrator.New(mx, orchestrator.Config{Model: top, SubagentModel: newSub,
		SubagentTimeout: 2 * time.Second, ReportTokens: 400, Subagent: subagentCfg()})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := o.Run(t.Context(), "Is the fleet healthy?"); err != nil {
		t.Fatal(err)
	}
	calls := top.Calls()
	var g goldenfile.Sections
	g.Add("system prompt", calls[0].Messages[0].Content)
	info := calls[0].Tools[0]
	g.Add("tool "+info.Name, einotest.ToolText(t, info))
	byID := map[string]schema.ToolCall{}
	for _, m := range calls[1].Messages {
		for _, tc := range m.ToolCalls {
			byID[tc.ID] = tc
		}
		if m.Role == schema.Tool {
			tc := byID[m.ToolCallID]
			args := tc.Function.Arguments
			if len(args) > 60 {
				args = args[:60] + "…"
			}
			g.Add("result "+tc.Function.Name+" "+args, m.Content)
		}
	}
	goldenfile.Check(t, "testdata/text.golden", g.String())
}
