package fleet

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
)

func grafanaTools2() []toolSpec {
	return []toolSpec{
		// Annotations.
		{Name: "get_annotations", Title: "Get annotations", ReadOnly: true,
			Desc: "List annotations (marked events such as deployments or incidents) within a time range, filtered by dashboard, panel, tags, alert or user. Each comes with id, time, end time, text and tags. Deploy markers are often the quickest link between a change and a symptom. Without a range the most recent annotations come back first.",
			Params: []param{
				pStr("dashboardUid", "Only annotations of this dashboard."),
				{Name: "panelId", Type: "integer", Desc: "Only annotations of this panel."},
				{Name: "from", Type: "integer", Desc: "Start of the range, epoch milliseconds."},
				{Name: "to", Type: "integer", Desc: "End of the range, epoch milliseconds."},
				pArr("tags", "string", "Only annotations carrying these tags (organisation-wide annotations)."),
				pBool("matchAny", "With several tags, match annotations that have any of them instead of all."),
				pEnum("type", "Only alert annotations or only user-made ones.", "alert", "annotation"),
				pStr("alertUid", "Only annotations created by this alert rule."),
				{Name: "userId", Type: "integer", Desc: "Only annotations created by this user."},
				pInt("limit", "Largest number of annotations to return.", 100),
			}},
		{Name: "get_annotation_tags", Title: "Get annotation tags", ReadOnly: true,
			Desc: "List the tags used on annotations with how often each occurs, optionally filtered by a prefix. Useful to discover the tag vocabulary (deploy, incident, maintenance...) before filtering get_annotations by tag.",
			Params: []param{
				pStr("tag", "Only tags containing this text."),
				pStr("limit", "Largest number of tags to return."),
			}},
		{Name: "create_annotation", Title: "Create annotation",
			Desc: "Add an annotation at a point in time or over a time span, on one dashboard panel or organisation-wide with tags. Graphite-style annotations take 'what', 'when' and 'data' instead. Returns the id of the new annotation. Times are epoch milliseconds; a region needs both time and timeEnd.",
			Params: []param{
				pStr("dashboardUid", "Dashboard to attach it to; empty makes an organisation annotation."),
				{Name: "panelId", Type: "integer", Desc: "Panel to attach it to."},
				{Name: "time", Type: "integer", Desc: "Start, epoch milliseconds."},
				{Name: "timeEnd", Type: "integer", Desc: "End, epoch milliseconds, for a region."},
				pArr("tags", "string", "Tags of the annotation."),
				pStr("text", "Text of the annotation; HTML is allowed."),
				pObj("data", "Extra JSON data stored with the annotation."),
				pEnum("format", "Use the Graphite annotation format.", "graphite"),
				pStr("graphiteData", "Graphite payload when format is graphite."),
				pStr("what", "Graphite: the event name."),
				{Name: "when", Type: "integer", Desc: "Graphite: the event time, epoch seconds."},
			}},
		{Name: "update_annotation", Title: "Update annotation", Destructive: true,
			Desc: "Change the time, text, tags or data of an existing annotation. Only the fields given change. Tags passed replace the existing tags entirely. Returns a confirmation with the annotation id.",
			Params: []param{
				{Name: "id", Type: "integer", Desc: "Id of the annotation."},
				{Name: "time", Type: "integer", Desc: "New start, epoch milliseconds."},
				{Name: "timeEnd", Type: "integer", Desc: "New end, epoch milliseconds."},
				pStr("text", "New text."),
				pArr("tags", "string", "New tags, replacing the old ones."),
				pObj("data", "New JSON data."),
			}},
		// Alerting.
		{Name: "alerting_manage_rules", Title: "Manage alert rules", Destructive: true,
			Desc: "Work with Grafana-managed alert rules through one tool. 'list' shows rules with their state, filtered by folder, group, name, labels or state; 'get' returns one rule in full; 'versions' its history; 'create', 'update' and 'delete' change rules. A rule needs a title, a folder, a group, the query data and a condition naming the query that decides firing. The list operation returns rule uid, title, folder, group, state, health and the number of firing instances; use it first to find the rule you need. Changing provisioned rules is refused unless provenance is disabled.",
			Params: []param{
				pEnum("operation", "What to do.", "list", "get", "versions", "create", "update", "delete"),
				pStr("rule_uid", "UID of the rule, for get, versions, update and delete."),
				pStr("title", "Title of the rule."),
				pStr("folder_uid", "Folder the rule is stored in."),
				pStr("rule_group", "Evaluation group of the rule."),
				pStr("condition", "RefId of the query or expression that decides firing, e.g. C."),
				{Name: "data", Type: "array", Items: "object", Desc: "Queries and expressions of the rule, each with refId, datasourceUid, relativeTimeRange and model."},
				pStr("for", "How long the condition must hold before firing, e.g. 5m."),
				pStr("keep_firing_for", "How long to keep firing after the condition clears."),
				pEnum("no_data_state", "State when the query returns no data.", "NoData", "Alerting", "OK"),
				pEnum("exec_err_state", "State when the query fails.", "Error", "Alerting", "OK"),
				pObj("labels", "Labels attached to the alerts, used for routing."),
				pObj("annotations", "Annotations such as summary, description and runbook_url."),
				pBool("is_paused", "Pause evaluation of the rule."),
				pObj("notification_settings", "Simplified routing: a contact point to send to directly."),
				pObj("record", "For recording rules: the metric name and source query."),
				pEnum("rule_type", "Kind of rule to list.", "alerting", "recording"),
				{Name: "missing_series_evals_to_resolve", Type: "integer", Desc: "Evaluations without a series before an alert resolves."},
				pBool("disable_provenance", "Leave the rule editable in the UI after an API change."),
				{Name: "org_id", Type: "integer", Desc: "Organisation id."},
				pStr("datasource_uid", "List rules of a Prometheus or Loki datasource ruler instead."),
				pStr("search_folder", "List: only rules in folders matching this text."),
				pStr("search_rule_name", "List: only rules whose name contains this text."),
				pArr("label_selectors", "string", "List: only rules with labels matching these selectors."),
				pArr("matchers", "string", "List: label matchers on the alert instances."),
				pArr("states", "string", "List: only rules in these states (firing, pending, normal, error, nodata)."),
				{Name: "rule_limit", Type: "integer", Desc: "List: largest number of rules to return."},
				{Name: "limit_alerts", Type: "integer", Desc: "List: largest number of alert instances per rule."},
			}},
		{Name: "alerting_manage_routing", Title: "Inspect alert routing", ReadOnly: true,
			Desc: "Read how alerts are delivered: the notification policy tree, contact points (one or all) and mute time intervals. Use it to find out who gets notified for a label set. Read-only: routing changes are made in the Grafana UI or through provisioning.",
			Params: []param{
				pEnum("operation", "What to read.", "get_notification_policies", "get_contact_points", "get_contact_point", "get_time_intervals", "get_time_interval"),
				pStr("contact_point_title", "Title of the contact point for get_contact_point."),
				pStr("time_interval_name", "Name of the time interval for get_time_interval."),
				pStr("name", "Only contact points whose name contains this text."),
				pStr("datasource_uid", "Read the routing of an external Alertmanager datasource instead."),
				pInt("limit", "Largest number of items to return.", 100),
			}},
		{Name: "alerting_manage_silences", Title: "Manage silences", Destructive: true,
			Desc: "List, read, create, update or delete Alertmanager silences in Grafana. A silence mutes notifications for alerts matching all of its matchers between starts_at and ends_at; alerts keep evaluating and showing in the UI. Give a comment with the reason; a silence without an end is refused. List returns active and pending silences with their matchers and creator; expired ones are left out after a while.",
			Params: []param{
				pEnum("operation", "What to do.", "list", "get", "create", "update", "delete"),
				pStr("silence_id", "Id of the silence for get, update and delete."),
				{Name: "matchers", Type: "array", Items: "object", Desc: "Label matchers of the silence.", Props: []param{
					pStr("name", "Label name."), pStr("value", "Label value or regular expression."),
					{Name: "isRegex", Type: "boolean", Desc: "The value is a regular expression."},
					{Name: "isEqual", Type: "boolean", Desc: "Match equal (true) or not equal (false)."},
				}},
				pStr("starts_at", "Start, RFC 3339; defaults to now."),
				pStr("ends_at", "End, RFC 3339."),
				pStr("created_by", "Author of the silence."),
				pStr("comment", "Why the alerts are silenced."),
				pStr("rule_uid", "List: only silences that affect this alert rule."),
			}},
		// OnCall.
		{Name: "list_oncall_schedules", Title: "List on-call schedules", ReadOnly: true,
			Desc:   "List Grafana OnCall schedules with their team, time zone and current shift ids, or return one schedule by id. Each schedule lists the ids of its shifts, which get_oncall_shift expands. Results are paged.",
			Params: []param{pStr("scheduleId", "Return only this schedule."), pStr("teamId", "Only schedules of this team."), pInt("page", gPage, 1)}},
		{Name: "get_oncall_shift", Title: "Get on-call shift", ReadOnly: true,
			Desc:   "Return one on-call shift: its rotation, start, duration, frequency and the users in it. Times are in the schedule's time zone unless stated otherwise.",
			Params: []param{pReq("shiftId", "Id of the shift, from list_oncall_schedules.")}},
		{Name: "get_current_oncall_users", Title: "Get current on-call users", ReadOnly: true,
			Desc:   "Say who is on call right now for a schedule, with their names and contact details. Answers for the current moment only; overrides and swaps are taken into account. Find the schedule id with list_oncall_schedules.",
			Params: []param{pReq("scheduleId", "Id of the schedule.")}},
		{Name: "list_oncall_teams", Title: "List on-call teams", ReadOnly: true,
			Desc:   "List the OnCall teams with their ids. Team ids filter schedules and alert groups. Results are paged.",
			Params: []param{pInt("page", gPage, 1)}},
		{Name: "list_oncall_users", Title: "List on-call users", ReadOnly: true,
			Desc:   "List OnCall users, or find one by id or username. Each user comes with id, username, email, role and time zone. Results are paged.",
			Params: []param{pStr("userId", "Return only this user."), pStr("username", "Return only the user with this username."), pInt("page", gPage, 1)}},
		{Name: "list_alert_groups", Title: "List OnCall alert groups", ReadOnly: true,
			Desc: "List Grafana OnCall alert groups (grouped incoming alerts) with their state (firing, acknowledged, resolved, silenced), integration, route and start time, filtered as needed. Newest first. Use get_alert_group for one group in full.",
			Params: []param{
				pStr("id", "Only this alert group."), pStr("name", "Only groups whose name contains this text."),
				pEnum("state", "Only groups in this state.", "new", "acknowledged", "resolved", "silenced"),
				pStr("integrationId", "Only groups from this integration."), pStr("routeId", "Only groups that took this route."),
				pStr("teamId", "Only groups of this team."), pArr("labels", "string", "Only groups with these labels, as key:value."),
				pStr("startedAt", "Only groups started in this range, 'start_end' in ISO 8601."), pInt("page", gPage, 1),
			}},
		{Name: "get_alert_group", Title: "Get OnCall alert group", ReadOnly: true,
			Desc:   "Return one OnCall alert group with its alerts, state, timeline and links. The timeline shows who acknowledged or resolved it and when.",
			Params: []param{pReq("alertGroupId", "Id of the alert group.")}},
		{Name: "update_alert_group", Title: "Update OnCall alert group", Destructive: true,
			Desc:   "Acknowledge, resolve, unacknowledge, unresolve or silence an OnCall alert group, as a responder would from the app. Silence needs a duration on the real service; here it uses the default. Returns the new state.",
			Params: []param{pReq("alertGroupId", "Id of the alert group."), pEnum("state", "The action to take.", "acknowledge", "unacknowledge", "resolve", "unresolve", "silence")}},
		// Incident.
		{Name: "list_incidents", Title: "List incidents", ReadOnly: true,
			Desc:   "List Grafana Incident incidents, newest first, with status, severity and title. Drills are left out unless asked for. Use get_incident for the full record of one incident.",
			Params: []param{pInt("limit", "Largest number of incidents to return.", 10), pBool("drill", "Include drill incidents."), pEnum("status", "Only incidents with this status.", "active", "resolved")}},
		{Name: "get_incident", Title: "Get incident", ReadOnly: true,
			Desc:   "Return one Grafana Incident incident with its status, severity, labels, responders and timeline summary. Ids come from list_incidents.",
			Params: []param{pReq("id", "Id of the incident.")}},
		{Name: "create_incident", Title: "Create incident",
			Desc: "Declare an incident in Grafana Incident. It gets a chat room named after the prefix, and can start with a link attached. Declaring alerts the configured responders. Returns the new incident id and its URL.",
			Params: []param{
				pReq("title", "Title of the incident."), pReq("severity", "Severity name, e.g. 'critical' or 'minor'."), pReq("roomPrefix", "Prefix of the incident chat room."),
				pStr("status", "Initial status, e.g. active."), pBool("isDrill", "Mark it as a drill."),
				{Name: "labels", Type: "array", Items: "object", Desc: "Labels of the incident.", Props: []param{pStr("key", "Label key."), pStr("label", "Label value."), pStr("description", "Meaning of the label."), pStr("colorHex", "Colour, e.g. #ff0000.")}},
				pStr("attachUrl", "Address of a resource to attach, such as a dashboard."), pStr("attachCaption", "Caption of the attached link."),
			}},
		{Name: "update_incident", Title: "Update incident",
			Desc:   "Change the title, status or severity of an incident, e.g. resolve it. Only the given fields change. Returns the updated incident.",
			Params: []param{pReq("incidentId", "Id of the incident."), pStr("title", "New title."), pStr("status", "New status: active or resolved."), pStr("severity", "New severity.")}},
		{Name: "add_activity_to_incident", Title: "Add incident activity",
			Desc:   "Add a note to the timeline of an incident. Links in the text are attached automatically. Returns the id of the new timeline entry.",
			Params: []param{pReq("incidentId", "Id of the incident."), pReq("body", "Text of the note."), pStr("eventTime", "When it happened, RFC 3339; defaults to now.")}},
		// Sift.
		{Name: "list_sift_investigations", Title: "List Sift investigations", ReadOnly: true,
			Desc:   "List recent Sift investigations (automated analyses of an incident's signals) with their status. Each entry has its id, name, creation time, status and the labels it was started with.",
			Params: []param{pInt("limit", "Largest number of investigations to return.", 10)}},
		{Name: "get_sift_investigation", Title: "Get Sift investigation", ReadOnly: true,
			Desc:   "Return one Sift investigation with the analyses it ran and their findings. Analyses with interesting results are marked so.",
			Params: []param{pReq("id", "UUID of the investigation.")}},
		{Name: "get_sift_analysis", Title: "Get Sift analysis", ReadOnly: true,
			Desc:   "Return one analysis of a Sift investigation in detail, with its interesting results. Includes the evidence behind the result, such as log lines or slow spans.",
			Params: []param{pReq("investigationId", "UUID of the investigation."), pReq("analysisId", "UUID of the analysis.")}},
		{Name: "find_error_pattern_logs", Title: "Find error patterns in logs",
			Desc:   "Start a Sift investigation that looks for error log patterns that are elevated in a time range compared with the week before, for the streams matching the labels. It creates the investigation and returns its findings. It needs Sift to be enabled and Loki logs for the labels. Running it costs a few seconds and leaves a record in the Sift investigation list.",
			Params: []param{pReq("name", "Name of the investigation."), {Name: "labels", Type: "object", Required: true, Desc: "Labels that select the logs, e.g. {\"cluster\":\"prod\",\"namespace\":\"shop\"}."}, pStr("start", gStart), pStr("end", gEnd)}},
		{Name: "find_slow_requests", Title: "Find slow requests",
			Desc:   "Start a Sift investigation that searches the traces of the labelled services for slow requests in a time range. It creates the investigation and returns the slow operations it found. It needs Sift to be enabled and a Tempo datasource with traces of those services.",
			Params: []param{pReq("name", "Name of the investigation."), {Name: "labels", Type: "object", Required: true, Desc: "Labels that select the services, e.g. {\"namespace\":\"shop\"}."}, pStr("start", gStart), pStr("end", gEnd)}},
		{Name: "get_assertions", Title: "Get assertions", ReadOnly: true,
			Desc: "Return the assertions (detected problems such as error or latency anomalies) raised for an entity in a time range by Grafana's knowledge graph. Assertions summarise what went wrong with an entity without reading raw signals; a good first look when the knowledge graph is set up.",
			Params: []param{
				pReq("startTime", gStart), pReq("endTime", gEnd), pStr("entityType", "Type of entity, e.g. Service or Pod."), pStr("entityName", "Name of the entity."),
				pStr("env", "Environment label."), pStr("site", "Site label."), pStr("namespace", "Namespace label."),
			}},
		// Pyroscope.
		{Name: "list_pyroscope_label_names", Title: "List profile label names", ReadOnly: true,
			Desc:   "List the label names of the profiles stored in a Pyroscope datasource within a time range (default the last hour), to build a selector. Names that start with a double underscore are internal and can be ignored.",
			Params: []param{pReq("data_source_uid", gPyroDS), pStr("matchers", gPyroM), pStr("start_rfc_3339", gStart), pStr("end_rfc_3339", gEnd)}},
		{Name: "list_pyroscope_label_values", Title: "List profile label values", ReadOnly: true,
			Desc:   "List the values of one profile label in a Pyroscope datasource within a time range (default the last hour). Use the values to narrow the matchers of query_pyroscope.",
			Params: []param{pReq("data_source_uid", gPyroDS), pReq("name", "Label whose values to list, e.g. service_name."), pStr("matchers", gPyroM), pStr("start_rfc_3339", gStart), pStr("end_rfc_3339", gEnd)}},
		{Name: "list_pyroscope_profile_types", Title: "List profile types", ReadOnly: true,
			Desc:   "List the profile types a Pyroscope datasource holds (CPU, allocations, goroutines, locks...), as the ids query_pyroscope expects. Ids look like process_cpu:cpu:nanoseconds:cpu:nanoseconds.",
			Params: []param{pReq("data_source_uid", gPyroDS), pStr("start_rfc_3339", gStart), pStr("end_rfc_3339", gEnd)}},
		{Name: "query_pyroscope", Title: "Query profiles", ReadOnly: true,
			Desc: "Fetch a profile from Pyroscope for the matching series and time range: as a flame graph summary of the heaviest call stacks, as a series over time, or both. Limit the depth to keep the answer short.",
			Params: []param{
				pReq("data_source_uid", gPyroDS), pReq("profile_type", "Profile type id, from list_pyroscope_profile_types."), pStr("matchers", gPyroM),
				pStr("start_rfc_3339", gStart), pStr("end_rfc_3339", gEnd), pEnum("query_type", "What to return.", "profile", "metrics", "both"),
				pArr("group_by", "string", "Labels to split the series by."), pNum("step", "Resolution of the series in seconds."),
				pInt("max_node_depth", "Deepest stack level to include in the flame graph.", 100), pStr("format", "Output format of the profile."),
			}},
		// Snapshots, plugins, provisioning, links and raw API.
		{Name: "list_snapshots", Title: "List snapshots", ReadOnly: true,
			Desc:   "List dashboard snapshots with their keys, names and expiry. Use get_snapshot with a key to read one.",
			Params: []param{pStr("query", "Only snapshots whose name contains this text."), pInt("limit", "Largest number of snapshots to return.", 100)}},
		{Name: "get_snapshot", Title: "Get snapshot", ReadOnly: true,
			Desc:   "Return a snapshot's frozen dashboard and data. Snapshots keep data from the moment they were taken; they do not query datasources again.",
			Params: []param{pReq("key", "Key of the snapshot.")}},
		{Name: "create_snapshot", Title: "Create snapshot",
			Desc: "Freeze a dashboard with its current data into a shareable snapshot, optionally external and expiring. Returns the snapshot URL and its delete URL.",
			Params: []param{
				{Name: "dashboard", Type: "object", Required: true, Desc: "Dashboard model with the data to freeze."},
				pStr("name", "Name of the snapshot."), pInt("expires", "Seconds until the snapshot expires; 0 keeps it.", 0), pBool("external", "Publish to the external snapshot server."),
				pStr("key", "Key to give the snapshot."), pStr("deleteKey", "Key that allows deleting it later."),
			}},
		{Name: "delete_snapshot", Title: "Delete snapshot", Destructive: true,
			Desc:   "Delete a snapshot. Everyone with the link loses access. Cannot be undone.",
			Params: []param{pReq("key", "Key of the snapshot.")}},
		{Name: "get_plugin", Title: "Get plugin", ReadOnly: true,
			Desc:   "Return the settings and version of an installed plugin, and whether it is enabled. Returns not found for plugins that are not installed; search_plugin_information covers the catalogue.",
			Params: []param{pReq("pluginId", "Id of the plugin, e.g. grafana-piechart-panel.")}},
		{Name: "search_plugin_information", Title: "Search plugins", ReadOnly: true,
			Desc:   "Search the Grafana plugin catalogue by keyword and return matching plugins with their type, description and latest version, to find a datasource or panel that does a given job. The catalogue covers community and Grafana Labs plugins; installation is a separate step with install_plugin.",
			Params: []param{pReq("query", "Words describing the plugin wanted, e.g. 'postgres datasource'.")}},
		{Name: "install_plugin", Title: "Install plugin",
			Desc:   "Install a plugin from the catalogue, at a given version or the latest. Some plugins need a Grafana restart before they work. Returns the installed version.",
			Params: []param{pReq("pluginId", "Id of the plugin."), pStr("version", "Version to install; latest when empty.")}},
		{Name: "list_provisioning_repositories", Title: "List provisioning repositories", ReadOnly: true,
			Desc:   "List the Git repositories Grafana provisions dashboards from (Git Sync), with their sync state. Each repository has its name, URL, branch, path, target folder and last sync result.",
			Params: []param{pStr("namespace", "Stack namespace; the default one when empty.")}},
		{Name: "validate_provisioning_file", Title: "Validate provisioning file", ReadOnly: true,
			Desc:   "Check that a dashboard file in a provisioning repository parses and would be accepted, without changing anything. Returns the parse or validation errors with their location, or confirms the file is valid.",
			Params: []param{pReq("repo", "Name of the provisioning repository."), pReq("path", "Path of the file in the repository."), pStr("ref", "Branch or commit; default branch when empty."), pStr("namespace", "Stack namespace.")}},
		{Name: "generate_deeplink", Title: "Generate deeplink", ReadOnly: true,
			Desc: "Build a URL into the Grafana UI for a dashboard, a panel or an Explore view, with a time range and query parameters, to hand to a human. Nothing is changed. Relative times such as now-1h stay relative in the link; absolute times pin the view for everyone who opens it.",
			Params: []param{
				pEnum("resourceType", "What to link to.", "dashboard", "panel", "explore"),
				pStr("dashboardUid", "Dashboard to link to."), {Name: "panelId", Type: "integer", Desc: "Panel to link to."},
				pStr("datasourceUid", "Datasource for an Explore link."), pArr("queries", "object", "Queries for an Explore link."),
				grafanaTimeRange(), pObj("queryParams", "Extra URL parameters, e.g. variables as var-name."),
				pBool("shorten", "Return a short link."), pObj("provisioningPreview", "Link to a preview of a provisioned dashboard change (repo, path, ref, pullRequestUrl)."),
			}},
		{Name: "get_panel_image", Title: "Render panel image", ReadOnly: true,
			Desc: "Render a dashboard or a single panel as a PNG image for a vision model, with a time range, size and theme. Needs the image renderer plugin. Returns an inline PNG image; rendering large dashboards can take several seconds.",
			Params: []param{
				pStr("dashboardUid", "Dashboard to render."), {Name: "panelId", Type: "integer", Desc: "Panel to render; the whole dashboard when omitted."},
				grafanaTimeRange(), pObj("variables", "Template variable values."),
				pInt("width", "Width in pixels.", 1000), pInt("height", "Height in pixels.", 500), pInt("scale", "Device scale factor.", 1),
				pEnum("theme", "Colour theme.", "light", "dark"), pInt("timeout", "Render timeout in seconds.", 60),
				pObj("provisioningPreview", "Render a preview of a provisioned dashboard change (repo, path, ref)."),
			}},
		{Name: "grafana_api_request", Title: "Grafana API request", Destructive: true,
			Desc: "Send a request to any Grafana HTTP API endpoint for what no other tool covers, optionally trimming the JSON answer with a jq expression. Writes are possible, so prefer the dedicated tools. The request runs with the server's credentials and permissions. The answer is the response body, cut to a size limit; use jq to select only what you need.",
			Params: []param{
				pReq("endpoint", "Path under /api, e.g. /api/org or /api/search?query=x."),
				pEnum("method", "HTTP method.", "GET", "POST", "PUT", "PATCH", "DELETE"),
				pStr("body", "Request body as JSON text."), pObj("headers", "Extra request headers."),
				pStr("jq", "jq expression applied to the JSON answer, e.g. '.[] | .title'."),
			}},
	}
}

