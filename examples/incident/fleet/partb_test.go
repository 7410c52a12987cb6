package fleet

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpfleet/mcpfleet/internal/fixtures"
	"github.com/mcpfleet/mcpfleet/internal/tokens"
)

// partBKinds are the kinds this file covers.
var partBKinds = []string{"jira", "wiki", "grafana", "slack", "alertmanager", "statuspage", "pagerduty", "argocd"}

// TestPartBInvestigation calls the tools an investigation needs and checks
// that each answers with the incident's facts.
func TestPartBInvestigation(t *testing.T) {
	tests := []struct {
		name    string
		kind    string
		tool    string
		args    map[string]any
		want    []string // substrings the answer must contain
		wantErr bool
	}{
		{"jira search by text", "jira", "jira_search", map[string]any{"jql": `text ~ "payments" AND resolution = Unresolved ORDER BY created DESC`},
			[]string{"INC-2041", "Payments API 5xx spike in prod (k8s-3)", "In Progress"}, false},
		{"jira search by key", "jira", "jira_search", map[string]any{"jql": "key = INC-2041"}, []string{"INC-2041", "a.smith"}, false},
		{"jira search no match", "jira", "jira_search", map[string]any{"jql": `text ~ "kafka lag"`}, []string{"No issues found", "kafka lag"}, false},
		{"jira get issue", "jira", "jira_get_issue", map[string]any{"issue_key": "INC-2041"},
			[]string{"In Progress", "a.smith", "2026-11-30T02:21:00Z", "!482", "PaymentsAPIHigh5xxRate"}, false},
		{"jira get unknown issue", "jira", "jira_get_issue", map[string]any{"issue_key": "INC-9999"}, []string{"INC-9999"}, true},
		{"jira transition bad id", "jira", "jira_transition_issue", map[string]any{"issue_key": "INC-2041", "transition_id": "999"}, []string{"999"}, true},
		{"jira add comment", "jira", "jira_add_comment", map[string]any{"issue_key": "INC-2041", "body": "rolled back"}, []string{"Comment", "INC-2041"}, false},
		{"jira fallback write", "jira", "jira_add_watcher", map[string]any{"issue_key": "INC-2041", "user_identifier": "m.lee"}, []string{"done", "INC-2041"}, false},

		{"wiki search", "wiki", "confluence_search", map[string]any{"query": "payments-api runbook"}, []string{"payments-api runbook", runbookID}, false},
		{"wiki search cql", "wiki", "confluence_search", map[string]any{"query": `text ~ "connection pool" AND type = page`}, []string{"payments-api runbook"}, false},
		{"wiki search no match", "wiki", "confluence_search", map[string]any{"query": "quarterly budget"}, []string{"No Confluence content", "quarterly budget"}, false},
		{"wiki get page by title", "wiki", "confluence_get_page", map[string]any{"title": "payments-api runbook", "space_key": "PAY"},
			[]string{"maxPoolSize must stay >= 40", "kubectl rollout undo deployment/payments-api -n payments", "Revert the offending merge request"}, false},
		{"wiki get page by id", "wiki", "confluence_get_page", map[string]any{"page_id": runbookID}, []string{">= 40"}, false},
		{"wiki get unknown page", "wiki", "confluence_get_page", map[string]any{"page_id": "1"}, []string{"No Confluence page"}, true},

		{"grafana search", "grafana", "search_dashboards", map[string]any{"query": "payments"}, []string{"payments-overview", "Payments API overview"}, false},
		{"grafana search no match", "grafana", "search_dashboards", map[string]any{"query": "kafka"}, []string{"No dashboards", "kafka"}, false},
		{"grafana dashboard", "grafana", "get_dashboard_by_uid", map[string]any{"uid": "payments-overview"}, []string{"5xx rate", "p99 latency", "http_request_duration_seconds_bucket"}, false},
		{"grafana unknown dashboard", "grafana", "get_dashboard_by_uid", map[string]any{"uid": "nope"}, []string{"nope"}, true},
		{"grafana summary", "grafana", "get_dashboard_summary", map[string]any{"uid": "payments-overview"}, []string{"02:15Z", "deploy 9f3c2e1"}, false},
		{"grafana panel queries", "grafana", "get_dashboard_panel_queries", map[string]any{"uid": "payments-overview", "panelId": 1}, []string{`cluster=\"k8s-3\"`, `code=~\"5..\"`, "prometheus-b"}, false},
		{"grafana annotations", "grafana", "get_annotations", map[string]any{"dashboardUid": "payments-overview", "tags": []any{"deploy"}}, []string{"deploy 9f3c2e1", "2026-11-30T02:14:00Z"}, false},
		{"grafana 5xx on prometheus-b", "grafana", "query_prometheus", map[string]any{"datasourceUid": "prometheus-b", "endTime": "now",
			"expr": `sum(rate(http_requests_total{service="payments-api",code=~"5.."}[5m])) / sum(rate(http_requests_total{service="payments-api"}[5m]))`},
			[]string{"0.002", "0.38", "k8s-3"}, false},
		{"grafana p99 histogram", "grafana", "query_prometheus_histogram", map[string]any{"datasourceUid": "prometheus-b", "metric": "http_request_duration_seconds", "percentile": 99, "labels": `service="payments-api"`},
			[]string{"0.18", "4.2"}, false},
		{"grafana unknown datasource", "grafana", "query_prometheus", map[string]any{"datasourceUid": "nope", "expr": "up", "endTime": "now"}, []string{"nope"}, true},
		{"grafana loki", "grafana", "query_loki_logs", map[string]any{"datasourceUid": "loki-prod", "logql": `{namespace="payments"} |= "ERROR"`}, []string{"HikariPool-1", "pool exhausted"}, false},
		{"grafana fallback read", "grafana", "list_incidents", map[string]any{"limit": 5}, []string{"no results"}, false},

		{"slack history by name", "slack", "conversations_history", map[string]any{"channel_id": "#inc-payments"},
			[]string{"a.smith", "seeing 5xx on payments since ~02:15", "j.doe", "I merged !482 around 02:10, could be related?"}, false},
		{"slack history by id", "slack", "conversations_history", map[string]any{"channel_id": slackIncChanID}, []string{"!482"}, false},
		{"slack unknown channel", "slack", "conversations_history", map[string]any{"channel_id": "#nope"}, []string{"channel_not_found"}, true},
		{"slack channels", "slack", "channels_list", map[string]any{"channel_types": "public_channel"}, []string{"#inc-payments", slackIncChanID}, false},
		{"slack search", "slack", "conversations_search_messages", map[string]any{"search_query": "merged", "filter_in_channel": "#inc-payments"}, []string{"!482"}, false},
		{"slack search no match", "slack", "conversations_search_messages", map[string]any{"search_query": "kafka"}, []string{"No messages", "kafka"}, false},

		{"alertmanager alerts", "alertmanager", "list_alerts", map[string]any{},
			[]string{"PaymentsAPIHigh5xxRate", "critical", "k8s-3", "2026-11-30T02:17:00Z", "PaymentsAPIPodCrashLooping", "2026-11-30T02:19:00Z"}, false},
		{"alertmanager filtered", "alertmanager", "list_alerts", map[string]any{"filter": `severity="critical"`}, []string{"PaymentsAPIHigh5xxRate", `"namespace": "payments"`}, false},
		{"alertmanager filter no match", "alertmanager", "list_alerts", map[string]any{"filter": `cluster="k8s-1"`}, []string{"No alerts", "k8s-1"}, false},
		{"alertmanager get alert", "alertmanager", "get_alert", map[string]any{"alertname": "PaymentsAPIPodCrashLooping"}, []string{"CrashLoopBackOff"}, false},
		{"alertmanager create silence", "alertmanager", "create_silence", map[string]any{"matchers": []any{map[string]any{"name": "alertname", "value": "PaymentsAPIHigh5xxRate"}},
			"startsAt": "2026-11-30T03:05:00Z", "endsAt": "2026-11-30T04:05:00Z", "createdBy": "bot", "comment": "INC-2041"}, []string{"Silence created"}, false},

		{"pagerduty incidents", "pagerduty", "list_incidents", map[string]any{}, []string{"P7Q2R1X", "Payments API", "triggered", "2026-11-30T02:17:00Z", "a.smith"}, false},
		{"pagerduty get incident", "pagerduty", "get_incident", map[string]any{"incident_id": "P7Q2R1X"}, []string{"PaymentsAPIHigh5xxRate"}, false},
		{"pagerduty oncalls", "pagerduty", "list_oncalls", map[string]any{"escalation_policy_ids": []any{pdPolicyID}}, []string{"a.smith", `"escalation_level": 1`}, false},
		{"pagerduty unknown incident", "pagerduty", "get_incident", map[string]any{"incident_id": "PNOPE"}, []string{"PNOPE"}, true},
		{"pagerduty ack", "pagerduty", "acknowledge_incident", map[string]any{"incident_id": "P7Q2R1X"}, []string{"acknowledged"}, false},

		{"statuspage incidents", "statuspage", "list_incidents", map[string]any{"status": "unresolved"}, []string{"Degraded card payments", "investigating", "2026-11-30T02:25:00Z"}, false},
		{"statuspage no match", "statuspage", "list_incidents", map[string]any{"q": "email"}, []string{"No status page incidents"}, false},
		{"statuspage bad status", "statuspage", "update_incident", map[string]any{"incident_id": spIncidentID, "status": "fixed"}, []string{"status must be"}, true},

		{"argocd application", "argocd", "get_application", map[string]any{"application_name": "payments-api-k8s-3"}, []string{"9f3c2e1", "Degraded", "2026-11-30T02:14:00Z"}, false},
		{"argocd healthy neighbour", "argocd", "get_application", map[string]any{"application_name": "payments-api-k8s-1"}, []string{"4b1d7a0", "Healthy"}, false},
		{"argocd history", "argocd", "list_application_history", map[string]any{"application_name": "payments-api-k8s-3"}, []string{"9f3c2e1", "4b1d7a0", "#9911"}, false},
		{"argocd manifests", "argocd", "get_application_manifests", map[string]any{"application_name": "payments-api-k8s-3"}, []string{"maxPoolSize: 10", "payments-api:9f3c2e1"}, false},
		{"argocd tree", "argocd", "get_application_resource_tree", map[string]any{"application_name": "payments-api-k8s-3"}, []string{"payments-api-7f9c6d-xk2lp", "CrashLoopBackOff (restarts 14)"}, false},
		{"argocd events", "argocd", "get_application_events", map[string]any{"application_name": "payments-api-k8s-3"}, []string{"Back-off restarting failed container", "Liveness probe failed"}, false},
		{"argocd unknown app", "argocd", "get_application", map[string]any{"application_name": "nope"}, []string{"nope"}, true},
		{"argocd rollback", "argocd", "rollback_application", map[string]any{"application_name": "payments-api-k8s-3", "id": 36}, []string{"4b1d7a0"}, false},
	}
	clients := map[string]*client.Client{}
	for _, k := range partBKinds {
		clients[k] = startInProcess(t, Instance{Kind: k, Name: k})
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, isErr := call(t, clients[tt.kind], tt.tool, tt.args)
			if isErr != tt.wantErr {
				t.Errorf("%s IsError = %v, want %v; text: %s", tt.tool, isErr, tt.wantErr, got)
			}
			var missing []string
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					missing = append(missing, w)
				}
			}
			if diff := cmp.Diff([]string(nil), missing); diff != "" {
				t.Errorf("%s answer lacks facts (-want +got):\n%s\nanswer: %s", tt.tool, diff, got)
			}
		})
	}
}

