package subagent_test

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/cloudwego/eino/schema"

	"github.com/mcpfleet/mcpfleet/adapters/eino/einotest"
	"github.com/mcpfleet/mcpfleet/subagent"
)

// TestOffloadedResultTools: a result too large for the context comes back
// as a preview with a handle; from the next step on the model is offered
// readResult and grepResult, and grepResult finds lines the preview left out.
func TestOffloadedResultTools(t *testing.T) {
	mx, _ := newFleet(t, srv{Name: "k8s-1", Kind: "kubernetes"})
	handle := regexp.MustCompile(`r-[0-9a-f]+`)
	m := einotest.New(
		einotest.Calls(einotest.Call("big", map[string]any{"server": "k8s-1", "bytes": 400000})),
		einotest.Step{Func: func(r einotest.Record) *schema.Message {
			h := handle.FindString(toolResult(r.Messages, "big"))
			return schema.AssistantMessage("", []schema.ToolCall{einotest.Call("grepResult", map[string]any{"handle": h, "pattern": "line 4242:", "context": 0})})
		}},
		einotest.Answer("found it"),
	)
	sa, err := subagent.New(t.Context(), mx, subagent.Config{Servers: []string{"k8s-1"}, Model: m, Mode: "off"})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := sa.Run(t.Context(), "read the big log")
	if err != nil {
		t.Fatal(err)
	}
	calls := m.Calls()
	if len(calls) != 3 {
		t.Fatalf("model called %d times, want 3", len(calls))
	}
	if slices.Contains(calls[0].ToolNames(), "grepResult") {
		t.Errorf("first call offers grepResult before anything was offloaded: %v", calls[0].ToolNames())
	}
	for _, want := range []string{"readResult", "grepResult"} {
		if !slices.Contains(calls[1].ToolNames(), want) {
			t.Errorf("after the offload the model is not offered %s: %v", want, calls[1].ToolNames())
		}
	}
	preview := toolResult(calls[1].Messages, "big")
	if len(preview) > 8000 || !handle.MatchString(preview) {
		t.Errorf("preview is %d bytes (handle %q); want a short preview with a handle", len(preview), handle.FindString(preview))
	}
	got := toolResult(calls[2].Messages, "grepResult")
	if !strings.Contains(got, "line 4242: request handled") {
		t.Errorf("grepResult = %q, want the matching line", got)
	}
	if rep.Answer != "found it" || len(rep.Calls) != 1 || rep.Calls[0].Offloaded == "" {
		t.Errorf("report = %+v, want the answer and one offloaded call", rep)
	}
}
