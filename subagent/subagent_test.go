package subagent_test

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cloudwego/eino/schema"
	"github.com/google/go-cmp/cmp"

	"github.com/mcpfleet/mcpfleet/adapters/eino/einotest"
	"github.com/mcpfleet/mcpfleet/subagent"
)

func slice4(t *testing.T) []srv {
	return []srv{
		{Name: "k8s-1", Kind: "kubernetes", Fixture: "kubernetes"},
		{Name: "k8s-2", Kind: "kubernetes", Fixture: "kubernetes"},
		{Name: "k8s-3", Kind: "kubernetes", Fixture: "kubernetes"},
		{Name: "prometheus", Kind: "prometheus", Fixture: "prometheus"},
		{Name: "gitlab-rw", Kind: "gitlab", Fixture: "gitlab"},
		{Name: "gitlab-ro", Kind: "gitlab", Fixture: "gitlab_readonly"},
	}
}

// TestToolSetPerModelCall asserts the exact tool list bound on each model
// call: the slice's folded tools plus the meta-tools, then + the loaded tool;
// and that calls to tools not active are refused without hitting the server.
func TestToolSetPerModelCall(t *testing.T) {
	mx, hits := newFleet(t, slice4(t)...)
	m := einotest.New(
		einotest.Calls(
			einotest.Call("pods_list_in_namespace", map[string]any{"server": "k8s-1", "namespace": "payments"}),
			einotest.Call("pods_list", map[string]any{"server": "k8s-2"}),
			einotest.Call("get_file_contents", map[string]any{"server": "gitlab-ro", "project_id": "pay/api", "file_path": "README.md"}),
			einotest.Call("execute_query", map[string]any{"server": "prometheus", "query": "up"}),
		),
		einotest.Calls(einotest.Call(subagent.LoadToolsName, map[string]any{"names": []string{"get_file_contents"}})),
		einotest.Calls(einotest.Call("get_file_contents", map[string]any{"server": "gitlab-ro", "project_id": "pay/api", "file_path": "README.md"})),
		einotest.Answer("payments pods listed; README read"),
	)
	sa, err := subagent.New(t.Context(), mx, subagent.Config{Servers: []string{"k8s-1", "prometheus"}, Model: m, Mode: "on", MaxSteps: 8})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := sa.Run(t.Context(), "Which payments pods run, and what does the README say?")
	if err != nil {
		t.Fatal(err)
	}

	fleet := map[string][]string{"kubernetes": {"kubernetes"}, "prometheus": {"prometheus"}, "gitlab": {"gitlab", "gitlab_readonly"}}
	base := append(foldedNames(t, "kubernetes", fleet), foldedNames(t, "prometheus", fleet)...)
	base = append(base, subagent.LoadToolsName, subagent.SearchToolsName)
	loaded := append(slices.Clone(base), "get_file_contents")
	calls := m.Calls()
	want := [][]string{sorted(base), sorted(base), sorted(loaded), sorted(loaded)}
	var got [][]string
	for _, c := range calls {
		got = append(got, sorted(c.ToolNames()))
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("tools per model call (-want +got):\n%s", diff)
	}
	// The loaded tool's enum lists both gitlab servers: it is active on both.
	if enum := serverEnum(t, calls[2].Tools, "get_file_contents"); !slices.Equal(enum, []string{"gitlab-ro", "gitlab-rw"}) {
		t.Errorf("get_file_contents enum = %v", enum)
	}
	// pods_list is active on k8s-1 only, though k8s-2 and k8s-3 have it:
	// it is shown bound to k8s-1, with no server parameter.
	if enum := serverEnum(t, calls[0].Tools, "pods_list"); enum != nil {
		t.Errorf("pods_list enum = %v, want none (bound to k8s-1)", enum)
	}
	for name, want := range map[string]int64{"k8s-1": 1, "k8s-2": 0, "k8s-3": 0, "prometheus": 1, "gitlab-ro": 1, "gitlab-rw": 0} {
		if got := hits[name].Load(); got != want {
			t.Errorf("%s hit %d times, want %d", name, got, want)
		}
	}
	// The refusal the model read points at loadTools.
	if txt := toolResult(calls[1].Messages, "get_file_contents"); !strings.Contains(txt, "REJECTED") || !strings.Contains(txt, "loadTools") {
		t.Errorf("refusal text = %q", txt)
	}
	type call struct{ Server, Tool, Status string }
	var gotCalls []call
	for _, c := range rep.Calls {
		gotCalls = append(gotCalls, call{c.Server, c.Tool, c.Status})
	}
	slices.SortFunc(gotCalls, func(a, b call) int { return strings.Compare(a.Server+a.Tool+a.Status, b.Server+b.Tool+b.Status) })
	wantCalls := []call{
		{"gitlab-ro", "get_file_contents", "ok"},
		{"gitlab-ro", "get_file_contents", "rejected"},
		{"k8s-1", "pods_list_in_namespace", "ok"},
		{"k8s-2", "pods_list", "rejected"},
		{"prometheus", "execute_query", "ok"},
	}
	if diff := cmp.Diff(wantCalls, gotCalls); diff != "" {
		t.Errorf("report calls (-want +got):\n%s", diff)
	}
	if rep.Answer != "payments pods listed; README read" || rep.Steps != 4 || !slices.Equal(rep.Loaded, []string{"get_file_contents"}) {
		t.Errorf("report: answer %q, steps %d, loaded %v", rep.Answer, rep.Steps, rep.Loaded)
	}
}