func grafanaHandlers() map[string]handler {
	return map[string]handler{
		"search_dashboards":           grafSearch,
		"get_dashboard_by_uid":        grafDashboard,
		"get_dashboard_summary":       grafSummary,
		"get_dashboard_panel_queries": grafPanelQueries,
		"get_dashboard_property":      grafProperty,
		"get_annotations":             grafAnnotations,
		"list_datasources":            grafDatasources,
		"query_prometheus":            grafQueryProm,
		"query_prometheus_histogram":  grafHistogram,
		"query_loki_logs":             grafLoki,
	}
}

// Datasource uids of the simulated Grafana: one per Prometheus server, and
// only prometheus-b scrapes k8s-3.
const (
	gdsA    = "prometheus-a"
	gdsB    = "prometheus-b"
	gdsC    = "prometheus-c"
	gdsLoki = "loki-prod"
)

type grafPanel struct {
	ID          int
	Title, Type string
	Expr, DSUID string
	Unit        string
}

func grafPanels() []grafPanel {
	return []grafPanel{
		{1, "5xx rate", "timeseries", `sum(rate(http_requests_total{service="payments-api",cluster="$cluster",code=~"5.."}[5m])) / sum(rate(http_requests_total{service="payments-api",cluster="$cluster"}[5m]))`, gdsB, "percentunit"},
		{2, "p99 latency", "timeseries", `histogram_quantile(0.99, sum by (le) (rate(http_request_duration_seconds_bucket{service="payments-api",cluster="$cluster"}[5m])))`, gdsB, "s"},
		{3, "Requests per second", "timeseries", `sum(rate(http_requests_total{service="payments-api",cluster="$cluster"}[5m]))`, gdsB, "reqps"},
		{4, "Pod restarts", "timeseries", `sum by (pod) (increase(kube_pod_container_status_restarts_total{namespace="payments",cluster="$cluster"}[10m]))`, gdsB, "short"},
		{5, "Error logs", "logs", `{namespace="payments", app="payments-api", cluster="$cluster"} |= "ERROR"`, gdsLoki, ""},
	}
}

