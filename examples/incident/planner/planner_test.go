package planner

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/cloudwego/eino/components/model"
	"github.com/cloudwego/eino/schema"
	"github.com/google/go-cmp/cmp"
)

const overview = `alertmanager: alertmanager
argocd: argocd
gitlab: gitlab-a, gitlab-a-write, gitlab-b, gitlab-b-write
kubernetes: k8s-1, k8s-2, k8s-3
opensearch: opensearch-a, opensearch-b
pagerduty: pagerduty
prometheus: prometheus-a, prometheus-b
tracing: tracing
`

// fleetTool is a folded tool offered on servers.
func fleetTool(name string, servers ...string) *schema.ToolInfo {
	return &schema.ToolInfo{Name: name, ParamsOneOf: schema.NewParamsOneOfByParams(map[string]*schema.ParameterInfo{
		"server": {Type: schema.String, Enum: servers, Required: true},
	})}
}

func metaTool(name string) *schema.ToolInfo { return &schema.ToolInfo{Name: name} }

// exchange is one earlier tool call and its result.
type exchange struct {
	name   string
	args   string
	result string
}

func conversation(system, task string, ex ...exchange) []*schema.Message {
	msgs := []*schema.Message{schema.SystemMessage(system), schema.UserMessage(task)}
	for i, e := range ex {
		id := fmt.Sprintf("c%d", i)
		msgs = append(msgs, &schema.Message{Role: schema.Assistant, ToolCalls: []schema.ToolCall{{ID: id, Function: schema.FunctionCall{Name: e.name, Arguments: e.args}}}},
			schema.ToolMessage(e.result, id))
	}
	return msgs
}

// step is the decision in comparable form: the call's name and args, or
// the answer's first line.
type step struct {
	Call   string
	Args   map[string]any
	Answer string
}

func decide(t *testing.T, msgs []*schema.Message, tools []*schema.ToolInfo, opts ...model.Option) step {
	t.Helper()
	opts = append(opts, model.WithTools(tools))
	msg, err := New().Generate(context.Background(), msgs, opts...)
	if err != nil {
		t.Fatal(err)
	}
	if len(msg.ToolCalls) == 0 {
		first, _, _ := strings.Cut(msg.Content, "\n")
		return step{Answer: first}
	}
	var args map[string]any
	if err := json.Unmarshal([]byte(msg.ToolCalls[0].Function.Arguments), &args); err != nil {
		t.Fatal(err)
	}
	return step{Call: msg.ToolCalls[0].Function.Name, Args: args}
}

const triageResult = `## subagent 1 (servers: alertmanager, pagerduty)
task: Triage: Name the affected cluster, namespace and service.
answer: Findings:
- alert PaymentsAPIHigh5xxRate (critical) firing since 2026-11-30T02:17:00Z: cluster k8s-3, namespace payments, service payments-api, from prometheus-b
`

func TestOrchestrator(t *testing.T) {
	spawn := []*schema.ToolInfo{metaTool(SpawnToolName)}
	system := "You coordinate.\n\nServers by kind:\n" + overview
	tasks := func(servers ...[]string) map[string]any {
		var l []any
		for _, s := range servers {
			var ss []any
			for _, x := range s {
				ss = append(ss, x)
			}
			l = append(l, map[string]any{"servers": ss})
		}
		return map[string]any{"tasks": l}
	}
	tests := []struct {
		name string
		ex   []exchange
		want step
	}{
		{"triage first, on alerting and paging", nil,
			step{Call: SpawnToolName, Args: tasks([]string{"alertmanager", "pagerduty"})}},
		{"then symptoms, changes and errors on the servers triage named",
			[]exchange{{SpawnToolName, `{}`, triageResult}},
			step{Call: SpawnToolName, Args: tasks([]string{"k8s-3", "prometheus-b"}, []string{"argocd", "gitlab-a", "gitlab-b"}, []string{"opensearch-a", "opensearch-b", "tracing"})}},
		{"no cluster named: say so instead of guessing",
			[]exchange{{SpawnToolName, `{}`, "## subagent 1\nanswer: Found nothing relevant with the tools available.\n"}},
			step{Answer: "Triage did not name an affected cluster and service:"}},
		{"after the investigation: the report",
			[]exchange{{SpawnToolName, `{}`, triageResult}, {SpawnToolName, `{}`, "answer: Findings:\n- nothing\n"}},
			step{Answer: "INCIDENT REPORT"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := decide(t, conversation(system, "Payments fail.", tc.ex...), spawn)
			// Compare servers only: task wording is prose.
			if l, ok := got.Args["tasks"].([]any); ok {
				for _, it := range l {
					delete(it.(map[string]any), "task")
				}
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("decision (-want +got):\n%s", diff)
			}
		})
	}
}

