package orchestrator_test

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/cloudwego/eino/components/model"
	"github.com/cloudwego/eino/schema"
	"github.com/google/go-cmp/cmp"
	"github.com/mcpfleet/mcpfleet/adapters/eino/einotest"
	"github.com/mcpfleet/mcpfleet/internal/tokens"
	"github.com/mcpfleet/mcpfleet/orchestrator"
)

func TestOrchestratorSeesOnlyOverview(t *testing.T) {
	mx, hits := newFleet(t,
		srv{Name: "k8s-1", Kind: "kubernetes", Fixture: "kubernetes"},
		srv{Name: "k8s-2", Kind: "kubernetes", Fixture: "kubernetes"},
		srv{Name: "k8s-3", Kind: "kubernetes", Fixture: "kubernetes"},
		srv{Name: "prometheus", Kind: "prometheus", Fixture: "prometheus"},
		srv{Name: "gitlab-rw", Kind: "gitlab", Fixture: "gitlab"},
		srv{Name: "gitlab-ro", Kind: "gitlab", Fixture: "gitlab_readonly"},
	)
	spawn := einotest.Call(orchestrator.SpawnName, map[string]any{"tasks": []map[string]any{
		{"task": "Find crashing payments pods and their error rate", "servers": []string{"k8s-1", "prometheus"}},
		{"task": "Check the ledger cluster", "servers": []string{"nope"}},
		{"task": "Check cluster two", "servers": []string{"k8s-2"}},
	}})
	top := einotest.New(
		einotest.Step{ToolCalls: []schema.ToolCall{spawn}, Usage: &schema.TokenUsage{PromptTokens: 300, CompletionTokens: 40, TotalTokens: 340}},
		einotest.Answer("payments-api crash-loops in k8s-1; cluster two did not answer in time"),
	)
	var mu sync.Mutex
	subModels := map[string]*einotest.Model{}
	newSub := func(tk orchestrator.Task) (model.ToolCallingChatModel, error) {
		var m *einotest.Model
		switch tk.Servers[0] {
		case "k8s-1":
			m = einotest.New(
				einotest.Calls(einotest.Call("pods_list_in_namespace", map[string]any{"server": "k8s-1", "namespace": "payments"})),
				einotest.Step{Answer: "payments-api restarts every minute", Usage: &schema.TokenUsage{PromptTokens: 5000, CompletionTokens: 30, TotalTokens: 5030}},
			)
		case "k8s-2":
			m = einotest.New(einotest.Step{Delay: time.Minute, Answer: "too late"})
		default:
			m = einotest.New()
		}
		mu.Lock()
		subModels[tk.Servers[0]] = m
		mu.Unlock()
		return m, nil
	}
	o, err := orchestrator.New(mx, orchestrator.Config{Model: top, SubagentModel: newSub, SubagentTimeout: 5 * time.Second,
		Subagent: subagentCfg()})
	if err != nil {
		t.Fatal(err)
	}
	tr, err := o.Run(t.Context(), "Why are payments failing?")
	if err != nil {
		t.Fatal(err)
	}

	// What the orchestrator's model was shown: spawnSubagents only, and no MCP tool name anywhere.
	var mcpNames []string
	for _, s := range mx.Servers() {
		for _, tl := range s.Tools {
			mcpNames = append(mcpNames, tl.Name)
		}
	}
	slices.Sort(mcpNames)
	mcpNames = slices.Compact(mcpNames)
	re := regexp.MustCompile(`\b(` + strings.Join(mcpNames, "|") + `)\b`)
	calls := top.Calls()
	if len(calls) != 2 {
		t.Fatalf("orchestrator made %d model calls, want 2", len(calls))
	}
	for i, c := range calls {
		if diff := cmp.Diff([]string{orchestrator.SpawnName}, c.ToolNames()); diff != "" {
			t.Errorf("call %d tools (-want +got):\n%s", i, diff)
		}
		for _, m := range c.Messages {
			if hit := re.FindString(m.Content); hit != "" {
				t.Errorf("call %d: %s message mentions MCP tool %q:\n%s", i, m.Role, hit, m.Content)
			}
		}
	}
	if got, want := calls[0].Messages[0].Content, o.SystemPrompt(); got != want || !strings.HasSuffix(got, mx.Overview()) {
		t.Errorf("system prompt = %q", got)
	}

	// The reports: one answered, one failed at validation, one timed out.
	type row struct {
		Servers  []string
		Answer   string
		ErrHas   string
		TimedOut bool
	}
	var got []row
	for _, s := range tr.Subagents {
		r := row{Servers: s.Servers, TimedOut: s.TimedOut}
		if s.Report != nil {
			r.Answer = s.Report.Answer
		}
		if s.Error != "" {
			r.ErrHas = s.Error[:min(len(s.Error), 45)]
		}
		got = append(got, r)
	}
	want := []row{
		{Servers: []string{"k8s-1", "prometheus"}, Answer: "payments-api restarts every minute"},
		{Servers: []string{"nope"}, ErrHas: "subagent: unknown or not permitted: nope (val"},
		{Servers: []string{"k8s-2"}, ErrHas: "subagent subagent-3: [NodeRunError] context d", TimedOut: true},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("subagents (-want +got):\n%s", diff)
	}
	result := toolMessage(calls[1].Messages)
	for _, s := range []string{"answer: payments-api restarts every minute", "calls: k8s-1 (1 ok)", "FAILED: subagent: unknown or not permitted: nope", "TIMED OUT after 5s"} {
		if !strings.Contains(result, s) {
			t.Errorf("spawnSubagents result lacks %q:\n%s", s, result)
		}
	}
	if hits["k8s-1"].Load() != 1 {
		t.Errorf("k8s-1 hit %d times, want 1", hits["k8s-1"].Load())
	}
	if tr.Tokens.Total != 340 || tr.TotalTokens.Total != 340+5030 || tr.Answer != "payments-api crash-loops in k8s-1; cluster two did not answer in time" {
		t.Errorf("trace tokens %+v total %+v answer %q", tr.Tokens, tr.TotalTokens, tr.Answer)
	}
	if _, err := json.Marshal(tr); err != nil {
		t.Errorf("trace is not JSON-serializable: %v", err)
	}
}