func grafDashboards() []map[string]any {
	return []map[string]any{
		{"uid": dashUID, "title": dashTitle, "folder": "Payments", "tags": []string{"payments", "slo"}, "url": "/d/" + dashUID + "/payments-api-overview"},
		{"uid": "payments-worker", "title": "Payments worker", "folder": "Payments", "tags": []string{"payments"}, "url": "/d/payments-worker/payments-worker"},
		{"uid": "k8s-cluster-overview", "title": "Kubernetes cluster overview", "folder": "Platform", "tags": []string{"kubernetes"}, "url": "/d/k8s-cluster-overview/kubernetes-cluster-overview"},
		{"uid": "checkout-web", "title": "Checkout web", "folder": "Checkout", "tags": []string{"checkout"}, "url": "/d/checkout-web/checkout-web"},
	}
}

func grafSearch(_ context.Context, _ Instance, args map[string]any) (*mcp.CallToolResult, error) {
	q := strings.TrimSpace(argStr(args, "query"))
	var out []map[string]any
	for _, d := range grafDashboards() {
		if q == "" || mentions(d["title"].(string)+" "+d["uid"].(string), strings.Fields(q)...) {
			out = append(out, d)
		}
	}
	if len(out) == 0 {
		return text("No dashboards match %q.", q), nil
	}
	return jsonResult(out), nil
}