// TestPartBListTools checks that every kind lists, over MCP, exactly the tools
// Tools reports, with explicit hints, and that read-only instances drop the
// write tools.
func TestPartBListTools(t *testing.T) {
	for _, k := range partBKinds {
		t.Run(k, func(t *testing.T) {
			for _, ro := range []bool{false, true} {
				in := Instance{Kind: k, Name: k, ReadOnly: ro}
				want, err := Tools(in)
				if err != nil {
					t.Fatal(err)
				}
				res, err := startInProcess(t, in).ListTools(t.Context(), mcp.ListToolsRequest{})
				if err != nil {
					t.Fatal(err)
				}
				var gotNames, wantNames []string
				for _, tl := range res.Tools {
					gotNames = append(gotNames, tl.Name)
					if tl.Annotations.ReadOnlyHint == nil || tl.Annotations.DestructiveHint == nil {
						t.Errorf("%s: hints not set", tl.Name)
					} else if ro && !*tl.Annotations.ReadOnlyHint {
						t.Errorf("read-only instance lists write tool %s", tl.Name)
					}
				}
				for _, tl := range want {
					wantNames = append(wantNames, tl.Name)
				}
				slices.Sort(gotNames)
				slices.Sort(wantNames)
				if diff := cmp.Diff(wantNames, gotNames); diff != "" {
					t.Errorf("readOnly=%v tool names (-want +got):\n%s", ro, diff)
				}
				if !ro && len(gotNames) == 0 {
					t.Errorf("kind %s has no tools", k)
				}
			}
		})
	}
}