func serverEnum(t *testing.T, infos []*schema.ToolInfo, name string) []string {
	t.Helper()
	for _, in := range infos {
		if in.Name != name {
			continue
		}
		js, err := in.ParamsOneOf.ToJSONSchema()
		if err != nil {
			t.Fatal(err)
		}
		p, ok := js.Properties.Get("server")
		if !ok {
			return nil // bound to one server: no server parameter
		}
		var out []string
		for _, v := range p.Enum {
			out = append(out, v.(string))
		}
		return out
	}
	t.Fatalf("no tool %s", name)
	return nil
}

// toolResult finds the tool message answering a call to name.
func toolResult(msgs []*schema.Message, name string) string {
	ids := map[string]bool{}
	for _, m := range msgs {
		for _, tc := range m.ToolCalls {
			if tc.Function.Name == name {
				ids[tc.ID] = true
			}
		}
		if m.Role == schema.Tool && ids[m.ToolCallID] {
			return m.Content
		}
	}
	return ""
}

// TestToolErrorsAreText: a failing tool and a timing-out tool come back as
// text and the run goes on to an answer.
func TestToolErrorsAreText(t *testing.T) {
	mx, _ := newFleet(t, srv{Name: "k8s-1", Kind: "kubernetes", Timeout: time.Second})
	m := einotest.New(
		einotest.Calls(
			einotest.Call("fail", map[string]any{"server": "k8s-1"}),
			einotest.Call("slow", map[string]any{"server": "k8s-1", "ms": 5000}),
			einotest.Call("no_such_tool", map[string]any{}),
		),
		einotest.Step{Answer: "k8s-1 is failing", Usage: &schema.TokenUsage{PromptTokens: 900, CompletionTokens: 12, TotalTokens: 912}},
	)
	sa, err := subagent.New(t.Context(), mx, subagent.Config{Servers: []string{"k8s-1"}, Model: m, Mode: "off"})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := sa.Run(t.Context(), "check k8s-1")
	if err != nil {
		t.Fatal(err)
	}
	msgs := m.Calls()[1].Messages
	for name, want := range map[string][]string{
		"fail":         {"ERROR from k8s-1.fail: ", "fail: the tool failed on purpose"},
		"slow":         {"ERROR from k8s-1.slow: ", "no answer in time"},
		"no_such_tool": {"REJECTED no_such_tool: no such tool in this session."},
	} {
		got := toolResult(msgs, name)
		if !strings.HasPrefix(got, want[0]) || !strings.Contains(got, want[len(want)-1]) {
			t.Errorf("%s result = %q, want %q", name, got, want)
		}
	}
	if rep.Answer != "k8s-1 is failing" || rep.Tokens.Total != 912 || len(rep.Usage) != 1 {
		t.Errorf("report: %+v", rep)
	}
	details := map[string]string{}
	for _, c := range rep.Calls {
		details[c.Tool] = c.Status + "/" + c.Detail
	}
	if diff := cmp.Diff(map[string]string{"fail": "error/tool_error", "slow": "error/timeout"}, details); diff != "" {
		t.Errorf("call statuses (-want +got):\n%s", diff)
	}
}

