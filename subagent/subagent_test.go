package subagent_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cloudwego/eino/schema"
	"github.com/google/go-cmp/cmp"
	"github.com/mcpfleet/mcpfleet"
	"github.com/mcpfleet/mcpfleet/adapters/eino/einotest"
	"github.com/mcpfleet/mcpfleet/config"
	incidentfleet "github.com/mcpfleet/mcpfleet/examples/incident/fleet"
	"github.com/mcpfleet/mcpfleet/internal/agenttest"
	"github.com/mcpfleet/mcpfleet/internal/testfleet"
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

// newFleetConfig is newFleet with a fleet file of the caller's: the
// deferred_tools setting and kind_settings under test.
func newFleetConfig(t testing.TB, cfg *config.Fleet, servers ...srv) *mcpfleet.Mux {
	t.Helper()
	mx, _ := agenttest.NewFleet(t, cfg, servers...)
	return mx
}

func policyServers() []srv {
	return []srv{
		{Name: "k8s-1", Kind: "kubernetes", Fixture: "kubernetes"},
		{Name: "k8s-2", Kind: "kubernetes", Fixture: "kubernetes"},
		{Name: "prometheus", Kind: "prometheus", Fixture: "prometheus"},
		{Name: "gitlab-rw", Kind: "gitlab", Fixture: "gitlab"},
		{Name: "gitlab-ro", Kind: "gitlab", Fixture: "gitlab_readonly"},
	}
}

// TestPolicyModes checks, per deferred_tools mode, exactly what the first
// model call of a subagent over k8s-1 + prometheus carries: the tool list,
// and whether the instruction holds the catalog block.
func TestPolicyModes(t *testing.T) {
	kinds := map[string][]string{"kubernetes": {"kubernetes"}, "prometheus": {"prometheus"}, "gitlab": {"gitlab", "gitlab_readonly"}}
	slice := append(foldedNames(t, "kubernetes", kinds), foldedNames(t, "prometheus", kinds)...)
	meta := []string{subagent.LoadToolsName, subagent.SearchToolsName}
	fleetWide := append(slices.Clone(slice), foldedNames(t, "gitlab", kinds)...)
	tests := []struct {
		name      string
		fleetMode string // the fleet file's deferred_tools
		mode      string // subagent.Config.Mode
		window    int
		wantMode  string
		wantTools []string
		catalog   bool // the instruction carries the catalog block
	}{
		{"on", "", "on", 0, "on", append(slices.Clone(slice), meta...), true},
		{"off", "", "off", 0, "off", slice, false},
		// Every permitted tool of the fleet fits 10% of a 10M window:
		// nothing is deferred, not even other servers' tools.
		{"auto fits", "", "auto", 10_000_000, "off", fleetWide, false},
		{"auto over threshold", "", "auto", 8192, "on", append(slices.Clone(slice), meta...), true},
		{"auto tokens over", "", "auto:100", 0, "on", append(slices.Clone(slice), meta...), true},
		// Config.Mode empty: the fleet file decides.
		{"fleet off", "off", "", 0, "off", slice, false},
		{"fleet on", "on", "", 0, "on", append(slices.Clone(slice), meta...), true},
		{"fleet auto:1%", "auto:1%", "", 0, "on", append(slices.Clone(slice), meta...), true},
		// Config.Mode wins over the fleet file.
		{"config overrides fleet", "on", "off", 0, "off", slice, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			mx := newFleetConfig(t, &config.Fleet{DeferredTools: tc.fleetMode}, policyServers()...)
			m := einotest.New(einotest.Answer("done"))
			sa, err := subagent.New(t.Context(), mx, subagent.Config{Servers: []string{"k8s-1", "prometheus"}, Model: m,
				Mode: tc.mode, ContextWindow: tc.window})
			if err != nil {
				t.Fatal(err)
			}
			rep, err := sa.Run(t.Context(), "how are the pods?")
			if err != nil {
				t.Fatal(err)
			}
			if rep.Mode != tc.wantMode {
				t.Errorf("report mode = %s (%s), want %s", rep.Mode, sa.Session().Reason(), tc.wantMode)
			}
			first := m.Calls()[0]
			if diff := cmp.Diff(sorted(tc.wantTools), sorted(first.ToolNames())); diff != "" {
				t.Errorf("tools on the first call (-want +got):\n%s", diff)
			}
			sys := first.Messages[0]
			if sys.Role != schema.System {
				t.Fatalf("first message is %s, want the instruction", sys.Role)
			}
			block := sa.Session().CatalogBlock()
			if tc.catalog {
				if block == "" || !strings.HasSuffix(sys.Content, block) {
					t.Errorf("instruction does not end with the catalog block:\n%s", sys.Content)
				}
				// The block offers what the slice lacks: gitlab, and
				// kubernetes on the server outside the slice.
				for _, want := range []string{"## Tool catalog", "gitlab", "kubernetes"} {
					if !strings.Contains(block, want) {
						t.Errorf("catalog block lacks %q", want)
					}
				}
			} else {
				if block != "" || strings.Contains(sys.Content, "## Tool catalog") || strings.Contains(sys.Content, "loadTools") {
					t.Errorf("mode %s shows a catalog or loadTools:\n%s", rep.Mode, sys.Content)
				}
			}
		})
	}
}