func grafNeedDash(args map[string]any) (*mcp.CallToolResult, bool) {
	uid := argStr(args, "uid", "dashboardUid")
	if uid == dashUID {
		return nil, true
	}
	for _, d := range grafDashboards() {
		if d["uid"] == uid {
			return text("Dashboard %s (%s) has no panels with data in this simulation.", uid, d["title"]), false
		}
	}
	return errResult("dashboard with uid %q not found", uid), false
}

func grafModel() map[string]any {
	var panels []map[string]any
	for i, p := range grafPanels() {
		panels = append(panels, map[string]any{
			"id": p.ID, "title": p.Title, "type": p.Type,
			"gridPos":     map[string]int{"x": (i % 2) * 12, "y": (i / 2) * 8, "w": 12, "h": 8},
			"datasource":  map[string]string{"uid": p.DSUID},
			"targets":     []map[string]string{{"refId": "A", "expr": p.Expr}},
			"fieldConfig": map[string]any{"defaults": map[string]string{"unit": p.Unit}},
		})
	}
	return map[string]any{
		"uid": dashUID, "title": dashTitle, "version": 23, "tags": []string{"payments", "slo"},
		"time":        map[string]string{"from": "now-3h", "to": "now"},
		"templating":  map[string]any{"list": []map[string]any{{"name": "cluster", "type": "query", "current": map[string]string{"value": badCluster}, "options": clusters()}}},
		"annotations": map[string]any{"list": []map[string]string{{"name": "Deploys", "datasource": "-- Grafana --", "tags": "deploy"}}},
		"panels":      panels,
	}
}

