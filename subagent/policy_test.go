package subagent_test

import (
	"context"
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
	"github.com/mcpfleet/mcpfleet/subagent"
)

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
