package fleet

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mcpfleet/mcpfleet/config"
	"github.com/mcpfleet/mcpfleet/internal/tokens"
)

// check is one call and what its text must (and must not) contain.
type check struct {
	name    string
	in      Instance
	tool    string
	args    map[string]any
	want    []string
	notWant []string
	isError bool
}

// TestIncidentFacts calls the investigation tools of each kind in-process
// and checks that the story comes back, and that identity matters: the
// same call on a sibling instance tells a different (healthy) story.
func TestIncidentFacts(t *testing.T) {
	k8s := func(n string) Instance { return Instance{Kind: "kubernetes", Name: n} }
	gla := Instance{Kind: "gitlab", Name: "gitlab-a", ReadOnly: true}
	glb := Instance{Kind: "gitlab", Name: "gitlab-b", ReadOnly: true}
	promB, promA := Instance{Kind: "prometheus", Name: "prometheus-b"}, Instance{Kind: "prometheus", Name: "prometheus-a"}
	osA, osB := Instance{Kind: "opensearch", Name: "opensearch-a"}, Instance{Kind: "opensearch", Name: "opensearch-b"}
	tr := Instance{Kind: "tracing", Name: "tracing"}
	ratio := `sum(rate(http_requests_total{service="payments-api",code=~"5.."}[5m])) / sum(rate(http_requests_total{service="payments-api"}[5m]))`
	p99 := `histogram_quantile(0.99, sum by (le) (rate(http_request_duration_seconds_bucket{service="payments-api"}[5m])))`
	errQuery := `{"query":{"bool":{"filter":[{"term":{"level":"ERROR"}},{"range":{"@timestamp":{"gte":"2026-11-30T02:15:00Z"}}}]}},"aggs":{"ex":{"terms":{"field":"exception.class"}}}}`
	cases := []check{
		{name: "k8s-3 payments crashloop", in: k8s("k8s-3"), tool: "pods_list_in_namespace", args: map[string]any{"namespace": "payments"},
			want: []string{"payments-api-7f9c6d-xk2lp", "payments-api-7f9c6d-q8r4t", "payments-api-7f9c6d-m2v9n", "CrashLoopBackOff", "14", "12", "15"}},
		{name: "k8s-1 payments healthy", in: k8s("k8s-1"), tool: "pods_list_in_namespace", args: map[string]any{"namespace": "payments"},
			want: []string{"payments-api-", "Running"}, notWant: []string{"CrashLoopBackOff", "7f9c6d"}},
		{name: "k8s-3 pods_list label selector", in: k8s("k8s-3"), tool: "pods_list", args: map[string]any{"labelSelector": "app=payments-api"},
			want: []string{"CrashLoopBackOff"}, notWant: []string{"checkout-web"}},
		{name: "unknown namespace lists nothing", in: k8s("k8s-3"), tool: "pods_list_in_namespace", args: map[string]any{"namespace": "nope"},
			want: []string{"No pods found in namespace nope"}},
		{name: "pods_get crashing pod", in: k8s("k8s-3"), tool: "pods_get", args: map[string]any{"name": "payments-api-7f9c6d-xk2lp", "namespace": "payments"},
			want: []string{"CrashLoopBackOff", "restartCount: 14", badImage}},
		{name: "pods_get unknown namespace is an error", in: k8s("k8s-3"), tool: "pods_get", args: map[string]any{"name": "payments-api-7f9c6d-xk2lp", "namespace": "nope"},
			want: []string{"nope", "not found"}, isError: true},
		{name: "pods_log tail has the pool error", in: k8s("k8s-3"), tool: "pods_log", args: map[string]any{"name": "payments-api-7f9c6d-m2v9n", "namespace": "payments", "tail": 100},
			want: []string{hikariTimeout, poolExhausted}},
		{name: "events show back-off and probes", in: k8s("k8s-3"), tool: "events_list", args: map[string]any{"namespace": "payments"},
			want: []string{"Back-off restarting failed container", "Liveness probe failed"}},
		{name: "healthy cluster has no back-off", in: k8s("k8s-2"), tool: "events_list", args: map[string]any{"namespace": "payments"},
			want: []string{"No events found"}},
		{name: "deployment revision 37 on k8s-3", in: k8s("k8s-3"), tool: "resources_get", args: map[string]any{"apiVersion": "apps/v1", "kind": "Deployment", "name": "payments-api", "namespace": "payments"},
			want: []string{`revision: "37"`, badImage}},
		{name: "deployment revision 36 on k8s-4", in: k8s("k8s-4"), tool: "resources_get", args: map[string]any{"apiVersion": "apps/v1", "kind": "Deployment", "name": "payments-api", "namespace": "payments"},
			want: []string{`revision: "36"`, goodImage}, notWant: []string{badCommit}},
		{name: "deployments list", in: k8s("k8s-3"), tool: "resources_list", args: map[string]any{"apiVersion": "apps/v1", "kind": "Deployment", "namespace": "payments"},
			want: []string{"payments-api", "0/3", "37"}},

		{name: "MR 482 mentions maxPoolSize", in: gla, tool: "get_merge_request", args: map[string]any{"project_id": payProject, "merge_request_iid": "482"},
			want: []string{"maxPoolSize", badMRTitle, badMRAuthor, tMerge, badCommitLong, "9911"}},
		{name: "merged MRs since the day before", in: gla, tool: "list_merge_requests", args: map[string]any{"project_id": "platform%2Fpayments-api", "state": "merged", "updated_after": "2026-11-29T00:00:00Z"},
			want: []string{"482"}, notWant: []string{`"iid": 481`}},
		{name: "MR diff", in: gla, tool: "get_merge_request_diffs", args: map[string]any{"project_id": payProjectID, "merge_request_iid": badMR},
			want: []string{configFile, "-    maxPoolSize: 50", "+    maxPoolSize: 10"}},
		{name: "db.yaml before the merge", in: gla, tool: "get_file_contents", args: map[string]any{"project_id": payProject, "file_path": configFile, "ref": goodCommit},
			want: []string{"maxPoolSize: 50"}},
		{name: "db.yaml on main", in: gla, tool: "get_file_contents", args: map[string]any{"project_id": payProject, "file_path": configFile},
			want: []string{"maxPoolSize: 10"}},
		{name: "deploy job on the merge commit", in: gla, tool: "list_commit_statuses", args: map[string]any{"project_id": payProject, "sha": badCommit},
			want: []string{"deploy-k8s-3", "9911", tDeploy}},
		{name: "commits", in: gla, tool: "list_commits", args: map[string]any{"project_id": payProject, "since": "2026-11-29T00:00:00Z"},
			want: []string{badCommit, "!482"}},
		{name: "gitlab-b does not know the project", in: glb, tool: "get_merge_request", args: map[string]any{"project_id": payProject, "merge_request_iid": "482"},
			want: []string{"404"}, isError: true},
		{name: "gitlab-b merge requests are noise", in: glb, tool: "list_merge_requests", args: map[string]any{"search": "pool"},
			want: []string{"No merge requests found"}},

		{name: "prometheus-b 5xx ratio now", in: promB, tool: "execute_query", args: map[string]any{"query": ratio},
			want: []string{`"0.3`, "k8s-3"}},
		{name: "prometheus-b p99 jumps at 02:15", in: promB, tool: "execute_range_query", args: map[string]any{"query": p99, "start": "2026-11-30T02:10:00Z", "end": "2026-11-30T02:20:00Z", "step": "5m"},
			want: []string{`[ 1796004600, "0.1`, `[ 1796004900, "4.`}},
		{name: "prometheus-a is flat", in: promA, tool: "execute_query", args: map[string]any{"query": ratio},
			want: []string{`"0.002"`, "k8s-1"}, notWant: []string{"k8s-3"}},
		{name: "bad range step", in: promB, tool: "execute_range_query", args: map[string]any{"query": p99, "start": "2026-11-30T02:10:00Z", "end": "2026-11-30T02:20:00Z", "step": "soon"},
			want: []string{"step"}, isError: true},

		{name: "opensearch-a errors since onset", in: osA, tool: "SearchIndexTool", args: map[string]any{"index": logsIndexPattern, "query_dsl": errQuery, "size": 5},
			want: []string{`"value": 1843`, "pool exhausted", "HikariPool$PoolInitializationException"}},
		{name: "opensearch-a count", in: osA, tool: "CountTool", args: map[string]any{"index": logsIndexPattern, "body": map[string]any{"query": map[string]any{"match": map[string]any{"message": "pool exhausted"}}}},
			want: []string{`"count"`}},
		{name: "opensearch-b has no payments logs", in: osB, tool: "SearchIndexTool", args: map[string]any{"index": logsIndexPattern, "query_dsl": errQuery},
			want: []string{`"value": 0`}},
		{name: "opensearch unknown concrete index", in: osB, tool: "SearchIndexTool", args: map[string]any{"index": "nope", "query_dsl": "{}"},
			want: []string{"index_not_found_exception"}, isError: true},

		{name: "slow traces", in: tr, tool: "search_traces", args: map[string]any{"service_name": payService, "span_name": slowOperation, "duration_min": "10s"},
			want: []string{slowSpan, "298"}},
		{name: "unknown trace", in: tr, tool: "get_trace_topology", args: map[string]any{"trace_id": "00000000000000000000000000000bad"},
			want: []string{"not found"}, isError: true},
	}
	runChecks(t, cases)
}