func grafDashboard(_ context.Context, _ Instance, args map[string]any) (*mcp.CallToolResult, error) {
	if r, ok := grafNeedDash(args); !ok {
		return r, nil
	}
	return jsonResult(map[string]any{"dashboard": grafModel(), "meta": map[string]any{"folderTitle": "Payments", "updated": "2026-11-02T12:40:00Z"}}), nil
}

func grafSummary(_ context.Context, _ Instance, args map[string]any) (*mcp.CallToolResult, error) {
	if r, ok := grafNeedDash(args); !ok {
		return r, nil
	}
	var ps []map[string]any
	for _, p := range grafPanels() {
		ps = append(ps, map[string]any{"id": p.ID, "title": p.Title, "type": p.Type, "queries": 1})
	}
	return jsonResult(map[string]any{"uid": dashUID, "title": dashTitle, "tags": []string{"payments", "slo"}, "time": "now-3h to now",
		"variables": []string{"cluster (current: k8s-3)"}, "panels": ps,
		"note": "5xx rate and p99 latency jump at 02:15Z on k8s-3; annotation 'deploy " + badCommit + "' at 02:14Z"}), nil
}

func grafPanelQueries(_ context.Context, _ Instance, args map[string]any) (*mcp.CallToolResult, error) {
	if r, ok := grafNeedDash(args); !ok {
		return r, nil
	}
	cluster := badCluster
	if v, ok := args["variables"].(map[string]any); ok {
		if c, ok := v["cluster"].(string); ok && c != "" {
			cluster = c
		}
	}
	id := argInt(args, 0, "panelId")
	var out []map[string]any
	for _, p := range grafPanels() {
		if id != 0 && p.ID != id {
			continue
		}
		out = append(out, map[string]any{"panelId": p.ID, "title": p.Title, "query": strings.ReplaceAll(p.Expr, "$cluster", cluster), "datasource": map[string]string{"uid": p.DSUID}})
	}
	if len(out) == 0 {
		return errResult("dashboard %s has no panel with id %d", dashUID, id), nil
	}
	return jsonResult(out), nil
}