// TestLockdown: the last step carries tool choice "none" and the
// answer-now instruction; a model that still calls tools has the calls dropped.
func TestLockdown(t *testing.T) {
	mx, hits := newFleet(t, srv{Name: "k8s-1", Kind: "kubernetes"})
	for _, obey := range []bool{true, false} {
		name := "model obeys"
		if !obey {
			name = "model ignores tool choice"
		}
		t.Run(name, func(t *testing.T) {
			m := einotest.New().WithFallback(func(r einotest.Record) *schema.Message {
				if obey && r.ToolChoice != nil && *r.ToolChoice == schema.ToolChoiceForbidden {
					return schema.AssistantMessage("final: echo works", nil)
				}
				tc := einotest.Call("echo", map[string]any{"server": "k8s-1", "text": "again"})
				return schema.AssistantMessage("", []schema.ToolCall{tc})
			})
			sa, err := subagent.New(t.Context(), mx, subagent.Config{Servers: []string{"k8s-1"}, Model: m, Mode: "off", MaxSteps: 3})
			if err != nil {
				t.Fatal(err)
			}
			before := hits["k8s-1"].Load()
			rep, err := sa.Run(t.Context(), "loop forever")
			if err != nil {
				t.Fatal(err)
			}
			calls := m.Calls()
			var choices []string
			for _, c := range calls {
				ch := "-"
				if c.ToolChoice != nil {
					ch = string(*c.ToolChoice)
				}
				choices = append(choices, ch)
			}
			if diff := cmp.Diff([]string{"-", "-", "forbidden"}, choices); diff != "" {
				t.Errorf("tool choice per call (-want +got):\n%s", diff)
			}
			last := calls[len(calls)-1].Messages
			if got := last[len(last)-1].Content; !strings.Contains(got, "answer now") {
				t.Errorf("last message = %q, want the answer-now instruction", got)
			}
			wantAnswer := "final: echo works"
			if !obey {
				wantAnswer = "(no answer: the step limit was reached before the subagent answered)"
			}
			if rep.Answer != wantAnswer || !rep.LockedOut || rep.Steps != 3 {
				t.Errorf("answer %q locked %v steps %d", rep.Answer, rep.LockedOut, rep.Steps)
			}
			if got := hits["k8s-1"].Load() - before; got != 2 {
				t.Errorf("server hit %d times, want 2 (steps 1 and 2)", got)
			}
		})
	}
}