// TestPartBHonestHints pins the hints of tools whose effect is obvious from
// their name: reads are read-only, deletes and rollbacks destructive.
func TestPartBHonestHints(t *testing.T) {
	for _, k := range partBKinds {
		tools, err := Tools(Instance{Kind: k, Name: k})
		if err != nil {
			t.Fatal(err)
		}
		for _, tl := range tools {
			ro, de := *tl.Annotations.ReadOnlyHint, *tl.Annotations.DestructiveHint
			name := strings.TrimPrefix(strings.TrimPrefix(tl.Name, "jira_"), "confluence_")
			switch {
			case strings.HasPrefix(name, "delete_") || strings.HasPrefix(name, "rollback_") || strings.HasPrefix(name, "remove_"):
				if ro || !de {
					t.Errorf("%s/%s: readOnly=%v destructive=%v, want false/true", k, tl.Name, ro, de)
				}
			case strings.HasPrefix(name, "create_") || strings.HasPrefix(name, "update_") || strings.HasPrefix(name, "add_") ||
				strings.HasPrefix(name, "sync_") || strings.HasPrefix(name, "acknowledge_") || strings.HasPrefix(name, "resolve_"):
				if ro {
					t.Errorf("%s/%s is a write tool marked read-only", k, tl.Name)
				}
			case strings.HasPrefix(name, "get_") || strings.HasPrefix(name, "list_") || strings.HasPrefix(name, "search"):
				if !ro || de {
					t.Errorf("%s/%s: readOnly=%v destructive=%v, want true/false", k, tl.Name, ro, de)
				}
			}
		}
	}
}