func toolMessage(msgs []*schema.Message) string {
	for _, m := range msgs {
		if m.Role == schema.Tool {
			return m.Content
		}
	}
	return ""
}

func TestParallelLimit(t *testing.T) {
	mx, _ := newFleet(t, srv{Name: "k8s-1", Kind: "kubernetes"}, srv{Name: "k8s-2", Kind: "kubernetes"})
	var tasks []map[string]any
	for i := range 5 {
		tasks = append(tasks, map[string]any{"task": fmt.Sprintf("task %d", i), "servers": []string{"k8s-1"}})
	}
	top := einotest.New(einotest.Calls(einotest.Call(orchestrator.SpawnName, map[string]any{"tasks": tasks})), einotest.Answer("done"))
	var running, peak atomic.Int64
	newSub := func(tk orchestrator.Task) (model.ToolCallingChatModel, error) {
		return einotest.New(einotest.Step{Func: func(einotest.Record) *schema.Message {
			n := running.Add(1)
			defer running.Add(-1)
			for p := peak.Load(); n > p && !peak.CompareAndSwap(p, n); p = peak.Load() {
			}
			// wait for a sibling (or give up): proves parallelism without timing asserts
			deadline := time.Now().Add(2 * time.Second)
			for peak.Load() < 2 && time.Now().Before(deadline) {
				time.Sleep(time.Millisecond)
			}
			time.Sleep(20 * time.Millisecond)
			return schema.AssistantMessage("ok "+tk.Task, nil)
		}}), nil
	}
	o, err := orchestrator.New(mx, orchestrator.Config{Model: top, SubagentModel: newSub, MaxParallel: 2, Subagent: subagentCfg()})
	if err != nil {
		t.Fatal(err)
	}
	tr, err := o.Run(t.Context(), "go")
	if err != nil {
		t.Fatal(err)
	}
	if p := peak.Load(); p != 2 {
		t.Errorf("peak concurrency %d, want 2", p)
	}
	for i, s := range tr.Subagents {
		if s.Report == nil || s.Report.Answer != fmt.Sprintf("ok task %d", i) {
			t.Errorf("subagent %d: %+v", i, s)
		}
	}
}

func TestReportBudget(t *testing.T) {
	mx, _ := newFleet(t, srv{Name: "k8s-1", Kind: "kubernetes"})
	var tasks []map[string]any
	for i := range 3 {
		tasks = append(tasks, map[string]any{"task": fmt.Sprintf("task %d", i), "servers": []string{"k8s-1"}})
	}
	top := einotest.New(einotest.Calls(einotest.Call(orchestrator.SpawnName, map[string]any{"tasks": tasks})), einotest.Answer("done"))
	long := strings.Repeat("the payments pod restarted again after an out of memory kill. ", 200)
	newSub := func(orchestrator.Task) (model.ToolCallingChatModel, error) {
		return einotest.New(einotest.Answer(long)), nil
	}
	o, err := orchestrator.New(mx, orchestrator.Config{Model: top, SubagentModel: newSub, ReportTokens: 600, Subagent: subagentCfg()})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := o.Run(t.Context(), "go"); err != nil {
		t.Fatal(err)
	}
	res := toolMessage(top.Calls()[1].Messages)
	if n := countTokens(res); n > 600 || strings.Count(res, "…[trimmed]") != 3 || strings.Count(res, "## subagent") != 3 {
		t.Errorf("result has %d tokens, %d trimmed sections:\n%.400s", n, strings.Count(res, "…[trimmed]"), res)
	}
}

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
