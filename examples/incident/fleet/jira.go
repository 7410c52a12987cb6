package fleet

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
)

// The jira kind mirrors the Jira half of the public Atlassian MCP server
// (sooperset/mcp-atlassian): the same tool and argument names, descriptions in
// our own words. Its tickets tell the incident from the responders' side:
// INC-2041 is the open incident ticket. The tool table is in
// jira_tools.go.

// jiraKind is the simulated Jira server.
func jiraKind() kindSpec {
	return kindSpec{
		Tools: func() []toolSpec {
			return bind(atlassianDefaults(append(jiraReadTools(), jiraWriteTools()...)), jiraHandlers(), fallbackHandler)
		},
		Default: fallbackHandler("jira", true),
	}
}

// jiraIssue is one ticket of the simulated Jira.
type jiraIssue struct {
	Key, Project, Type, Summary, Status, Priority, Assignee, Reporter, Created, Updated string
	Labels, Components                                                                  []string
	Description                                                                         string
	Comments                                                                            []jiraComment
}

type jiraComment struct {
	ID, Author, Created, Body string
}

// jiraIssues holds the incident ticket and some unrelated noise.
func jiraIssues() []jiraIssue {
	return []jiraIssue{
		{Key: ticketKey, Project: "INC", Type: "Incident", Summary: ticketTitle, Status: "In Progress", Priority: "Highest",
			Assignee: onCall, Reporter: onCall, Created: tTicket, Updated: "2026-11-30T02:31:00Z",
			Labels: []string{"payments", badCluster, "sev1"}, Components: []string{payApp},
			Description: fmt.Sprintf("Alert %s fired at 02:17Z (PagerDuty %s). payments-api in namespace %s on %s returns ~38%% 5xx since about 02:15Z; p99 latency above 4s. "+
				"Pods are in CrashLoopBackOff. Other clusters (k8s-1, k8s-2, k8s-4, k8s-5) look healthy. Dashboard: grafana %s. Status page: %q.",
				alert5xx, pdIncident, payNamespace, badCluster, dashUID, statusTitle),
			Comments: []jiraComment{
				{"10871", onCall, "2026-11-30T02:23:00Z", "payments-api pods on k8s-3 restart every few minutes. Logs full of '" + hikariTimeout + "'."},
				{"10874", badMRAuthor, "2026-11-30T02:26:00Z", "I merged !482 (Lower DB connection pool size to 10) at 02:10; it deployed to k8s-3 at 02:14 with pipeline #9911. Could be related."},
				{"10879", onCall, "2026-11-30T02:31:00Z", "Checking the payments-api runbook on the wiki for pool sizing guidance before deciding on a rollback."},
			}},
		{Key: "INC-2038", Project: "INC", Type: "Incident", Summary: "Checkout latency blip on k8s-1", Status: "Resolved", Priority: "Medium",
			Assignee: "r.kumar", Reporter: "r.kumar", Created: "2026-11-27T09:12:00Z", Updated: "2026-11-27T10:02:00Z",
			Labels: []string{"checkout"}, Components: []string{"checkout-web"},
			Description: "checkout-web p95 rose to 900ms for 12 minutes during a node drain on k8s-1. Resolved by itself."},
		{Key: "PAY-1187", Project: "PAY", Type: "Task", Summary: "Export HikariCP pool metrics to Prometheus", Status: "To Do", Priority: "Low",
			Assignee: "m.lee", Reporter: "m.lee", Created: "2026-11-12T14:40:00Z", Updated: "2026-11-12T14:40:00Z",
			Labels: []string{"observability"}, Components: []string{payApp},
			Description: "We have no dashboard for active/idle/waiting connections of the payments-api pool."},
		{Key: "PAY-1190", Project: "PAY", Type: "Story", Summary: "Alert on DB connection pool saturation", Status: "Backlog", Priority: "Medium",
			Assignee: "", Reporter: "a.smith", Created: "2026-11-18T08:05:00Z", Updated: "2026-11-18T08:05:00Z",
			Labels: []string{"alerting"}, Components: []string{payApp},
			Description: "Page when waiting threads on the payments-api pool stay above 0 for 5 minutes."},
	}
}