// TestPartBSchemasAreObjects checks every input schema is a JSON object
// schema whose required names are declared properties.
func TestPartBSchemasAreObjects(t *testing.T) {
	for _, k := range partBKinds {
		tools, err := Tools(Instance{Kind: k, Name: k})
		if err != nil {
			t.Fatal(err)
		}
		for _, tl := range tools {
			var s struct {
				Type       string                     `json:"type"`
				Properties map[string]json.RawMessage `json:"properties"`
				Required   []string                   `json:"required"`
			}
			if err := json.Unmarshal(tl.RawInputSchema, &s); err != nil {
				t.Fatalf("%s: %v", tl.Name, err)
			}
			if s.Type != "object" {
				t.Errorf("%s: schema type %q", tl.Name, s.Type)
			}
			for _, r := range s.Required {
				if _, ok := s.Properties[r]; !ok {
					t.Errorf("%s: required %q is not a property", tl.Name, r)
				}
			}
			if tl.Description == "" {
				t.Errorf("%s: no description", tl.Name)
			}
		}
	}
}

// TestPartBMirrorsFixtures checks the kinds that have a fixture against it:
// every tool and every argument name exists in the real server's schema
// (names are facts), and the o200k size stays within 30% of the real one.
func TestPartBMirrorsFixtures(t *testing.T) {
	tests := []struct {
		fixture string
		in      Instance
	}{
		{"jira", Instance{Kind: "jira"}},
		{"confluence", Instance{Kind: "wiki"}},
		{"grafana", Instance{Kind: "grafana"}},
		{"grafana_readonly", Instance{Kind: "grafana", ReadOnly: true}},
		{"slack", Instance{Kind: "slack"}},
	}
	for _, tt := range tests {
		t.Run(tt.fixture, func(t *testing.T) {
			f := fixtures.MustLoad(t, tt.fixture)
			real := map[string]map[string]bool{}
			for _, tl := range f.Tools {
				var s struct {
					Properties map[string]json.RawMessage `json:"properties"`
				}
				if err := json.Unmarshal(tl.RawInputSchema, &s); err != nil {
					t.Fatal(err)
				}
				real[tl.Name] = map[string]bool{}
				for p := range s.Properties {
					real[tl.Name][p] = true
				}
			}
			ours, err := Tools(tt.in)
			if err != nil {
				t.Fatal(err)
			}
			for _, tl := range ours {
				props, ok := real[tl.Name]
				if !ok {
					t.Errorf("tool %s is not in the %s fixture", tl.Name, tt.fixture)
					continue
				}
				var s struct {
					Properties map[string]json.RawMessage `json:"properties"`
				}
				if err := json.Unmarshal(tl.RawInputSchema, &s); err != nil {
					t.Fatal(err)
				}
				for p := range s.Properties {
					if !props[p] {
						t.Errorf("%s: argument %q is not in the fixture", tl.Name, p)
					}
				}
			}
			gotN, wantN := len(ours), len(f.Tools)
			if gotN*10 < wantN*7 || gotN*10 > wantN*13 {
				t.Errorf("%d tools, fixture has %d (beyond ±30%%)", gotN, wantN)
			}
			gotT, wantT := tokens.MCPTools(ours), tokens.MCPTools(f.Tools)
			t.Logf("%s: %d/%d tools, %d/%d o200k tokens (%.0f%%)", tt.fixture, gotN, wantN, gotT, wantT, 100*float64(gotT)/float64(wantT))
			if gotT*10 < wantT*7 || gotT*10 > wantT*13 {
				t.Errorf("%d o200k tokens, fixture has %d (beyond ±30%%)", gotT, wantT)
			}
		})
	}
}

