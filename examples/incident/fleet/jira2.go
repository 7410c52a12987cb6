package fleet

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
)

func jiraWriteTools() []toolSpec {
	return []toolSpec{
		{Name: "jira_add_watcher", Title: "Add watcher",
			Desc: "Make a user watch an issue so that they are notified of its changes. The user is resolved from an email, display name or account id.",
			Params: []param{
				pReq("issue_key", jIssueKey),
				pReq("user_identifier", jUserIdent),
			}},
		{Name: "jira_remove_watcher", Title: "Remove watcher", Destructive: true,
			Desc: "Stop a user from watching an issue. Identify them by username (Server/DC) or account id (Cloud).",
			Params: []param{
				pReq("issue_key", jIssueKey),
				pStr("username", "Username of the watcher to remove, on Server/Data Center."),
				pStr("account_id", "Account id of the watcher to remove, on Cloud."),
			}},
		{Name: "jira_create_issue", Title: "Create issue", Handle: jiraCreate,
			Desc: "Create a Jira issue in a project. Check the required fields with jira_get_create_fields first when the project has custom requirements. Returns the key and URL of the created issue. Sub-tasks need a parent given in additional_fields, and epics may need an epic name on older servers.",
			Params: []param{
				pReq("project_key", jProject),
				pReq("summary", "One-line title of the new issue."),
				pReq("issue_type", "Name of the issue type, e.g. 'Task', 'Bug', 'Story', 'Incident' or 'Subtask'."),
				pStr("assignee", "Who to assign the issue to: email, display name or account id."),
				pStr("description", "Body of the issue in Markdown; it is converted to the server's markup."),
				pStr("components", "Comma-separated component names, e.g. 'Backend,API'."),
				pStr("additional_fields", "JSON object of any other fields to set, e.g. {\"priority\":{\"name\":\"High\"},\"labels\":[\"ops\"],\"parent\":\"PROJ-10\"}."),
			}},
		{Name: "jira_batch_create_issues", Title: "Create issues in batch",
			Desc: "Create several issues in one request. Every issue is validated first; with validate_only nothing is written. Returns the created keys and any per-issue errors.",
			Params: []param{
				pReq("issues", "JSON array of issue objects, each with project_key, summary, issue_type and optional description, assignee and components."),
				pBool("validate_only", "Check the payload without creating anything."),
			}},
		{Name: "jira_update_issue", Title: "Update issue", Destructive: true,
			Desc: "Change fields of an existing issue, and optionally attach files, move it through a transition, add a comment or log work in the same call. Only the fields given change; everything else is left as it is. Returns the updated issue.",
			Params: []param{
				pReq("issue_key", jIssueKey),
				pStr("fields", "JSON object of fields to set, e.g. {\"summary\":\"New title\",\"assignee\":\"user@example.com\"}."),
				pStr("additional_fields", "JSON object of further fields, custom ones included, merged with 'fields'."),
				pStr("components", "Comma-separated component names replacing the current ones."),
				pStr("attachments", "JSON array or comma-separated list of local file paths to attach."),
				pStr("transition", "Name or id of a workflow transition to apply after the update."),
				pStr("comment", "Comment text to add together with the update."),
				pStr("comment_visibility", jVisiblity),
				pStr("worklog", "Time to log with the update, in Jira duration format such as '1h 30m'."),
				pStr("worklog_started", "When the logged work started, ISO 8601."),
				pStr("return_fields", "Comma-separated fields to include in the returned issue."),
			}},
		{Name: "jira_assign_issue", Title: "Assign issue",
			Desc: "Set or clear the assignee of an issue. Accepts an email, display name or account id; leave assignee empty to unassign. On Cloud the name is resolved to an account id first, so an ambiguous name fails with the candidates listed. Returns the issue key with the resolved assignee.",
			Params: []param{
				pReq("issue_key", jIssueKey),
				pStr("assignee", "The new assignee: email, display name, username or account id. Empty unassigns the issue."),
			}},
		{Name: "jira_delete_issue", Title: "Delete issue", Destructive: true,
			Desc:   "Delete an issue permanently. Sub-tasks go with it. This cannot be undone.",
			Params: []param{pReq("issue_key", jIssueKey)}},
		{Name: "jira_move_issue", Title: "Move issue", Destructive: true,
			Desc: "Move an issue to another project, where it gets a new key. Issue type and status are mapped to the closest match in the target project; fields the target does not have are dropped. Jira Cloud only. Returns the new key; the old key keeps redirecting to it.",
			Params: []param{
				pReq("issue_key", jIssueKey),
				pReq("target_project_key", "Key of the project to move the issue into."),
			}},
		{Name: "jira_add_comment", Title: "Add comment", Handle: jiraAddComment,
			Desc: "Add a comment to an issue. Returns the comment id, author and creation time. Markdown is converted to Jira markup or the Atlassian document format as the server needs.",
			Params: []param{
				pReq("issue_key", jIssueKey),
				pReq("body", "Text of the comment in Markdown."),
				pStr("visibility", jVisiblity),
				pBool("public", "Service desk only: make the comment visible to the customer (true) or internal (false)."),
			}},
		{Name: "jira_edit_comment", Title: "Edit comment", Destructive: true,
			Desc: "Replace the text of an existing comment. Only the author or an administrator may edit a comment.",
			Params: []param{
				pReq("issue_key", jIssueKey),
				pReq("comment_id", "Id of the comment to edit."),
				pReq("body", "New text of the comment in Markdown."),
				pStr("visibility", jVisiblity),
			}},
		{Name: "jira_add_worklog", Title: "Add worklog", Destructive: true,
			Desc: "Log time spent on an issue, optionally adjusting its estimates. Returns the created worklog entry.",
			Params: []param{
				pReq("issue_key", jIssueKey),
				pReq("time_spent", "Duration in Jira format, e.g. '1h 30m', '2d' or '45m'."),
				pStr("comment", "Note describing the work."),
				pStr("started", "When the work started, ISO 8601 such as 2026-01-31T09:00:00.000+0000. Defaults to now."),
				pStr("original_estimate", "New original estimate, same format as time_spent."),
				pStr("remaining_estimate", "New remaining estimate, same format as time_spent."),
			}},
		{Name: "jira_link_to_epic", Title: "Link to epic", Destructive: true,
			Desc: "Put an issue under an epic. On next-gen and recent Cloud projects the epic becomes the parent of the issue; on older ones the Epic Link field is set.",
			Params: []param{
				pReq("issue_key", jIssueKey),
				pReq("epic_key", "Key of the epic, e.g. PROJ-5."),
			}},
		{Name: "jira_create_issue_link", Title: "Create issue link",
			Desc: "Link two issues with a link type such as Blocks, Duplicate or Relates. Returns the id of the new link.",
			Params: []param{
				pReq("link_type", "Name of the link type, from jira_get_link_types."),
				pReq("inward_issue_key", "Key of the issue on the inward side (e.g. the one that 'is blocked by')."),
				pReq("outward_issue_key", "Key of the issue on the outward side (e.g. the one that 'blocks')."),
				pStr("comment", "Comment to add while linking."),
				pStr("comment_visibility", jVisiblity),
			}},
		{Name: "jira_create_remote_issue_link", Title: "Create remote link",
			Desc: "Attach a link to an outside resource (a wiki page, a dashboard, a merge request) to an issue; it appears in the issue's links section with its title and optional icon. Returns the id of the remote link.",
			Params: []param{
				pReq("issue_key", jIssueKey),
				pReq("url", "Address the link points to."),
				pReq("title", "Text shown for the link."),
				pStr("summary", "Optional longer description of the linked resource."),
				pStr("relationship", "Wording of the relationship, e.g. 'documented in' or 'caused by'."),
				pStr("icon_url", "Address of a 16x16 icon shown next to the link."),
			}},
		{Name: "jira_remove_issue_link", Title: "Remove issue link", Destructive: true,
			Desc:   "Delete a link between two issues. Both issues stay as they are; only the link goes.",
			Params: []param{pReq("link_id", "Id of the link to remove, as shown in the issue's links.")}},
		{Name: "jira_transition_issue", Title: "Transition issue", Destructive: true, Handle: jiraTransition,
			Desc: "Move an issue to another workflow status. Some transitions open a screen with required fields, such as a resolution; pass them in fields. Returns the new status.",
			Params: []param{
				pReq("issue_key", jIssueKey),
				pReq("transition_id", "Id of the transition, from jira_get_transitions."),
				pStr("fields", "JSON object of fields the transition screen requires, e.g. {\"resolution\":{\"name\":\"Fixed\"}}."),
				pStr("comment", "Comment to add during the transition."),
			}},
		{Name: "jira_create_sprint", Title: "Create sprint",
			Desc: "Create a sprint on a board. The sprint starts in the future state. Returns its id.",
			Params: []param{
				pReq("board_id", jBoardID),
				pReq("name", "Name of the sprint."),
				pReq("start_date", "Start of the sprint, ISO 8601."),
				pReq("end_date", "End of the sprint, ISO 8601."),
				pStr("goal", "What the sprint aims to achieve."),
			}},
		{Name: "jira_update_sprint", Title: "Update sprint", Destructive: true,
			Desc: "Change a sprint. Only the given attributes change.",
			Params: []param{
				pReq("sprint_id", jSprintID),
				pStr("name", "New name."),
				pEnum("state", "New state; closing a sprint moves unfinished issues out.", "future", "active", "closed"),
				pStr("start_date", "New start, ISO 8601."),
				pStr("end_date", "New end, ISO 8601."),
				pStr("goal", "New goal."),
			}},
		{Name: "jira_add_issues_to_sprint", Title: "Add issues to sprint", Destructive: true,
			Desc: "Move issues into a sprint. Issues leave any sprint they were in before.",
			Params: []param{
				pReq("sprint_id", jSprintID),
				pReq("issue_keys", "Comma-separated issue keys to move."),
			}},
		{Name: "jira_move_issues_to_backlog", Title: "Move issues to backlog",
			Desc:   "Take issues out of whatever sprint they are in and put them back in the backlog. Only works for issues on a Scrum board.",
			Params: []param{pReq("issue_keys", "Comma-separated issue keys to move to the backlog.")}},
		{Name: "jira_create_customer_request", Title: "Create customer request", Destructive: true,
			Desc: "Raise a service desk request as or for a customer. Returns the new request key and its portal link.",
			Params: []param{
				pReq("service_desk_id", jSDID),
				pReq("request_type_id", "Id of the request type, from jira_get_request_types."),
				pReq("request_field_values", "JSON object of field values, e.g. {\"summary\":\"VPN down\",\"description\":\"...\"}."),
				pStr("raise_on_behalf_of", "Email or account id of the customer the request is raised for."),
				pStr("request_participants", "Comma-separated emails or account ids to add as participants."),
				pStr("attachments", "JSON array of local file paths to attach."),
				pBool("strict_on_behalf", "Fail rather than fall back to the caller when raise_on_behalf_of cannot be resolved."),
			}},
		{Name: "jira_create_version", Title: "Create version",
			Desc: "Create a fix version in a project. Returns the new version with its id.",
			Params: []param{
				pReq("project_key", jProject),
				pReq("name", "Name of the version, e.g. '2.4.0'."),
				pStr("start_date", "Start date, YYYY-MM-DD."),
				pStr("release_date", "Planned release date, YYYY-MM-DD."),
				pStr("description", "What the version contains."),
			}},
		{Name: "jira_batch_create_versions", Title: "Create versions in batch",
			Desc: "Create several fix versions in a project in one call. Returns the created versions and any that failed with the reason.",
			Params: []param{
				pReq("project_key", jProject),
				pReq("versions", "JSON array of versions, each with name and optional start_date, release_date and description."),
			}},
		{Name: "jira_update_version", Title: "Update version", Destructive: true,
			Desc: "Change a fix version: rename it, move its dates, or mark it released or archived. Only the fields you pass change. Returns the version after the change.",
			Params: []param{
				pReq("version_id", "Id of the version, from jira_get_project_versions."),
				pStr("name", "New name."),
				pStr("description", "New description."),
				pStr("start_date", "New start date, YYYY-MM-DD."),
				pStr("release_date", "New release date, YYYY-MM-DD."),
				pBool("archived", "Archive (true) or restore (false) the version."),
				pBool("released", "Mark the version released (true) or unreleased (false)."),
			}},
		{Name: "jira_update_proforma_form_answers", Title: "Update form answers", Destructive: true,
			Desc: "Fill in or change answers of a ProForma form on an issue. Each answer names a question id, the question type and the value in the shape that type expects: text for TEXT and PARAGRAPH, a number for NUMBER, YYYY-MM-DD for DATE, a list of choice ids for CHOICE and CHECKBOX, account ids for USER. Answers for other questions are left unchanged. The form must not be locked or already submitted. Returns the updated answers and any that were rejected with the reason.",
			Params: []param{
				pReq("issue_key", jIssueKey),
				pReq("form_id", "UUID of the form, from jira_get_issue_proforma_forms."),
				{Name: "answers", Type: "array", Items: "object", Required: true,
					Desc: "Answers to write, one object per question.",
					Props: []param{
						pReq("questionId", "Id of the question inside the form."),
						pEnum("type", "Type of the question.", "TEXT", "PARAGRAPH", "NUMBER", "DATE", "DATETIME", "CHOICE", "CHECKBOX", "USER"),
						{Name: "value", Type: "string", Desc: "The answer, formatted as the question type requires (lists as JSON)."},
					}},
			}},
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