func jiraFind(key string) (jiraIssue, bool) {
	for _, is := range jiraIssues() {
		if strings.EqualFold(is.Key, strings.TrimSpace(key)) {
			return is, true
		}
	}
	return jiraIssue{}, false
}

var (
	jqlKeyRE     = regexp.MustCompile(`\b([A-Za-z]+-\d+)\b`)
	jqlProjectRE = regexp.MustCompile(`(?i)project\s*(?:=|in)\s*\(?\s*"?([A-Za-z]+)`)
	jqlLabelRE   = regexp.MustCompile(`(?i)labels\s*(?:=|in)\s*\(?\s*"?([\w.-]+)`)
	jqlStatusRE  = regexp.MustCompile(`(?i)status\s*(=|!=)\s*(?:"([^"]+)"|'([^']+)'|(\w+))`)
	jqlTextRE    = regexp.MustCompile(`(?i)(?:text|summary|description|comment)\s*~\s*(?:"([^"]*)"|'([^']*)'|(\S+))`)
)

// jiraMatch applies the parts of a JQL query the simulation understands:
// issue keys, project, free-text clauses and unresolved filters.
func jiraMatch(jql, projects string) []jiraIssue {
	var out []jiraIssue
	keys := jqlKeyRE.FindAllString(jql, -1)
	proj := ""
	if m := jqlProjectRE.FindStringSubmatch(jql); m != nil {
		proj = m[1]
	}
	var terms []string
	for _, m := range jqlTextRE.FindAllStringSubmatch(jql, -1) {
		terms = append(terms, strings.Trim(m[1]+m[2]+m[3], "*"))
	}
	label := ""
	if m := jqlLabelRE.FindStringSubmatch(jql); m != nil {
		label = m[1]
	}
	status, statusNeg := "", false
	if m := jqlStatusRE.FindStringSubmatch(jql); m != nil {
		status, statusNeg = m[2]+m[3]+m[4], m[1] == "!="
	}
	unresolved := mentions(jql, "resolution = unresolved", "resolution is empty", "statuscategory != done", "status != resolved", "status != done")
	for _, is := range jiraIssues() {
		if len(keys) > 0 && !mentions(strings.Join(keys, " "), is.Key) {
			continue
		}
		if proj != "" && !strings.EqualFold(proj, is.Project) {
			continue
		}
		if projects != "" && !mentions(projects, is.Project) {
			continue
		}
		if unresolved && is.Status == "Resolved" {
			continue
		}
		if label != "" && !slices.ContainsFunc(is.Labels, func(l string) bool { return strings.EqualFold(l, label) }) {
			continue
		}
		if status != "" && strings.EqualFold(status, is.Status) == statusNeg {
			continue
		}
		hay := is.Summary + " " + is.Description + " " + strings.Join(is.Labels, " ") + " " + strings.Join(is.Components, " ")
		for _, c := range is.Comments {
			hay += " " + c.Body
		}
		ok := true
		for _, t := range terms {
			if !jiraTermMatch(hay, t) {
				ok = false
			}
		}
		if ok {
			out = append(out, is)
		}
	}
	return out
}

// jiraTermMatch is Jira's loose text match: any word of the term matches.
func jiraTermMatch(hay, term string) bool {
	for _, w := range strings.Fields(term) {
		if mentions(hay, strings.Trim(w, "\"'*")) {
			return true
		}
	}
	return term == ""
}

func jiraBrief(is jiraIssue) map[string]any {
	return map[string]any{"key": is.Key, "summary": is.Summary, "status": is.Status, "priority": is.Priority,
		"issue_type": is.Type, "assignee": nonEmpty(is.Assignee, "Unassigned"), "created": is.Created, "updated": is.Updated}
}