const crashingPods = `NAME                        READY   STATUS             RESTARTS
payments-api-7f9c6d-xk2lp   0/1     CrashLoopBackOff   14 (2m ago)
payments-worker-6c4f83-d    1/1     Running            0
`

func TestSubagent(t *testing.T) {
	symptoms := "Your servers: k8s-3 (kubernetes), prometheus-b (prometheus). Tools reach them."
	k8sTools := []*schema.ToolInfo{fleetTool("pods_list_in_namespace", "k8s-3"), fleetTool("pods_log", "k8s-3"), metaTool(grepResultName)}
	changes := "Your servers: argocd (argocd). Tools reach them."
	changesTask := "What changed for service payments-api in namespace payments on cluster k8s-3? Which revision the deployment runs."
	argoTools := []*schema.ToolInfo{fleetTool("list_application_history", "argocd"), fleetTool("list_applications", "argocd"),
		metaTool(searchToolsName), metaTool(loadToolsName)}
	apps := `[{"name": "payments-api-k8s-1"}, {"name": "payments-api-k8s-3", "repoURL": "https://gitlab.example/platform/payments-api.git"}]`
	tests := []struct {
		name   string
		system string
		task   string
		tools  []*schema.ToolInfo
		ex     []exchange
		want   step
	}{
		{"lists the pods of the task's namespace", symptoms, "Symptoms of service payments-api in namespace payments", k8sTools, nil,
			step{Call: "pods_list_in_namespace", Args: map[string]any{"server": "k8s-3", "namespace": "payments"}}},
		{"reads the crashed pod's log, sloppily (pod_name, previous as a string)", symptoms, "service payments-api in namespace payments", k8sTools,
			[]exchange{{"pods_list_in_namespace", `{"server":"k8s-3","namespace":"payments"}`, crashingPods}},
			step{Call: "pods_log", Args: map[string]any{"server": "k8s-3", "pod_name": "payments-api-7f9c6d-xk2lp", "namespace": "payments", "previous": "true"}}},
		{"no crash loop: no log, an answer", symptoms, "service payments-api in namespace payments", k8sTools[:2],
			[]exchange{{"pods_list_in_namespace", `{"server":"k8s-3","namespace":"payments"}`, "NAME READY STATUS\nweb-1 1/1 Running\n"}},
			step{Answer: "Findings:"}},
		{"greps an offloaded log when grepResult is offered", symptoms, "service payments-api in namespace payments", k8sTools,
			[]exchange{{"pods_list_in_namespace", `{"server":"k8s-3","namespace":"payments"}`, crashingPods},
				{"pods_log", `{"server":"k8s-3","pod_name":"payments-api-7f9c6d-xk2lp"}`, "The result of k8s-3.pods_log is too large for the context (9 bytes, 2 lines). It is stored as r-1.\nRead lines with readResult"}},
			step{Call: grepResultName, Args: map[string]any{"handle": "r-1", "pattern": `(?i)pool exhausted|exiting with status`, "context": float64(0)}}},
		{"asks for history with an empty name first, as a sloppy model would", changes, changesTask, argoTools, nil,
			step{Call: "list_application_history", Args: map[string]any{"server": "argocd", "application_name": ""}}},
		{"after the rejection, looks the name up", changes, changesTask, argoTools,
			[]exchange{{"list_application_history", `{"server":"argocd","application_name":""}`, "REJECTED argocd.list_application_history (placeholder): some arguments are placeholders, not values; the server was not called."}},
			step{Call: "list_applications", Args: map[string]any{"server": "argocd"}}},
		{"then the history of the cluster's application", changes, changesTask, argoTools,
			[]exchange{{"list_application_history", `{"server":"argocd","application_name":""}`, "REJECTED"}, {"list_applications", `{"server":"argocd"}`, apps}},
			step{Call: "list_application_history", Args: map[string]any{"server": "argocd", "application_name": "payments-api-k8s-3"}}},
		{"no kubernetes tool: search the catalog", changes, changesTask, argoTools,
			[]exchange{{"list_application_history", `{"server":"argocd","application_name":""}`, "REJECTED"}, {"list_applications", `{"server":"argocd"}`, apps},
				{"list_application_history", `{"server":"argocd","application_name":"payments-api-k8s-3"}`, `{"history": []}`}},
			step{Call: searchToolsName, Args: map[string]any{"query": "deployment revision and image running on a cluster"}}},
		{"load what the search found, for the task's cluster", changes, changesTask, argoTools,
			[]exchange{{"list_application_history", `{"server":"argocd","application_name":""}`, "REJECTED"}, {"list_applications", `{"server":"argocd"}`, apps},
				{"list_application_history", `{"server":"argocd","application_name":"payments-api-k8s-3"}`, `{"history": []}`},
				{searchToolsName, `{"query":"x"}`, "- resources_get [kubernetes; servers k8s-1, k8s-3; not loaded]: any object"}},
			step{Call: loadToolsName, Args: map[string]any{"names": []any{"k8s-3.resources_get"}}}},
		{"call the loaded tool with a plural kind", changes, changesTask, append(argoTools, fleetTool("resources_get", "k8s-3")),
			[]exchange{{"list_application_history", `{"server":"argocd","application_name":""}`, "REJECTED"}, {"list_applications", `{"server":"argocd"}`, apps},
				{"list_application_history", `{"server":"argocd","application_name":"payments-api-k8s-3"}`, `{"history": []}`},
				{searchToolsName, `{"query":"x"}`, "- resources_get [kubernetes; servers k8s-1, k8s-3; not loaded]: any object"},
				{loadToolsName, `{"names":["k8s-3.resources_get"]}`, "Loaded: k8s-3.resources_get"}},
			step{Call: "resources_get", Args: map[string]any{"server": "k8s-3", "apiVersion": "apps/v1", "kind": "deployments", "name": "payments-api", "namespace": "payments"}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := decide(t, conversation(tc.system, tc.task, tc.ex...), tc.tools)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("decision (-want +got):\n%s", diff)
			}
		})
	}
}