// TestPolicyLockdown: in mode on, a run that spends its steps on loadTools
// and tools still ends with an answer; the last call carries tool choice
// "none" (eino's ToolChoiceForbidden) and the answer-now instruction, and
// the report shows the step count and the lockdown.
func TestPolicyLockdown(t *testing.T) {
	mx := newFleetConfig(t, &config.Fleet{}, policyServers()...)
	m := einotest.New(
		einotest.Calls(einotest.Call(subagent.LoadToolsName, map[string]any{"names": []string{"list_commits"}})),
		einotest.Calls(einotest.Call("list_commits", map[string]any{"server": "gitlab-ro", "project_id": "pay/api"})),
	).WithFallback(func(r einotest.Record) *schema.Message {
		if r.ToolChoice != nil && *r.ToolChoice == schema.ToolChoiceForbidden {
			return schema.AssistantMessage("commits listed; no deploy since 09:00", nil)
		}
		return schema.AssistantMessage("", []schema.ToolCall{einotest.Call("pods_list", map[string]any{"server": "k8s-1"})})
	})
	sa, err := subagent.New(t.Context(), mx, subagent.Config{Servers: []string{"k8s-1"}, Model: m, Mode: "on", MaxSteps: 3})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := sa.Run(t.Context(), "what changed in pay/api?")
	if err != nil {
		t.Fatal(err)
	}
	calls := m.Calls()
	var choices []string
	for _, c := range calls {
		ch := "auto"
		if c.ToolChoice != nil {
			ch = string(*c.ToolChoice)
		}
		choices = append(choices, ch)
	}
	if diff := cmp.Diff([]string{"auto", "auto", string(schema.ToolChoiceForbidden)}, choices); diff != "" {
		t.Errorf("tool choice per call (-want +got):\n%s", diff)
	}
	last := calls[len(calls)-1].Messages
	if got := last[len(last)-1]; got.Role != schema.User || !strings.Contains(got.Content, "answer now") {
		t.Errorf("last message = %s %q, want the answer-now instruction", got.Role, got.Content)
	}
	if rep.Answer != "commits listed; no deploy since 09:00" || rep.Steps != 3 || !rep.LockedOut ||
		!slices.Equal(rep.Loaded, []string{"list_commits"}) {
		t.Errorf("report: answer %q, steps %d, locked out %v, loaded %v", rep.Answer, rep.Steps, rep.LockedOut, rep.Loaded)
	}
}

// TestPolicyAvoidWhen: near-twin tools carry their avoid_when hints into
// searchTools results (kubernetes pods_get vs resources_get; gitlab
// create_issue vs github issue_write), and into the tool description once loaded.
func TestPolicyAvoidWhen(t *testing.T) {
	avoid := map[string]map[string]string{
		"kubernetes": {
			"pods_get":      "you need a Deployment, Service or any non-pod resource: use resources_get",
			"resources_get": "the resource is a pod: pods_get is shorter and returns the same",
		},
		"gitlab": {"create_issue": "the repository is hosted on GitHub: use issue_write"},
		"github": {"issue_write": "the project is hosted on GitLab: use create_issue"},
	}
	cfg := &config.Fleet{DeferredTools: "on", KindSettings: map[string]config.KindSettings{}}
	for kind, m := range avoid {
		cfg.KindSettings[kind] = config.KindSettings{AvoidWhen: m}
	}
	mx := newFleetConfig(t, cfg,
		srv{Name: "k8s-1", Kind: "kubernetes", Fixture: "kubernetes"},
		srv{Name: "gitlab-rw", Kind: "gitlab", Fixture: "gitlab"},
		srv{Name: "github", Kind: "github", Fixture: "github"})
	m := einotest.New(
		einotest.Calls(
			einotest.Call(subagent.SearchToolsName, map[string]any{"query": "get one pod by name", "k": 3}),
			einotest.Call(subagent.SearchToolsName, map[string]any{"query": "get a deployment yaml resource", "k": 3}),
			einotest.Call(subagent.SearchToolsName, map[string]any{"query": "create a new issue", "k": 10}),
		),
		einotest.Calls(einotest.Call(subagent.LoadToolsName, map[string]any{"names": []string{"create_issue"}})),
		einotest.Answer("done"),
	)
	sa, err := subagent.New(t.Context(), mx, subagent.Config{Servers: []string{"k8s-1"}, Model: m, Scopes: []string{"*"}, MaxSteps: 5})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := sa.Run(t.Context(), "open an issue about the crashing pod"); err != nil {
		t.Fatal(err)
	}
	calls := m.Calls()
	var results []string
	for _, msg := range calls[1].Messages {
		if msg.Role == schema.Tool {
			results = append(results, msg.Content)
		}
	}
	if len(results) != 3 {
		t.Fatalf("%d search results, want 3", len(results))
	}
	wantIn := [][]string{
		{"avoid when: " + avoid["kubernetes"]["pods_get"]},
		{"avoid when: " + avoid["kubernetes"]["resources_get"]},
		{"avoid when: " + avoid["gitlab"]["create_issue"], "avoid when: " + avoid["github"]["issue_write"]},
	}
	for i, wants := range wantIn {
		for _, w := range wants {
			if !strings.Contains(results[i], w) {
				t.Errorf("search %d lacks %q:\n%s", i, w, results[i])
			}
		}
	}

	// After loading, the hint belongs in the description the model reads
	// on every call, not only in the search result it saw once.
	var desc string
	for _, info := range calls[2].Tools {
		if info.Name == "create_issue" {
			desc = info.Desc
		}
	}
	if desc == "" {
		t.Fatalf("gitlab create_issue not offered after loadTools: %v", calls[2].ToolNames())
	}
	if !strings.Contains(desc, avoid["gitlab"]["create_issue"]) {
		t.Errorf("loaded tool description lacks the avoid_when hint: %q", desc)
	}
}