func jiraFull(is jiraIssue, commentLimit int) map[string]any {
	m := jiraBrief(is)
	m["reporter"] = is.Reporter
	m["project"] = is.Project
	m["labels"] = is.Labels
	m["components"] = is.Components
	m["description"] = is.Description
	var cs []map[string]any
	for i, c := range is.Comments {
		if i >= commentLimit {
			break
		}
		cs = append(cs, map[string]any{"id": c.ID, "author": c.Author, "created": c.Created, "body": c.Body})
	}
	if len(cs) > 0 {
		m["comments"] = cs
	}
	if is.Key == ticketKey {
		m["links"] = []map[string]any{
			{"type": "remote", "title": "PagerDuty " + pdIncident, "url": "https://example.pagerduty.com/incidents/" + pdIncident},
			{"type": "remote", "title": dashTitle, "url": "https://grafana.example/d/" + dashUID},
		}
	}
	return m
}

func nonEmpty(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

func jiraSearch(_ context.Context, _ Instance, args map[string]any) (*mcp.CallToolResult, error) {
	jql := argStr(args, "jql")
	if strings.TrimSpace(jql) == "" {
		return errResult("jql is required"), nil
	}
	found := jiraMatch(jql, argStr(args, "projects_filter"))
	limit := argInt(args, 10, "limit")
	start := argInt(args, 0, "start_at")
	if len(found) == 0 || start >= len(found) {
		return text("No issues found for JQL: %s", jql), nil
	}
	found = found[start:]
	if len(found) > limit && limit > 0 {
		found = found[:limit]
	}
	var issues []map[string]any
	for _, is := range found {
		issues = append(issues, jiraBrief(is))
	}
	return jsonResult(map[string]any{"total": len(issues), "start_at": start, "max_results": limit, "issues": issues}), nil
}

func jiraGetIssue(_ context.Context, _ Instance, args map[string]any) (*mcp.CallToolResult, error) {
	key := argStr(args, "issue_key")
	if key == "" {
		return errResult("issue_key is required"), nil
	}
	is, ok := jiraFind(key)
	if !ok {
		return errResult("Issue %s does not exist or you do not have permission to see it.", key), nil
	}
	return jsonResult(jiraFull(is, argInt(args, 10, "comment_limit"))), nil
}

func jiraProjectIssues(_ context.Context, _ Instance, args map[string]any) (*mcp.CallToolResult, error) {
	p := argStr(args, "project_key")
	var issues []map[string]any
	for _, is := range jiraIssues() {
		if strings.EqualFold(is.Project, p) {
			issues = append(issues, jiraBrief(is))
		}
	}
	if len(issues) == 0 {
		return text("No issues found in project %s.", p), nil
	}
	return jsonResult(map[string]any{"project": strings.ToUpper(p), "total": len(issues), "issues": issues}), nil
}

func jiraTransitions(_ context.Context, _ Instance, args map[string]any) (*mcp.CallToolResult, error) {
	is, ok := jiraFind(argStr(args, "issue_key"))
	if !ok {
		return errResult("Issue %s does not exist or you do not have permission to see it.", argStr(args, "issue_key")), nil
	}
	ts := []map[string]any{{"id": "31", "name": "Mitigated", "to_status": "Mitigated"}, {"id": "41", "name": "Resolve", "to_status": "Resolved"}, {"id": "11", "name": "Back to triage", "to_status": "Open"}}
	if is.Status == "Resolved" {
		ts = []map[string]any{{"id": "51", "name": "Reopen", "to_status": "Open"}}
	}
	return jsonResult(map[string]any{"issue_key": is.Key, "current_status": is.Status, "transitions": ts}), nil
}

func jiraIssueDates(_ context.Context, _ Instance, args map[string]any) (*mcp.CallToolResult, error) {
	is, ok := jiraFind(argStr(args, "issue_key"))
	if !ok {
		return errResult("Issue %s does not exist or you do not have permission to see it.", argStr(args, "issue_key")), nil
	}
	m := map[string]any{"issue_key": is.Key, "created": is.Created, "updated": is.Updated, "status": is.Status}
	if is.Key == ticketKey {
		m["status_changes"] = []map[string]any{{"from": "Open", "to": "In Progress", "at": "2026-11-30T02:22:00Z", "by": onCall}}
	}
	return jsonResult(m), nil
}

func jiraWatchers(_ context.Context, _ Instance, args map[string]any) (*mcp.CallToolResult, error) {
	is, ok := jiraFind(argStr(args, "issue_key"))
	if !ok {
		return errResult("Issue %s does not exist or you do not have permission to see it.", argStr(args, "issue_key")), nil
	}
	w := []string{is.Assignee}
	if is.Key == ticketKey {
		w = []string{onCall, badMRAuthor, reviewer}
	}
	return jsonResult(map[string]any{"issue_key": is.Key, "watch_count": len(w), "watchers": w}), nil
}

func jiraDevInfo(_ context.Context, _ Instance, args map[string]any) (*mcp.CallToolResult, error) {
	key := argStr(args, "issue_key", "issue_keys")
	if mentions(key, ticketKey) {
		return jsonResult(map[string]any{"issue_key": ticketKey, "merge_requests": []map[string]any{
			{"id": fmt.Sprintf("!%d", badMR), "title": badMRTitle, "status": "MERGED", "author": badMRAuthor, "repository": payProject, "merged_at": tMerge},
		}}), nil
	}
	return text("No development information linked to %s.", key), nil
}

func jiraCreate(_ context.Context, _ Instance, args map[string]any) (*mcp.CallToolResult, error) {
	p := strings.ToUpper(argStr(args, "project_key"))
	if p == "" || argStr(args, "summary") == "" {
		return errResult("project_key and summary are required"), nil
	}
	n := 2042
	if p != "INC" {
		n = 1201
	}
	return text("Issue created: %s-%d %q (%s), status Open.", p, n, argStr(args, "summary"), nonEmpty(argStr(args, "issue_type"), "Task")), nil
}

func jiraAddComment(_ context.Context, _ Instance, args map[string]any) (*mcp.CallToolResult, error) {
	key := argStr(args, "issue_key")
	if _, ok := jiraFind(key); !ok {
		return errResult("Issue %s does not exist or you do not have permission to see it.", key), nil
	}
	return text("Comment 10890 added to %s by mcp-bot at %s.", strings.ToUpper(key), tNow), nil
}

func jiraTransition(_ context.Context, _ Instance, args map[string]any) (*mcp.CallToolResult, error) {
	key := argStr(args, "issue_key")
	is, ok := jiraFind(key)
	if !ok {
		return errResult("Issue %s does not exist or you do not have permission to see it.", key), nil
	}
	to := map[string]string{"31": "Mitigated", "41": "Resolved", "11": "Open", "51": "Open"}[argStr(args, "transition_id")]
	if to == "" {
		return errResult("Transition id %q is not valid for %s in status %s; see jira_get_transitions.", argStr(args, "transition_id"), is.Key, is.Status), nil
	}
	return text("%s moved from %s to %s.", is.Key, is.Status, to), nil
}

// jiraHandlers binds the tools that answer from the ticket data.
func jiraHandlers() map[string]handler {
	return map[string]handler{
		"jira_search":                      jiraSearch,
		"jira_get_issue":                   jiraGetIssue,
		"jira_get_project_issues":          jiraProjectIssues,
		"jira_get_transitions":             jiraTransitions,
		"jira_get_issue_dates":             jiraIssueDates,
		"jira_get_issue_watchers":          jiraWatchers,
		"jira_get_issue_development_info":  jiraDevInfo,
		"jira_get_issues_development_info": jiraDevInfo,
	}
}

// atlassianDefaults gives every optional argument without a default an
// explicit "default": null, as the Python server behind the jira and wiki
// kinds emits: models see the same schema shape as from the real thing.
func atlassianDefaults(tools []toolSpec) []toolSpec {
	for i := range tools {
		for j, p := range tools[i].Params {
			if p.Required || p.Default != nil {
				continue
			}
			if _, ok := p.Extra["default"]; !ok {
				x := map[string]any{"default": nil}
				for k, v := range p.Extra {
					x[k] = v
				}
				tools[i].Params[j].Extra = x
			}
		}
	}
	return tools
}
