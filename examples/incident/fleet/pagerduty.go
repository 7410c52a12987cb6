package fleet

import (
	"context"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
)

// The pagerduty kind mirrors the PagerDuty MCP servers (incidents, notes, log
// entries, on-calls, schedules, services, escalation policies). There is no
// fixture for it. Its data: incident P7Q2R1X for service "Payments API",
// triggered 02:17Z and assigned to the on-call a.smith.

// pagerdutyKind is the simulated PagerDuty server.
func pagerdutyKind() kindSpec {
	return kindSpec{
		Tools:   func() []toolSpec { return bind(pagerdutyTools(), pagerdutyHandlers(), fallbackHandler) },
		Default: fallbackHandler("pagerduty", true),
	}
}

const (
	pdIncidentID = "Id of the PagerDuty incident, e.g. PABC123, as listed by list_incidents."
	pdFrom       = "Email of the user acting, sent as the From header PagerDuty requires for changes."
	pdSince      = "Start of the time range, ISO 8601."
	pdUntil      = "End of the time range, ISO 8601."
)

const (
	pdServiceID = "PSVC9PAY"
	pdPolicyID  = "PEPPAY01"
	pdSchedule  = "PSCHPAY1"
)

func pagerdutyTools() []toolSpec {
	return []toolSpec{
		{Name: "list_incidents", Title: "List incidents", ReadOnly: true,
			Desc: "List PagerDuty incidents, newest first, with their number, title, status (triggered, acknowledged, resolved), urgency, service, assignees and creation time. By default only open incidents are returned.",
			Params: []param{
				pArr("statuses", "string", "Incident states to include: triggered, acknowledged, resolved. Default: triggered and acknowledged."),
				pArr("service_ids", "string", "Only incidents of these services."),
				pArr("user_ids", "string", "Only incidents assigned to these users."),
				pEnum("urgency", "Only incidents of this urgency.", "high", "low"),
				pStr("since", pdSince),
				pStr("until", pdUntil),
				pInt("limit", "Largest number of incidents to return.", 25),
			}},
		{Name: "get_incident", Title: "Get incident", ReadOnly: true,
			Desc:   "Return one incident in full: status, urgency, service, escalation policy, assignments, acknowledgements, the alert that triggered it and its links.",
			Params: []param{pReq("incident_id", pdIncidentID)}},
		{Name: "acknowledge_incident", Title: "Acknowledge incident",
			Desc:   "Acknowledge an incident so that it stops escalating while someone works on it.",
			Params: []param{pReq("incident_id", pdIncidentID), pStr("from_email", pdFrom)}},
		{Name: "resolve_incident", Title: "Resolve incident",
			Desc:   "Resolve an incident once the problem is fixed, optionally with a resolution note.",
			Params: []param{pReq("incident_id", pdIncidentID), pStr("resolution", "Short note on how it was resolved."), pStr("from_email", pdFrom)}},
		{Name: "add_note", Title: "Add note to incident",
			Desc:   "Add a note to an incident's timeline, visible to every responder.",
			Params: []param{pReq("incident_id", pdIncidentID), pReq("content", "Text of the note."), pStr("from_email", pdFrom)}},
		{Name: "list_incident_notes", Title: "List incident notes", ReadOnly: true,
			Desc:   "List the notes responders added to an incident, oldest first.",
			Params: []param{pReq("incident_id", pdIncidentID)}},
		{Name: "list_incident_log_entries", Title: "List incident log entries", ReadOnly: true,
			Desc:   "Return the timeline of an incident: triggers, notifications sent, acknowledgements, escalations, reassignments and resolution, with times and actors.",
			Params: []param{pReq("incident_id", pdIncidentID), pInt("limit", "Largest number of entries to return.", 50)}},
		{Name: "list_oncalls", Title: "List on-calls", ReadOnly: true,
			Desc: "Say who is on call now (or in a time range) for schedules and escalation policies, with the escalation level and the shift's start and end.",
			Params: []param{
				pArr("schedule_ids", "string", "Only these schedules."),
				pArr("escalation_policy_ids", "string", "Only these escalation policies."),
				pArr("user_ids", "string", "Only these users."),
				pStr("since", pdSince+" Default: now."),
				pStr("until", pdUntil+" Default: now."),
				pBool("earliest", "Return only the earliest on-call per user, policy and level."),
			}},
		{Name: "list_schedules", Title: "List schedules", ReadOnly: true,
			Desc:   "List on-call schedules with their ids, time zones and the teams they belong to.",
			Params: []param{pStr("query", "Only schedules whose name contains this text."), pInt("limit", "Largest number of schedules to return.", 25)}},
		{Name: "list_services", Title: "List services", ReadOnly: true,
			Desc:   "List PagerDuty services with their ids, status (active, warning, critical, maintenance, disabled) and escalation policy.",
			Params: []param{pStr("query", "Only services whose name contains this text."), pArr("team_ids", "string", "Only services of these teams."), pInt("limit", "Largest number of services to return.", 25)}},
		{Name: "get_service", Title: "Get service", ReadOnly: true,
			Desc:   "Return one service with its status, escalation policy, integrations and urgency rules.",
			Params: []param{pReq("service_id", "Id of the service, e.g. PSERV12, as listed by list_services.")}},
		{Name: "list_escalation_policies", Title: "List escalation policies", ReadOnly: true,
			Desc:   "List escalation policies with their rules: who is notified at each level and after how many minutes.",
			Params: []param{pStr("query", "Only policies whose name contains this text."), pArr("user_ids", "string", "Only policies that include these users.")}},
	}
}