// TestPartBJQL pins the subset of JQL the simulated Jira understands.
func TestPartBJQL(t *testing.T) {
	tests := []struct {
		jql, projects string
		want          []string
	}{
		{"key = INC-2041", "", []string{"INC-2041"}},
		{`project = INC AND status = "In Progress"`, "", []string{"INC-2041"}},
		{"project = INC AND status != Resolved ORDER BY created DESC", "", []string{"INC-2041"}},
		{"project = INC", "", []string{"INC-2041", "INC-2038"}},
		{"labels = checkout", "", []string{"INC-2038"}},
		{`text ~ "Hikari"`, "", []string{"INC-2041", "PAY-1187"}},
		{`summary ~ "5xx" AND resolution = Unresolved`, "", []string{"INC-2041"}},
		{"order by created DESC", "PAY", []string{"PAY-1187", "PAY-1190"}},
		{`text ~ "kafka"`, "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.jql, func(t *testing.T) {
			var got []string
			for _, is := range jiraMatch(tt.jql, tt.projects) {
				got = append(got, is.Key)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("jiraMatch(%q) keys (-want +got):\n%s", tt.jql, diff)
			}
		})
	}
}

// Example_runbookPoolGuidance reads the payments-api runbook from the
// simulated wiki over in-process MCP, as an investigating agent would.
func Example_runbookPoolGuidance() {
	ctx := context.Background()
	s, err := NewServer(Instance{Kind: "wiki", Name: "wiki"})
	if err != nil {
		panic(err)
	}
	c, err := client.NewInProcessClient(s)
	if err != nil {
		panic(err)
	}
	defer c.Close()
	if err := c.Start(ctx); err != nil {
		panic(err)
	}
	init := mcp.InitializeRequest{}
	init.Params.ProtocolVersion = mcp.LATEST_PROTOCOL_VERSION
	if _, err := c.Initialize(ctx, init); err != nil {
		panic(err)
	}
	req := mcp.CallToolRequest{}
	req.Params.Name = "confluence_get_page"
	req.Params.Arguments = map[string]any{"title": "payments-api runbook", "space_key": "PAY"}
	res, err := c.CallTool(ctx, req)
	if err != nil {
		panic(err)
	}
	var page struct {
		Title   string `json:"title"`
		Content string `json:"content"`
	}
	if err := json.Unmarshal([]byte(res.Content[0].(mcp.TextContent).Text), &page); err != nil {
		panic(err)
	}
	fmt.Println(page.Title)
	for _, line := range strings.Split(page.Content, "\n") {
		if strings.Contains(line, "maxPoolSize must") || strings.Contains(line, "kubectl rollout undo") {
			fmt.Println(strings.TrimSpace(line))
		}
	}
	// Output:
	// payments-api runbook
	// - maxPoolSize must stay >= 40 under prod load. A pod runs up to ~35 concurrent DB calls at peak, and the pool also serves the health checks.
	// 3. fastest: kubectl rollout undo deployment/payments-api -n payments
}
