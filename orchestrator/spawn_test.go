package orchestrator_test

import (
	"strings"
	"testing"

	"github.com/cloudwego/eino/components/model"
	"github.com/cloudwego/eino/schema"
	"github.com/google/go-cmp/cmp"

	"github.com/mcpfleet/mcpfleet/adapters/eino/einotest"
	"github.com/mcpfleet/mcpfleet/orchestrator"
)

// TestTaskNames: a name the planner gives a task names the subagent in the
// trace, its report, the model factory's Task (the answers echo it) and the
// result headers;
// unnamed tasks keep subagent-N, numbered across spawns.
func TestTaskNames(t *testing.T) {
	mx, _ := newFleet(t, srv{Name: "k8s-1", Kind: "kubernetes"}, srv{Name: "prom-1", Kind: "prometheus"})
	top := einotest.New(
		einotest.Calls(einotest.Call(orchestrator.SpawnName, map[string]any{"tasks": []map[string]any{
			{"name": "triage", "task": "what broke?", "servers": []string{"k8s-1"}},
			{"task": "metrics?", "servers": []string{"prom-1"}},
		}})),
		einotest.Calls(einotest.Call(orchestrator.SpawnName, map[string]any{"tasks": []map[string]any{
			{"name": " symptoms ", "task": "since when?", "servers": []string{"prom-1"}},
			{"task": "again", "servers": []string{"k8s-1"}},
		}})),
		einotest.Answer("done"),
	)
	newSub := func(tk orchestrator.Task) (model.ToolCallingChatModel, error) {
		return einotest.New(einotest.Answer("ok from " + tk.Name)), nil
	}
	o, err := orchestrator.New(mx, orchestrator.Config{Model: top, SubagentModel: newSub, MaxParallel: 1, Subagent: subagentCfg()})
	if err != nil {
		t.Fatal(err)
	}
	tr, err := o.Run(t.Context(), "go")
	if err != nil {
		t.Fatal(err)
	}
	type row struct{ Name, Report, Answer string }
	var got []row
	for _, s := range tr.Subagents {
		r := row{Name: s.Name}
		if s.Report != nil {
			r.Report, r.Answer = s.Report.Name, s.Report.Answer
		}
		got = append(got, r)
	}
	want := []row{
		{"triage", "triage", "ok from triage"},
		{"subagent-2", "subagent-2", "ok from subagent-2"},
		{"symptoms", "symptoms", "ok from symptoms"},
		{"subagent-4", "subagent-4", "ok from subagent-4"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("subagent names (-want +got):\n%s", diff)
	}
	calls := top.Calls()
	first, second := lastToolMessage(calls[1].Messages), lastToolMessage(calls[2].Messages)
	for _, h := range []string{"## triage (subagent 1; servers: k8s-1)", "## subagent 2 (servers: prom-1)"} {
		if !strings.Contains(first, h) {
			t.Errorf("first result lacks %q:\n%s", h, first)
		}
	}
	for _, h := range []string{"## symptoms (subagent 3; servers: prom-1)", "## subagent 4 (servers: k8s-1)"} {
		if !strings.Contains(second, h) {
			t.Errorf("second result lacks %q:\n%s", h, second)
		}
	}
}

func lastToolMessage(msgs []*schema.Message) string {
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role == schema.Tool {
			return msgs[i].Content
		}
	}
	return ""
}