func pagerdutyHandlers() map[string]handler {
	return map[string]handler{
		"list_incidents":            pdList,
		"get_incident":              pdGet,
		"acknowledge_incident":      pdAck,
		"resolve_incident":          pdResolve,
		"add_note":                  pdAddNote,
		"list_incident_notes":       pdNotes,
		"list_incident_log_entries": pdLog,
		"list_oncalls":              pdOncalls,
		"list_services":             pdServices,
		"get_service":               pdGetService,
		"list_escalation_policies":  pdPolicies,
	}
}

func pdIncidents() []map[string]any {
	return []map[string]any{
		{"id": pdIncident, "incident_number": 3318, "title": "[FIRING:1] " + alert5xx + " payments-api k8s-3 payments", "status": "triggered", "urgency": "high",
			"service": map[string]string{"id": pdServiceID, "summary": pdService}, "escalation_policy": map[string]string{"id": pdPolicyID, "summary": "Payments"},
			"assignments": []map[string]string{{"assignee": onCall, "at": tAlert5xx}}, "created_at": tAlert5xx,
			"body":     "Alertmanager: " + alert5xx + " severity=critical cluster=" + badCluster + " namespace=" + payNamespace + ". 5xx ratio 38% (threshold 5%).",
			"html_url": "https://example.pagerduty.com/incidents/" + pdIncident},
		{"id": "P3K8M0D", "incident_number": 3297, "title": "checkout-web latency on k8s-1", "status": "resolved", "urgency": "low",
			"service": map[string]string{"id": "PSVC4CHK", "summary": "Checkout"}, "escalation_policy": map[string]string{"id": "PEPCHK01", "summary": "Checkout"},
			"assignments": []map[string]string{}, "created_at": "2026-11-27T09:10:00Z", "resolved_at": "2026-11-27T09:58:00Z"},
	}
}

func pdFind(id string) (map[string]any, bool) {
	for _, inc := range pdIncidents() {
		if strings.EqualFold(inc["id"].(string), strings.TrimSpace(id)) {
			return inc, true
		}
	}
	return nil, false
}

// pdList filters by status (default: open ones) and service.
func pdList(_ context.Context, _ Instance, args map[string]any) (*mcp.CallToolResult, error) {
	statuses := argStr(args, "statuses")
	if statuses == "" || statuses == "[]" {
		statuses = "triggered acknowledged"
	}
	svc := argStr(args, "service_ids")
	var out []map[string]any
	for _, inc := range pdIncidents() {
		if !mentions(statuses, inc["status"].(string)) {
			continue
		}
		if svc != "" && svc != "[]" && !mentions(svc, inc["service"].(map[string]string)["id"]) {
			continue
		}
		out = append(out, inc)
	}
	if len(out) == 0 {
		return text("No incidents match statuses=%s service_ids=%s.", statuses, nonEmpty(svc, "any")), nil
	}
	return jsonResult(map[string]any{"incidents": out, "total": len(out)}), nil
}