func grafProperty(_ context.Context, _ Instance, args map[string]any) (*mcp.CallToolResult, error) {
	if r, ok := grafNeedDash(args); !ok {
		return r, nil
	}
	path := argStr(args, "jsonPath")
	m := grafModel()
	switch {
	case path == "$.title":
		return jsonResult(m["title"]), nil
	case strings.Contains(path, "title") && strings.Contains(path, "panels"):
		var ts []string
		for _, p := range grafPanels() {
			ts = append(ts, p.Title)
		}
		return jsonResult(ts), nil
	case strings.HasPrefix(path, "$.panels"):
		return jsonResult(m["panels"]), nil
	case strings.HasPrefix(path, "$.templating"):
		return jsonResult(m["templating"]), nil
	case strings.HasPrefix(path, "$.annotations"):
		return jsonResult(m["annotations"]), nil
	}
	return text("JSONPath %q matched nothing in dashboard %s.", path, dashUID), nil
}

func grafAnnotationList() []map[string]any {
	return []map[string]any{
		{"id": 90412, "dashboardUID": dashUID, "time": int64(deployUnix) * 1000, "timeEnd": int64(deployUnix) * 1000, "text": "deploy " + badCommit,
			"tags": []string{"deploy", payApp, badCluster}, "login": "gitlab-ci", "isoTime": tDeploy},
		{"id": 89977, "dashboardUID": dashUID, "time": grafUnix(tPrevDeploy) * 1000, "timeEnd": grafUnix(tPrevDeploy) * 1000, "text": "deploy " + goodCommit,
			"tags": []string{"deploy", payApp}, "login": "gitlab-ci", "isoTime": tPrevDeploy},
	}
}