// TestResponderFacts calls the tools of the responders' side of the
// incident (tickets, runbooks, dashboards, chat, alerts, status page, pages
// and deploys) and checks that each answers with the incident's facts.
func TestResponderFacts(t *testing.T) {
	in := func(kind string) Instance { return Instance{Kind: kind, Name: kind} }
	jira, wiki, grafana, slack := in("jira"), in("wiki"), in("grafana"), in("slack")
	alertmanager, statuspage, pagerduty, argocd := in("alertmanager"), in("statuspage"), in("pagerduty"), in("argocd")
	runChecks(t, []check{
		{name: "jira search by text", in: jira, tool: "jira_search", args: map[string]any{"jql": `text ~ "payments" AND resolution = Unresolved ORDER BY created DESC`},
			want: []string{"INC-2041", "Payments API 5xx spike in prod (k8s-3)", "In Progress"}},
		{name: "jira search by key", in: jira, tool: "jira_search", args: map[string]any{"jql": "key = INC-2041"},
			want: []string{"INC-2041", "a.smith"}},
		{name: "jira search no match", in: jira, tool: "jira_search", args: map[string]any{"jql": `text ~ "kafka lag"`},
			want: []string{"No issues found", "kafka lag"}},
		{name: "jira get issue", in: jira, tool: "jira_get_issue", args: map[string]any{"issue_key": "INC-2041"},
			want: []string{"In Progress", "a.smith", "2026-11-30T02:21:00Z", "!482", "PaymentsAPIHigh5xxRate"}},
		{name: "jira get unknown issue", in: jira, tool: "jira_get_issue", args: map[string]any{"issue_key": "INC-9999"},
			want: []string{"INC-9999"}, isError: true},
		{name: "jira transition bad id", in: jira, tool: "jira_transition_issue", args: map[string]any{"issue_key": "INC-2041", "transition_id": "999"},
			want: []string{"999"}, isError: true},
		{name: "jira add comment", in: jira, tool: "jira_add_comment", args: map[string]any{"issue_key": "INC-2041", "body": "rolled back"},
			want: []string{"Comment", "INC-2041"}},
		{name: "jira fallback write", in: jira, tool: "jira_add_watcher", args: map[string]any{"issue_key": "INC-2041", "user_identifier": "m.lee"},
			want: []string{"done", "INC-2041"}},
		{name: "wiki search", in: wiki, tool: "confluence_search", args: map[string]any{"query": "payments-api runbook"},
			want: []string{"payments-api runbook", runbookID}},
		{name: "wiki search cql", in: wiki, tool: "confluence_search", args: map[string]any{"query": `text ~ "connection pool" AND type = page`},
			want: []string{"payments-api runbook"}},
		{name: "wiki search no match", in: wiki, tool: "confluence_search", args: map[string]any{"query": "quarterly budget"},
			want: []string{"No Confluence content", "quarterly budget"}},
		{name: "wiki get page by title", in: wiki, tool: "confluence_get_page", args: map[string]any{"title": "payments-api runbook", "space_key": "PAY"},
			want: []string{"maxPoolSize must stay >= 40", "kubectl rollout undo deployment/payments-api -n payments", "Revert the offending merge request"}},
		{name: "wiki get page by id", in: wiki, tool: "confluence_get_page", args: map[string]any{"page_id": runbookID},
			want: []string{">= 40"}},
		{name: "wiki get unknown page", in: wiki, tool: "confluence_get_page", args: map[string]any{"page_id": "1"},
			want: []string{"No Confluence page"}, isError: true},
		{name: "grafana search", in: grafana, tool: "search_dashboards", args: map[string]any{"query": "payments"},
			want: []string{"payments-overview", "Payments API overview"}},
		{name: "grafana search no match", in: grafana, tool: "search_dashboards", args: map[string]any{"query": "kafka"},
			want: []string{"No dashboards", "kafka"}},
		{name: "grafana dashboard", in: grafana, tool: "get_dashboard_by_uid", args: map[string]any{"uid": "payments-overview"},
			want: []string{"5xx rate", "p99 latency", "http_request_duration_seconds_bucket"}},
		{name: "grafana unknown dashboard", in: grafana, tool: "get_dashboard_by_uid", args: map[string]any{"uid": "nope"},
			want: []string{"nope"}, isError: true},
		{name: "grafana summary", in: grafana, tool: "get_dashboard_summary", args: map[string]any{"uid": "payments-overview"},
			want: []string{"02:15Z", "deploy 9f3c2e1"}},
		{name: "grafana panel queries", in: grafana, tool: "get_dashboard_panel_queries", args: map[string]any{"uid": "payments-overview", "panelId": 1},
			want: []string{`cluster=\"k8s-3\"`, `code=~\"5..\"`, "prometheus-b"}},
		{name: "grafana annotations", in: grafana, tool: "get_annotations", args: map[string]any{"dashboardUid": "payments-overview", "tags": []any{"deploy"}},
			want: []string{"deploy 9f3c2e1", "2026-11-30T02:14:00Z"}},
		{name: "grafana 5xx on prometheus-b", in: grafana, tool: "query_prometheus", args: map[string]any{"datasourceUid": "prometheus-b", "endTime": "now", "expr": `sum(rate(http_requests_total{service="payments-api",code=~"5.."}[5m])) / sum(rate(http_requests_total{service="payments-api"}[5m]))`},
			want: []string{"0.002", "0.38", "k8s-3"}},
		{name: "grafana p99 histogram", in: grafana, tool: "query_prometheus_histogram", args: map[string]any{"datasourceUid": "prometheus-b", "metric": "http_request_duration_seconds", "percentile": 99, "labels": `service="payments-api"`},
			want: []string{"0.18", "4.2"}},
		{name: "grafana unknown datasource", in: grafana, tool: "query_prometheus", args: map[string]any{"datasourceUid": "nope", "expr": "up", "endTime": "now"},
			want: []string{"nope"}, isError: true},
		{name: "grafana loki", in: grafana, tool: "query_loki_logs", args: map[string]any{"datasourceUid": "loki-prod", "logql": `{namespace="payments"} |= "ERROR"`},
			want: []string{"HikariPool-1", "pool exhausted"}},
		{name: "grafana fallback read", in: grafana, tool: "list_incidents", args: map[string]any{"limit": 5},
			want: []string{"no results"}},
		{name: "slack history by name", in: slack, tool: "conversations_history", args: map[string]any{"channel_id": "#inc-payments"},
			want: []string{"a.smith", "seeing 5xx on payments since ~02:15", "j.doe", "I merged !482 around 02:10, could be related?"}},
		{name: "slack history by id", in: slack, tool: "conversations_history", args: map[string]any{"channel_id": slackIncChanID},
			want: []string{"!482"}},
		{name: "slack unknown channel", in: slack, tool: "conversations_history", args: map[string]any{"channel_id": "#nope"},
			want: []string{"channel_not_found"}, isError: true},
		{name: "slack channels", in: slack, tool: "channels_list", args: map[string]any{"channel_types": "public_channel"},
			want: []string{"#inc-payments", slackIncChanID}},
		{name: "slack search", in: slack, tool: "conversations_search_messages", args: map[string]any{"search_query": "merged", "filter_in_channel": "#inc-payments"},
			want: []string{"!482"}},
		{name: "slack search no match", in: slack, tool: "conversations_search_messages", args: map[string]any{"search_query": "kafka"},
			want: []string{"No messages", "kafka"}},
		{name: "alertmanager alerts", in: alertmanager, tool: "list_alerts", args: map[string]any{},
			want: []string{"PaymentsAPIHigh5xxRate", "critical", "k8s-3", "2026-11-30T02:17:00Z", "PaymentsAPIPodCrashLooping", "2026-11-30T02:19:00Z"}},
		{name: "alertmanager filtered", in: alertmanager, tool: "list_alerts", args: map[string]any{"filter": `severity="critical"`},
			want: []string{"PaymentsAPIHigh5xxRate", `"namespace": "payments"`}},
		{name: "alertmanager filter no match", in: alertmanager, tool: "list_alerts", args: map[string]any{"filter": `cluster="k8s-1"`},
			want: []string{"No alerts", "k8s-1"}},
		{name: "alertmanager get alert", in: alertmanager, tool: "get_alert", args: map[string]any{"alertname": "PaymentsAPIPodCrashLooping"},
			want: []string{"CrashLoopBackOff"}},
		{name: "alertmanager create silence", in: alertmanager, tool: "create_silence", args: map[string]any{"matchers": []any{map[string]any{"name": "alertname", "value": "PaymentsAPIHigh5xxRate"}}, "startsAt": "2026-11-30T03:05:00Z", "endsAt": "2026-11-30T04:05:00Z", "createdBy": "bot", "comment": "INC-2041"},
			want: []string{"Silence created"}},
		{name: "pagerduty incidents", in: pagerduty, tool: "list_incidents", args: map[string]any{},
			want: []string{"P7Q2R1X", "Payments API", "triggered", "2026-11-30T02:17:00Z", "a.smith"}},
		{name: "pagerduty get incident", in: pagerduty, tool: "get_incident", args: map[string]any{"incident_id": "P7Q2R1X"},
			want: []string{"PaymentsAPIHigh5xxRate"}},
		{name: "pagerduty oncalls", in: pagerduty, tool: "list_oncalls", args: map[string]any{"escalation_policy_ids": []any{pdPolicyID}},
			want: []string{"a.smith", `"escalation_level": 1`}},
		{name: "pagerduty unknown incident", in: pagerduty, tool: "get_incident", args: map[string]any{"incident_id": "PNOPE"},
			want: []string{"PNOPE"}, isError: true},
		{name: "pagerduty ack", in: pagerduty, tool: "acknowledge_incident", args: map[string]any{"incident_id": "P7Q2R1X"},
			want: []string{"acknowledged"}},
		{name: "statuspage incidents", in: statuspage, tool: "list_incidents", args: map[string]any{"status": "unresolved"},
			want: []string{"Degraded card payments", "investigating", "2026-11-30T02:25:00Z"}},
		{name: "statuspage no match", in: statuspage, tool: "list_incidents", args: map[string]any{"q": "email"},
			want: []string{"No status page incidents"}},
		{name: "statuspage bad status", in: statuspage, tool: "update_incident", args: map[string]any{"incident_id": spIncidentID, "status": "fixed"},
			want: []string{"status must be"}, isError: true},
		{name: "argocd application", in: argocd, tool: "get_application", args: map[string]any{"application_name": "payments-api-k8s-3"},
			want: []string{"9f3c2e1", "Degraded", "2026-11-30T02:14:00Z"}},
		{name: "argocd healthy neighbour", in: argocd, tool: "get_application", args: map[string]any{"application_name": "payments-api-k8s-1"},
			want: []string{"4b1d7a0", "Healthy"}},
		{name: "argocd history", in: argocd, tool: "list_application_history", args: map[string]any{"application_name": "payments-api-k8s-3"},
			want: []string{"9f3c2e1", "4b1d7a0", "#9911"}},
		{name: "argocd manifests", in: argocd, tool: "get_application_manifests", args: map[string]any{"application_name": "payments-api-k8s-3"},
			want: []string{"maxPoolSize: 10", "payments-api:9f3c2e1"}},
		{name: "argocd tree", in: argocd, tool: "get_application_resource_tree", args: map[string]any{"application_name": "payments-api-k8s-3"},
			want: []string{"payments-api-7f9c6d-xk2lp", "CrashLoopBackOff (restarts 14)"}},
		{name: "argocd events", in: argocd, tool: "get_application_events", args: map[string]any{"application_name": "payments-api-k8s-3"},
			want: []string{"Back-off restarting failed container", "Liveness probe failed"}},
		{name: "argocd unknown app", in: argocd, tool: "get_application", args: map[string]any{"application_name": "nope"},
			want: []string{"nope"}, isError: true},
		{name: "argocd rollback", in: argocd, tool: "rollback_application", args: map[string]any{"application_name": "payments-api-k8s-3", "id": 36},
			want: []string{"4b1d7a0"}},
	})
}