// TestToolChoiceNone: told not to call tools, the planner answers from
// what it has.
func TestToolChoiceNone(t *testing.T) {
	tools := []*schema.ToolInfo{fleetTool("pods_list_in_namespace", "k8s-3")}
	got := decide(t, conversation("Your servers: k8s-3 (kubernetes). x", "namespace payments"), tools, model.WithToolChoice(schema.ToolChoiceForbidden))
	if diff := cmp.Diff(step{Answer: "Found nothing relevant with the tools available."}, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestBoundTools: tools bound with WithTools count when no per-call tools
// are passed, and per-call tools win over them.
func TestBoundTools(t *testing.T) {
	msgs := conversation("Servers by kind:\n"+overview, "Payments fail.")
	bound, err := New().WithTools([]*schema.ToolInfo{metaTool(SpawnToolName)})
	if err != nil {
		t.Fatal(err)
	}
	m, err := bound.Generate(context.Background(), msgs)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.ToolCalls) != 1 || m.ToolCalls[0].Function.Name != SpawnToolName {
		t.Errorf("bound spawnSubagents: got %+v, want a spawnSubagents call", m)
	}
	m, err = bound.Generate(context.Background(), msgs, model.WithTools([]*schema.ToolInfo{}))
	if err != nil {
		t.Fatal(err)
	}
	if len(m.ToolCalls) != 0 {
		t.Errorf("per-call empty tools: got calls %+v, want an answer", m.ToolCalls)
	}
}

func TestIsCallbacksEnabled(t *testing.T) {
	if New().IsCallbacksEnabled() {
		t.Error("the planner fires no callbacks; it must let eino inject them")
	}
}