func grafAnnotations(_ context.Context, _ Instance, args map[string]any) (*mcp.CallToolResult, error) {
	if uid := argStr(args, "dashboardUid"); uid != "" && uid != dashUID {
		return text("No annotations on dashboard %s in the requested range.", uid), nil
	}
	from, to := int64(argInt(args, 0, "from")), int64(argInt(args, 0, "to"))
	var tags []string
	if ts, ok := args["tags"].([]any); ok {
		for _, t := range ts {
			tags = append(tags, fmt.Sprint(t))
		}
	}
	var out []map[string]any
	for _, a := range grafAnnotationList() {
		t := a["time"].(int64)
		if (from > 0 && t < from) || (to > 0 && t > to) {
			continue
		}
		if len(tags) > 0 && !mentions(strings.Join(a["tags"].([]string), " "), tags...) {
			continue
		}
		out = append(out, a)
	}
	if len(out) == 0 {
		return text("No annotations match the request (%s).", argSummary(args)), nil
	}
	return jsonResult(out), nil
}

func grafDatasources(_ context.Context, _ Instance, args map[string]any) (*mcp.CallToolResult, error) {
	all := []map[string]any{
		{"uid": gdsA, "name": "Prometheus A (k8s-1, k8s-2)", "type": "prometheus", "isDefault": false},
		{"uid": gdsB, "name": "Prometheus B (k8s-3)", "type": "prometheus", "isDefault": true},
		{"uid": gdsC, "name": "Prometheus C (k8s-4, k8s-5)", "type": "prometheus", "isDefault": false},
		{"uid": gdsLoki, "name": "Loki prod", "type": "loki", "isDefault": false},
		{"uid": "tempo-prod", "name": "Tempo prod", "type": "tempo", "isDefault": false},
	}
	ty, name := argStr(args, "type"), argStr(args, "name")
	var out []map[string]any
	for _, d := range all {
		if (ty == "" || strings.EqualFold(ty, d["type"].(string))) && (name == "" || mentions(d["name"].(string), name)) {
			out = append(out, d)
		}
	}
	if len(out) == 0 {
		return text("No datasources match type=%q name=%q.", ty, name), nil
	}
	return jsonResult(out), nil
}