// runChecks makes each call of cases in-process, one client per instance,
// and checks its text.
func runChecks(t *testing.T, cases []check) {
	t.Helper()
	clients := map[Instance]*client.Client{}
	for _, c := range cases {
		if _, ok := clients[c.in]; !ok {
			clients[c.in] = startInProcess(t, c.in)
		}
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, isErr := call(t, clients[c.in], c.tool, c.args)
			if isErr != c.isError {
				t.Errorf("IsError = %v, want %v; text:\n%s", isErr, c.isError, got)
			}
			flat := squash(got) // JSON indentation must not matter
			for _, w := range c.want {
				if !strings.Contains(got, w) && !strings.Contains(flat, squash(w)) {
					t.Errorf("missing %q in:\n%s", w, clip(got))
				}
			}
			for _, w := range c.notWant {
				if strings.Contains(got, w) {
					t.Errorf("unexpected %q in:\n%s", w, clip(got))
				}
			}
		})
	}
}

func squash(s string) string { return strings.Join(strings.Fields(s), " ") }

func clip(s string) string {
	if len(s) > 3000 {
		return s[:3000] + "…"
	}
	return s
}

// TestCrashLogIsLong pins the property the demo relies on: an untailed
// pods_log of a crashing pod is too big to paste into a prompt.
func TestCrashLogIsLong(t *testing.T) {
	c := startInProcess(t, Instance{Kind: "kubernetes", Name: "k8s-3"})
	got, _ := call(t, c, "pods_log", map[string]any{"name": "payments-api-7f9c6d-q8r4t", "namespace": "payments"})
	lines, toks := strings.Count(got, "\n"), tokens.Count(got)
	if lines < 2500 || toks <= 10000 {
		t.Errorf("crash log: %d lines, %d tokens; want ≥ 2500 lines and > 10000 tokens", lines, toks)
	}
	for _, w := range []string{hikariTimeout, poolExhausted} {
		if n := strings.Count(got, w); n < 10 {
			t.Errorf("%q appears %d times, want it throughout the log", w, n)
		}
	}
	healthy := startInProcess(t, Instance{Kind: "kubernetes", Name: "k8s-1"})
	pods, _ := call(t, healthy, "pods_list_in_namespace", map[string]any{"namespace": "payments"})
	name := strings.Fields(strings.Split(pods, "\n")[1])[0]
	got, _ = call(t, healthy, "pods_log", map[string]any{"name": name, "namespace": "payments"})
	if strings.Contains(got, "HikariPool-1 - Connection is not available") || strings.Count(got, "\n") > 500 {
		t.Errorf("healthy pod %s log should be short and clean; got %d lines", name, strings.Count(got, "\n"))
	}
	t.Logf("crash log: %d lines, %d o200k tokens", lines, toks)
}