func pdGet(_ context.Context, _ Instance, args map[string]any) (*mcp.CallToolResult, error) {
	inc, ok := pdFind(argStr(args, "incident_id"))
	if !ok {
		return errResult("incident %q not found", argStr(args, "incident_id")), nil
	}
	return jsonResult(inc), nil
}

func pdAck(_ context.Context, _ Instance, args map[string]any) (*mcp.CallToolResult, error) {
	inc, ok := pdFind(argStr(args, "incident_id"))
	if !ok {
		return errResult("incident %q not found", argStr(args, "incident_id")), nil
	}
	if inc["status"] == "resolved" {
		return errResult("incident %s is resolved and cannot be acknowledged", inc["id"]), nil
	}
	return text("Incident %s acknowledged by %s; escalation paused.", inc["id"], nonEmpty(argStr(args, "from_email"), onCall+"@example.com")), nil
}

func pdResolve(_ context.Context, _ Instance, args map[string]any) (*mcp.CallToolResult, error) {
	inc, ok := pdFind(argStr(args, "incident_id"))
	if !ok {
		return errResult("incident %q not found", argStr(args, "incident_id")), nil
	}
	return text("Incident %s resolved (%s).", inc["id"], nonEmpty(argStr(args, "resolution"), "no resolution note")), nil
}

func pdAddNote(_ context.Context, _ Instance, args map[string]any) (*mcp.CallToolResult, error) {
	inc, ok := pdFind(argStr(args, "incident_id"))
	if !ok {
		return errResult("incident %q not found", argStr(args, "incident_id")), nil
	}
	if argStr(args, "content") == "" {
		return errResult("content is required"), nil
	}
	return text("Note PNOTE7X2 added to incident %s.", inc["id"]), nil
}

func pdNotes(_ context.Context, _ Instance, args map[string]any) (*mcp.CallToolResult, error) {
	inc, ok := pdFind(argStr(args, "incident_id"))
	if !ok {
		return errResult("incident %q not found", argStr(args, "incident_id")), nil
	}
	if inc["id"] != pdIncident {
		return text("Incident %s has no notes.", inc["id"]), nil
	}
	return jsonResult([]map[string]string{
		{"user": onCall, "created_at": "2026-11-30T02:22:00Z", "content": "Investigating. Tracking in " + ticketKey + ", chat in " + slackChan + "."},
	}), nil
}

func pdLog(_ context.Context, _ Instance, args map[string]any) (*mcp.CallToolResult, error) {
	inc, ok := pdFind(argStr(args, "incident_id"))
	if !ok {
		return errResult("incident %q not found", argStr(args, "incident_id")), nil
	}
	if inc["id"] != pdIncident {
		return jsonResult([]map[string]string{{"type": "resolve_log_entry", "created_at": "2026-11-27T09:58:00Z", "summary": "Resolved by timeout"}}), nil
	}
	return jsonResult([]map[string]string{
		{"type": "trigger_log_entry", "created_at": tAlert5xx, "summary": "Triggered through the Alertmanager integration: " + alert5xx},
		{"type": "notify_log_entry", "created_at": "2026-11-30T02:17:05Z", "summary": "Notified " + onCall + " by push and phone"},
		{"type": "annotate_log_entry", "created_at": "2026-11-30T02:22:00Z", "summary": onCall + " added a note"},
	}), nil
}