func TestNewRejectsServers(t *testing.T) {
	mx, _ := newFleet(t, srv{Name: "k8s-1", Kind: "kubernetes"}, srv{Name: "k8s-2", Kind: "kubernetes"},
		srv{Name: "prom-1", Kind: "prometheus"}, srv{Name: "prom-2", Kind: "prometheus"})
	m := einotest.New()
	tests := []struct {
		name    string
		servers []string
		want    string
	}{
		{"none", nil, "subagent: a subagent takes 1 to 3 servers, got 0 (valid servers: k8s-1, k8s-2, prom-1, prom-2)"},
		{"too many", []string{"k8s-1", "k8s-2", "prom-1", "prom-2"}, "subagent: a subagent takes 1 to 3 servers, got 4 (valid servers: k8s-1, k8s-2, prom-1, prom-2)"},
		{"unknown", []string{"k8s-1", "k8s-9"}, "subagent: unknown or not permitted: k8s-9 (valid servers: k8s-1, k8s-2, prom-1, prom-2)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := subagent.New(t.Context(), mx, subagent.Config{Servers: tc.servers, Model: m})
			var se *subagent.ServersError
			if !errors.As(err, &se) {
				t.Fatalf("err = %v, want *ServersError", err)
			}
			if diff := cmp.Diff(tc.want, err.Error()); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestBoundServerCall: a tool active on one server of its kind is shown
// without a server parameter, and a call that names none goes to that
// server through the gate. Once loaded on a second server the parameter is
// back, and a call without it is refused with the servers to choose from.
func TestBoundServerCall(t *testing.T) {
	mx, hits := newFleet(t, slice4(t)...)
	m := einotest.New(
		einotest.Calls(einotest.Call("pods_list", map[string]any{})),
		einotest.Calls(einotest.Call(subagent.LoadToolsName, map[string]any{"names": []string{"k8s-2.pods_list"}})),
		einotest.Calls(einotest.Call("pods_list", map[string]any{})),
		einotest.Answer("done"),
	)
	sa, err := subagent.New(t.Context(), mx, subagent.Config{Servers: []string{"k8s-1", "prometheus"}, Model: m, Mode: "on", MaxSteps: 8})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := sa.Run(t.Context(), "list the pods")
	if err != nil {
		t.Fatal(err)
	}
	calls := m.Calls()
	if enum := serverEnum(t, calls[0].Tools, "pods_list"); enum != nil {
		t.Errorf("first call: pods_list enum = %v, want none (bound to k8s-1)", enum)
	}
	if enum := serverEnum(t, calls[2].Tools, "pods_list"); !slices.Equal(enum, []string{"k8s-1", "k8s-2"}) {
		t.Errorf("after loading k8s-2.pods_list the enum is %v, want [k8s-1 k8s-2]", enum)
	}
	if len(rep.Calls) != 2 {
		t.Fatalf("%d calls recorded, want 2: %+v", len(rep.Calls), rep.Calls)
	}
	if c := rep.Calls[0]; c.Server != "k8s-1" || c.Status != "ok" {
		t.Errorf("bound call: server %q status %q (%s), want k8s-1 ok", c.Server, c.Status, c.Text)
	}
	if c := rep.Calls[1]; c.Status == "ok" || !strings.Contains(c.Text, "k8s-1, k8s-2") {
		t.Errorf("unbound call without a server: status %q text %q, want a refusal naming k8s-1, k8s-2", c.Status, c.Text)
	}
	if n := hits["k8s-1"].Load(); n != 1 {
		t.Errorf("k8s-1 hit %d times, want 1", n)
	}
	if n := hits["k8s-2"].Load(); n != 0 {
		t.Errorf("k8s-2 hit %d times, want 0", n)
	}
}

// TestToolLimit: an agent never holds more than MaxTools tools. Preloading
// a 158-tool slice with an unbounded token budget stops short of the
// limit, and a loadTools that would pass it is refused without loading.
func TestToolLimit(t *testing.T) {
	fleet := []srv{{Name: "azure", Kind: "azure", Fixture: "azure"}, {Name: "mongodb", Kind: "mongodb", Fixture: "mongodb"},
		{Name: "terraform", Kind: "terraform", Fixture: "terraform"}, {Name: "k8s-1", Kind: "kubernetes", Fixture: "kubernetes"}}
	mx, hits := newFleet(t, fleet...)
	cfg := subagent.Config{Servers: []string{"azure", "mongodb", "terraform"}, Mode: "on", ToolBudget: 1 << 30, Scopes: []string{"*"}}
	c, err := subagent.SliceTokens(t.Context(), mx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if c.ActiveTools+4 > subagent.MaxTools || c.ActiveTools < 60 {
		t.Errorf("preloaded %d tools; want the most that fit under %d with the meta and result tools", c.ActiveTools, subagent.MaxTools)
	}
	var names []string
	all, _ := kindTools(t, "kubernetes")
	for _, n := range all {
		names = append(names, "k8s-1."+n)
	}
	m := einotest.New(
		einotest.Calls(einotest.Call(subagent.LoadToolsName, map[string]any{"names": names})),
		einotest.Answer("done"),
	)
	cfg.Model = m
	sa, err := subagent.New(t.Context(), mx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	before := len(sa.Session().Active())
	if _, err := sa.Run(t.Context(), "load everything"); err != nil {
		t.Fatal(err)
	}
	txt := toolResult(m.Calls()[1].Messages, subagent.LoadToolsName)
	if !strings.HasPrefix(txt, "REJECTED loadTools") || !strings.Contains(txt, "at most 128") {
		t.Errorf("loading %d more tools past the limit answered %q", len(names), txt)
	}
	if after := len(sa.Session().Active()); after != before {
		t.Errorf("active tools went from %d to %d; the refused load must load nothing", before, after)
	}
	if n := len(m.Calls()[1].Tools); n > subagent.MaxTools {
		t.Errorf("a model call carried %d tools", n)
	}
	if n := hits["k8s-1"].Load(); n != 0 {
		t.Errorf("k8s-1 hit %d times", n)
	}
}