// TestEveryKindAnswersInProcess starts one server of every kind, lists its
// tools and calls each with empty arguments: every call must return a
// result (possibly IsError), never a protocol error or a panic.
func TestEveryKindAnswersInProcess(t *testing.T) {
	for _, k := range Kinds() {
		t.Run(k, func(t *testing.T) {
			in := Instance{Kind: k, Name: map[string]string{"kubernetes": "k8s-3", "gitlab": "gitlab-a-write", "prometheus": "prometheus-b", "opensearch": "opensearch-a"}[k]}
			if in.Name == "" {
				in.Name = k
			}
			c := startInProcess(t, in)
			res, err := c.ListTools(t.Context(), mcp.ListToolsRequest{})
			if err != nil {
				t.Fatal(err)
			}
			want, _ := Tools(in)
			if len(res.Tools) != len(want) {
				t.Errorf("listed %d tools, want %d", len(res.Tools), len(want))
			}
			for _, tl := range res.Tools {
				call(t, c, tl.Name, map[string]any{})
			}
		})
	}
}

// TestFleetYAML loads the example's fleet file with the real config loader
// and checks it against the simulation: 23 servers of known kinds, and every
// tool named in kind_settings exists in that kind.
func TestFleetYAML(t *testing.T) {
	t.Setenv("MCPFLEET_FLEET_BIN", "")
	f, err := config.Load(filepath.Join("..", "fleet.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Servers) != 23 {
		t.Errorf("fleet.yaml has %d servers, want 23", len(f.Servers))
	}
	kinds := map[string]bool{}
	for _, k := range Kinds() {
		kinds[k] = true
	}
	readOnly := map[string]bool{}
	for _, s := range f.Servers {
		if !kinds[s.Kind] {
			t.Errorf("server %s: unknown kind %q", s.Name, s.Kind)
		}
		if !strings.HasSuffix(s.Command, "fleetserver.sh") {
			t.Errorf("server %s: command %q, want the launcher when MCPFLEET_FLEET_BIN is empty", s.Name, s.Command)
		}
		if want := []string{"--kind", s.Kind, "--name", s.Name}; !slices.Equal(s.Args[:4], want) {
			t.Errorf("server %s: args %v, want prefix %v", s.Name, s.Args, want)
		}
		readOnly[s.Name] = slices.Contains(s.Args, "--readonly")
	}
	if diff := cmp.Diff(map[string]bool{"gitlab-a": true, "gitlab-b": true}, filterTrue(readOnly)); diff != "" {
		t.Errorf("read-only servers (-want +got):\n%s", diff)
	}
	for kind, ks := range f.KindSettings {
		tools, err := Tools(Instance{Kind: kind})
		if err != nil {
			t.Errorf("kind_settings.%s: %v", kind, err)
			continue
		}
		have := map[string]bool{}
		for _, tl := range tools {
			have[tl.Name] = true
		}
		var named []string
		named = append(named, ks.CoreTools...)
		for _, m := range []map[string]string{ks.CatalogLines, ks.AvoidWhen} {
			for n := range m {
				named = append(named, n)
			}
		}
		for n := range ks.Aliases {
			named = append(named, n)
		}
		for n := range ks.ToolScopes {
			named = append(named, n)
		}
		for _, n := range named {
			if !have[n] {
				t.Errorf("kind_settings.%s names tool %q, which the kind does not have", kind, n)
			}
		}
	}
}

func filterTrue(m map[string]bool) map[string]bool {
	out := map[string]bool{}
	for k, v := range m {
		if v {
			out[k] = true
		}
	}
	return out
}

// TestFleetserverOverStdio builds the real binary and talks MCP to it over
// stdio with mcp-go's client, as the example's fleet file does.
func TestFleetserverOverStdio(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a binary")
	}
	bin := filepath.Join(t.TempDir(), "fleetserver")
	if runtime.GOOS == "windows" {
		bin += ".exe"
	}
	build := exec.CommandContext(t.Context(), "go", "build", "-o", bin, "./cmd/fleetserver")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	for _, ro := range []bool{true, false} {
		t.Run(fmt.Sprintf("readonly=%v", ro), func(t *testing.T) {
			args := []string{"--kind", "gitlab", "--name", "gitlab-a"}
			if ro {
				args = append(args, "--readonly")
			}
			c, err := client.NewStdioMCPClient(bin, nil, args...)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { c.Close() })
			initialize(t, c)
			res, err := c.ListTools(t.Context(), mcp.ListToolsRequest{})
			if err != nil {
				t.Fatal(err)
			}
			want := 116
			if ro {
				want = 63
			}
			if len(res.Tools) != want {
				t.Errorf("listed %d tools over stdio, want %d", len(res.Tools), want)
			}
			got, isErr := call(t, c, "get_merge_request", map[string]any{"project_id": payProject, "merge_request_iid": "482"})
			if isErr || !strings.Contains(got, "maxPoolSize") {
				t.Errorf("get_merge_request over stdio: isError=%v\n%s", isErr, clip(got))
			}
		})
	}
	t.Run("bad flags", func(t *testing.T) {
		out, err := exec.CommandContext(t.Context(), bin, "--kind", "nope").CombinedOutput()
		if err == nil || !strings.Contains(string(out), "unknown kind") {
			t.Errorf("fleetserver --kind nope: err=%v out=%s", err, out)
		}
	})
	_ = os.Remove(bin)
}