// TestPolicyModeCosts measures what each deferred_tools mode costs the
// first model call of a subagent over k8s-3 + prometheus-b + gitlab-a on
// the 23-server incident fleet (examples/incident/fleet.yaml, served
// in-process). The table it logs is docs/deferred-tools.md's "What each mode costs".
func TestPolicyModeCosts(t *testing.T) {
	cfg, err := config.Load("../examples/incident/fleet.yaml")
	if err != nil {
		t.Fatal(err)
	}
	opts := []mcpfleet.Option{mcpfleet.WithHealthInterval(-1)}
	for _, s := range cfg.Servers {
		in := incidentfleet.Instance{Kind: s.KindName(), Name: s.Name, ReadOnly: slices.Contains(s.Args, "--readonly")}
		srv, err := incidentfleet.NewServer(in)
		if err != nil {
			t.Fatal(err)
		}
		opts = append(opts, mcpfleet.WithInProcess(s.Name, s.KindName(), srv))
	}
	ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
	defer cancel()
	mx, err := mcpfleet.New(ctx, cfg, opts...)
	if err != nil {
		t.Fatal(err)
	}
	defer mx.Close()
	if n := len(mx.Servers()); n != 23 {
		t.Fatalf("%d servers up, want 23", n)
	}
	slice := []string{"k8s-3", "prometheus-b", "gitlab-a"}
	tests := []struct {
		mode     string
		window   int
		wantMode string
	}{
		{"off", 0, "off"},
		{"on", 0, "on"},
		{"auto", 0, "on"},
		// The slice alone (about 17k tokens) fits 10% of 200k, the fleet
		// does not: a subagent's auto weighs the whole fleet, because off
		// would cut it off from every server outside its slice.
		{"auto", 200_000, "on"},
		{"auto", 1_000_000, "off"},
	}
	var b strings.Builder
	b.WriteString("| mode | window | resolves to | active tools | tool tokens | meta-tools | catalog block | instruction (incl. block) | first call total |\n")
	b.WriteString("|---|---|---|---|---|---|---|---|---|\n")
	costs := map[string]subagent.SliceCost{}
	for _, tc := range tests {
		c, err := subagent.SliceTokens(t.Context(), mx, subagent.Config{Servers: slice, Mode: tc.mode, ContextWindow: tc.window})
		if err != nil {
			t.Fatal(err)
		}
		if c.Mode != tc.wantMode {
			t.Errorf("%s with window %d resolved to %s, want %s", tc.mode, tc.window, c.Mode, tc.wantMode)
		}
		window := "128k"
		if tc.window > 0 {
			window = fmt.Sprintf("%dk", tc.window/1000)
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %d | %d | %d | %d | %d | %d |\n", tc.mode, window, c.Mode, c.ActiveTools, c.Tools, c.MetaTools, c.CatalogBlock, c.Instruction, c.Total)
		costs[fmt.Sprintf("%s/%d", tc.mode, tc.window)] = c
	}
	t.Logf("slice %v on the incident fleet:\n%s", slice, b.String())

	on, off, wide := costs["on/0"], costs["off/0"], costs["auto/1000000"]
	if off.MetaTools != 0 || off.CatalogBlock != 0 || on.MetaTools == 0 || on.CatalogBlock == 0 {
		t.Errorf("off must have no catalog and no meta-tools, on both: off %+v, on %+v", off, on)
	}
	// Off holds every permitted slice tool; on may start gitlab with core
	// tools only (the preload budget), never with more than off.
	if on.ActiveTools > off.ActiveTools {
		t.Errorf("on activates %d tools, off %d", on.ActiveTools, off.ActiveTools)
	}
	// Auto on a huge window activates the whole fleet: the cost deferral avoids.
	if wide.ActiveTools <= off.ActiveTools || wide.Tools <= on.Total {
		t.Errorf("auto on a 1M window: %+v; on: %+v", wide, on)
	}
}

// toolMessage finds the tool message answering a call to name on server.
func toolMessage(msgs []*schema.Message, name, server string) *schema.Message {
	ids := map[string]bool{}
	for _, m := range msgs {
		for _, tc := range m.ToolCalls {
			if tc.Function.Name == name && strings.Contains(tc.Function.Arguments, `"`+server+`"`) {
				ids[tc.ID] = true
			}
		}
		if m.Role == schema.Tool && ids[m.ToolCallID] {
			return m
		}
	}
	return nil
}

// TestMultimodalImage: with Config.Multimodal the image a tool returns
// reaches the next model call as an image part after the text rendering;
// the gate still refuses a tool not active on its server without hitting it;
// without Multimodal the image is a text reference only.
func TestMultimodalImage(t *testing.T) {
	mx, hits := newFleet(t, srv{Name: "k8s-1", Kind: "kubernetes"}, srv{Name: "k8s-2", Kind: "kubernetes"})
	type part struct{ Type, Text, MIME, Data string }
	tests := []struct {
		name       string
		multimodal bool
		want       []part
	}{
		{"multimodal", true, []part{
			{Type: "text", Text: "a pixel\n[image image/png, 92 bytes base64]"},
			{Type: "image_url", MIME: "image/png", Data: testfleet.PNG},
		}},
		{"text only", false, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := einotest.New(
				einotest.Calls(
					einotest.Call("image", map[string]any{"server": "k8s-1"}),
					einotest.Call("image", map[string]any{"server": "k8s-2"}), // not in the slice
				),
				einotest.Answer("one pixel"),
			)
			sa, err := subagent.New(t.Context(), mx, subagent.Config{Servers: []string{"k8s-1"}, Model: m, Mode: "on", Multimodal: tc.multimodal})
			if err != nil {
				t.Fatal(err)
			}
			before := hits["k8s-2"].Load()
			rep, err := sa.Run(t.Context(), "show the image")
			if err != nil {
				t.Fatal(err)
			}
			msgs := m.Calls()[1].Messages
			img := toolMessage(msgs, "image", "k8s-1")
			if img == nil {
				t.Fatal("no tool message for the image call")
			}
			var got []part
			for _, p := range img.UserInputMultiContent {
				g := part{Type: string(p.Type), Text: p.Text}
				if p.Image != nil {
					g.MIME = p.Image.MIMEType
					if p.Image.Base64Data != nil {
						g.Data = *p.Image.Base64Data
					}
				}
				// the root wraps upstream text in its neutralization envelope
				if i := strings.Index(g.Text, "a pixel"); i >= 0 {
					g.Text = "a pixel" + g.Text[strings.LastIndex(g.Text, "\n"):]
				}
				got = append(got, g)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("image tool message parts (-want +got):\n%s", diff)
			}
			if !tc.multimodal && !strings.Contains(img.Content, "[image image/png, 92 bytes base64]") {
				t.Errorf("text-only content = %q, want the image reference", img.Content)
			}
			refused := toolMessage(msgs, "image", "k8s-2")
			text := refused.Content
			if len(refused.UserInputMultiContent) > 0 {
				text = refused.UserInputMultiContent[0].Text
			}
			if !strings.HasPrefix(text, "REJECTED (the server was not called)") {
				t.Errorf("refusal = %q", text)
			}
			if n := hits["k8s-2"].Load() - before; n != 0 {
				t.Errorf("k8s-2 hit %d times through the gate", n)
			}
			// The gate's record carries its reason in the one vocabulary.
			var gated []string
			for _, c := range rep.Calls {
				if c.Server == "k8s-2" {
					gated = append(gated, c.Status+"/"+c.Detail)
				}
			}
			if want := []string{"rejected/" + string(mcpfleet.ReasonNotLoaded)}; !slices.Equal(gated, want) {
				t.Errorf("gate records = %q, want %q", gated, want)
			}
		})
	}
}