// grafSeries renders the 5-minute points from 01:55Z to 02:35Z of one
// signal, with the step at the onset when incident is true.
func grafSeries(before, after float64, incident bool) [][2]any {
	var vs [][2]any
	start := time.Date(2026, 11, 30, 1, 55, 0, 0, time.UTC)
	for i := 0; i <= 8; i++ {
		t := start.Add(time.Duration(i) * 5 * time.Minute)
		v := before
		if incident && t.Unix() >= onsetUnix {
			v = after
		}
		vs = append(vs, [2]any{t.Unix(), fmt.Sprintf("%g", v)})
	}
	return vs
}

// grafSignal decides what a PromQL expression asks about.
func grafSignal(expr string) (label string, before, after float64, ok bool) {
	switch {
	case !mentions(expr, payApp, "payments"):
		return "", 0, 0, false
	case mentions(expr, "histogram_quantile", "duration", "latency"):
		return "p99 latency (s)", p99Before, p99After, true
	case mentions(expr, "5..", "code=~\"5", "status=~\"5", "5xx", "error"):
		return "5xx ratio", errRateBefore, errRateAfter, true
	case mentions(expr, "restarts"):
		return "restarts per 10m", 0, 3, true
	case mentions(expr, "http_requests_total"):
		return "requests per second", 412, 397, true
	}
	return "", 0, 0, false
}

func grafQueryProm(_ context.Context, _ Instance, args map[string]any) (*mcp.CallToolResult, error) {
	ds, expr := argStr(args, "datasourceUid"), argStr(args, "expr")
	if expr == "" {
		return errResult("expr is required"), nil
	}
	return grafPromAnswer(ds, expr)
}

func grafPromAnswer(ds, expr string) (*mcp.CallToolResult, error) {
	if ds != gdsA && ds != gdsB && ds != gdsC {
		return errResult("datasource %q not found or not a Prometheus datasource; see list_datasources", ds), nil
	}
	label, before, after, ok := grafSignal(expr)
	if !ok {
		return text("Query returned no series on %s: %s", ds, expr), nil
	}
	incident := ds == gdsB && !mentions(expr, "k8s-1", "k8s-2", "k8s-4", "k8s-5")
	cluster := badCluster
	if !incident {
		cluster = map[string]string{gdsA: "k8s-1", gdsC: "k8s-4", gdsB: "k8s-3"}[ds]
	}
	return jsonResult(map[string]any{
		"resultType": "matrix", "datasourceUid": ds, "signal": label,
		"result": []map[string]any{{"metric": map[string]string{"service": payService, "cluster": cluster}, "values": grafSeries(before, after, incident)}},
	}), nil
}

func grafHistogram(_ context.Context, _ Instance, args map[string]any) (*mcp.CallToolResult, error) {
	m := argStr(args, "metric")
	expr := fmt.Sprintf("histogram_quantile(%g, sum by (le) (rate(%s_bucket{%s}[5m])))", float64(argInt(args, 99, "percentile"))/100, m, argStr(args, "labels"))
	if !mentions(m, "duration", "latency") {
		return text("Query returned no series: %s", expr), nil
	}
	if !mentions(argStr(args, "labels"), "payments") {
		expr += " payments-api" // the only service with a histogram in the data
	}
	return grafPromAnswer(argStr(args, "datasourceUid"), expr)
}

func grafLoki(_ context.Context, _ Instance, args map[string]any) (*mcp.CallToolResult, error) {
	q := argStr(args, "logql")
	if argStr(args, "datasourceUid") != gdsLoki {
		return errResult("datasource %q not found or not a Loki datasource; the Loki datasource uid is %s", argStr(args, "datasourceUid"), gdsLoki), nil
	}
	if !mentions(q, "payments") || mentions(q, "k8s-1", "k8s-2", "k8s-4", "k8s-5") {
		return text("No log lines match %s in the requested range.", q), nil
	}
	lines := []map[string]string{
		{"time": "2026-11-30T02:15:04Z", "pod": "payments-api-7f9c6d-xk2lp", "line": "ERROR " + hikariTimeout},
		{"time": "2026-11-30T02:15:09Z", "pod": "payments-api-7f9c6d-q8r4t", "line": "ERROR com.example.payments.ChargeController - charge failed: " + poolExhausted},
		{"time": "2026-11-30T02:16:40Z", "pod": "payments-api-7f9c6d-m2v9n", "line": "ERROR " + hikariTimeout},
		{"time": "2026-11-30T02:18:02Z", "pod": "payments-api-7f9c6d-xk2lp", "line": "WARN liveness probe /healthz timed out waiting for DB connection"},
	}
	if n := argInt(args, 10, "limit"); n < len(lines) && n > 0 {
		lines = lines[:n]
	}
	return jsonResult(map[string]any{"datasourceUid": gdsLoki, "query": q, "cluster": badCluster, "lines": lines}), nil
}

// grafUnix converts a story time to Unix seconds.
func grafUnix(rfc3339 string) int64 {
	t, err := time.Parse(time.RFC3339, rfc3339)
	if err != nil {
		panic("fleet: bad story time " + rfc3339) // programmer error in data.go
	}
	return t.Unix()
}