func pdOncalls(_ context.Context, _ Instance, args map[string]any) (*mcp.CallToolResult, error) {
	all := []map[string]any{
		{"user": onCall, "email": onCall + "@example.com", "schedule": map[string]string{"id": pdSchedule, "summary": "Payments primary"},
			"escalation_policy": map[string]string{"id": pdPolicyID, "summary": "Payments"}, "escalation_level": 1, "start": "2026-11-29T18:00:00Z", "end": "2026-11-30T18:00:00Z"},
		{"user": reviewer, "email": reviewer + "@example.com", "schedule": map[string]string{"id": "PSCHPAY2", "summary": "Payments secondary"},
			"escalation_policy": map[string]string{"id": pdPolicyID, "summary": "Payments"}, "escalation_level": 2, "start": "2026-11-29T18:00:00Z", "end": "2026-11-30T18:00:00Z"},
		{"user": "r.kumar", "email": "r.kumar@example.com", "schedule": map[string]string{"id": "PSCHCHK1", "summary": "Checkout primary"},
			"escalation_policy": map[string]string{"id": "PEPCHK01", "summary": "Checkout"}, "escalation_level": 1, "start": "2026-11-29T09:00:00Z", "end": "2026-12-06T09:00:00Z"},
	}
	sch, pol := argStr(args, "schedule_ids"), argStr(args, "escalation_policy_ids")
	var out []map[string]any
	for _, o := range all {
		if sch != "" && sch != "[]" && !mentions(sch, o["schedule"].(map[string]string)["id"]) {
			continue
		}
		if pol != "" && pol != "[]" && !mentions(pol, o["escalation_policy"].(map[string]string)["id"]) {
			continue
		}
		out = append(out, o)
	}
	if len(out) == 0 {
		return text("Nobody is on call for schedule_ids=%s escalation_policy_ids=%s.", sch, pol), nil
	}
	return jsonResult(out), nil
}

func pdServiceList() []map[string]any {
	return []map[string]any{
		{"id": pdServiceID, "name": pdService, "status": "critical", "escalation_policy": map[string]string{"id": pdPolicyID, "summary": "Payments"},
			"integrations": []string{"Alertmanager (prometheus-b)"}, "description": "payments-api on all production clusters"},
		{"id": "PSVC4CHK", "name": "Checkout", "status": "active", "escalation_policy": map[string]string{"id": "PEPCHK01", "summary": "Checkout"}},
		{"id": "PSVC7LDG", "name": "Ledger", "status": "active", "escalation_policy": map[string]string{"id": pdPolicyID, "summary": "Payments"}},
	}
}

func pdServices(_ context.Context, _ Instance, args map[string]any) (*mcp.CallToolResult, error) {
	q := argStr(args, "query")
	var out []map[string]any
	for _, s := range pdServiceList() {
		if q == "" || mentions(s["name"].(string), q) {
			out = append(out, s)
		}
	}
	if len(out) == 0 {
		return text("No services match %q.", q), nil
	}
	return jsonResult(out), nil
}

func pdGetService(_ context.Context, _ Instance, args map[string]any) (*mcp.CallToolResult, error) {
	id := argStr(args, "service_id")
	for _, s := range pdServiceList() {
		if strings.EqualFold(s["id"].(string), id) {
			return jsonResult(s), nil
		}
	}
	return errResult("service %q not found; see list_services", id), nil
}

func pdPolicies(_ context.Context, _ Instance, args map[string]any) (*mcp.CallToolResult, error) {
	all := []map[string]any{
		{"id": pdPolicyID, "name": "Payments", "rules": []map[string]any{
			{"level": 1, "escalation_delay_in_minutes": 15, "targets": []string{"schedule Payments primary"}},
			{"level": 2, "escalation_delay_in_minutes": 15, "targets": []string{"schedule Payments secondary"}},
		}},
		{"id": "PEPCHK01", "name": "Checkout", "rules": []map[string]any{{"level": 1, "escalation_delay_in_minutes": 30, "targets": []string{"schedule Checkout primary"}}}},
	}
	q := argStr(args, "query")
	var out []map[string]any
	for _, p := range all {
		if q == "" || mentions(p["name"].(string), q) {
			out = append(out, p)
		}
	}
	if len(out) == 0 {
		return text("No escalation policies match %q.", q), nil
	}
	return jsonResult(out), nil
}
