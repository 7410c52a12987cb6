package fleet

import (
	"context"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
)

// The statuspage kind mirrors the community Atlassian Statuspage MCP servers
// (incidents and components of one public status page). There is no fixture
// for it. Its data: "Degraded card payments", investigating since 02:25Z.

// statuspageKind is the simulated Statuspage server.
func statuspageKind() kindSpec {
	return kindSpec{
		Tools:   func() []toolSpec { return bind(statuspageTools(), statuspageHandlers(), fallbackHandler) },
		Default: fallbackHandler("statuspage", true),
	}
}

const (
	spPage     = "Id of the status page; the configured page when empty."
	spIncident = "Id of the incident, as listed by list_incidents."
	spStatus   = "Customer-facing status of the incident."
)

func spStatuses() []string { return []string{"investigating", "identified", "monitoring", "resolved"} }
func spComponentStatuses() []string {
	return []string{"operational", "degraded_performance", "partial_outage", "major_outage", "under_maintenance"}
}

func statuspageTools() []toolSpec {
	return []toolSpec{
		{Name: "list_incidents", Title: "List incidents", ReadOnly: true,
			Desc: "List the incidents of the status page, newest first, with their status, impact, affected components and the latest update shown to customers. Filter to unresolved ones to see what is public right now.",
			Params: []param{
				pStr("page_id", spPage),
				pEnum("status", "Only incidents in this state; 'unresolved' covers everything not resolved.", "unresolved", "investigating", "identified", "monitoring", "resolved"),
				pStr("q", "Only incidents whose title or updates contain this text."),
				pInt("limit", "Largest number of incidents to return.", 20),
			}},
		{Name: "get_incident", Title: "Get incident", ReadOnly: true,
			Desc:   "Return one status page incident with every update posted to customers, its impact and the state of each affected component.",
			Params: []param{pStr("page_id", spPage), pReq("incident_id", spIncident)}},
		{Name: "create_incident", Title: "Create incident",
			Desc: "Open a public incident on the status page with a first customer-facing message, and optionally mark affected components. Subscribers are notified unless told otherwise, so write for customers.",
			Params: []param{
				pStr("page_id", spPage),
				pReq("name", "Title shown to customers, e.g. 'Delayed email delivery'."),
				pEnum("status", spStatus, spStatuses()...),
				pReq("body", "First update shown to customers."),
				pEnum("impact_override", "Impact to show instead of the one derived from the components.", "none", "minor", "major", "critical"),
				pArr("component_ids", "string", "Ids of the components affected."),
				pEnum("component_status", "Status to set on those components.", spComponentStatuses()...),
				pBool("deliver_notifications", "Notify subscribers. Default true."),
			}},
		{Name: "update_incident", Title: "Update incident",
			Desc: "Post an update to an open incident: change its status (e.g. to identified, monitoring or resolved), add a customer-facing message, and change component states.",
			Params: []param{
				pStr("page_id", spPage),
				pReq("incident_id", spIncident),
				pEnum("status", spStatus, spStatuses()...),
				pStr("body", "Message of the update shown to customers."),
				pArr("component_ids", "string", "Ids of components whose status to change."),
				pEnum("component_status", "New status of those components.", spComponentStatuses()...),
				pBool("deliver_notifications", "Notify subscribers of this update. Default true."),
			}},
		{Name: "list_components", Title: "List components", ReadOnly: true,
			Desc:   "List the components shown on the status page with their ids, groups and current status.",
			Params: []param{pStr("page_id", spPage)}},
		{Name: "get_component", Title: "Get component", ReadOnly: true,
			Desc:   "Return one component with its status, description and group.",
			Params: []param{pStr("page_id", spPage), pReq("component_id", "Id of the component, as listed by list_components.")}},
		{Name: "update_component_status", Title: "Update component status",
			Desc: "Set the public status of one component, e.g. back to operational after a fix. Prefer doing it through update_incident while an incident is open, so the change is explained.",
			Params: []param{
				pStr("page_id", spPage),
				pReq("component_id", "Id of the component."),
				pEnum("status", "New status of the component.", spComponentStatuses()...),
			}},
	}
}

func statuspageHandlers() map[string]handler {
	return map[string]handler{
		"list_incidents":          spList,
		"get_incident":            spGet,
		"list_components":         spComponents,
		"get_component":           spComponent,
		"create_incident":         spCreate,
		"update_incident":         spUpdate,
		"update_component_status": spSetComponent,
	}
}

const spIncidentID = "k4t2m9q1xz7c"

func spComponentList() []map[string]string {
	return []map[string]string{
		{"id": "cmp-card-payments", "name": "Card payments", "group": "Payments", "status": "degraded_performance"},
		{"id": "cmp-bank-transfers", "name": "Bank transfers", "group": "Payments", "status": "operational"},
		{"id": "cmp-checkout", "name": "Checkout", "group": "Storefront", "status": "operational"},
		{"id": "cmp-dashboard", "name": "Merchant dashboard", "group": "Storefront", "status": "operational"},
		{"id": "cmp-public-api", "name": "Public API", "group": "Platform", "status": "operational"},
	}
}

func spIncidents() []map[string]any {
	return []map[string]any{
		{"id": spIncidentID, "name": statusTitle, "status": "investigating", "impact": "major", "created_at": tStatus, "updated_at": tStatus,
			"components": []map[string]string{{"id": "cmp-card-payments", "name": "Card payments", "status": "degraded_performance"}},
			"incident_updates": []map[string]string{{"status": "investigating", "created_at": tStatus,
				"body": "We are investigating elevated error rates for card payments. Some payment attempts may fail or take longer than usual. Retrying is safe."}},
			"shortlink": "https://stspg.io/k4t2m9q1"},
		{"id": "p8w3n5r0hy2b", "name": "Delayed payout reports", "status": "resolved", "impact": "minor", "created_at": "2026-11-19T13:05:00Z", "updated_at": "2026-11-19T14:40:00Z",
			"components":       []map[string]string{{"id": "cmp-dashboard", "name": "Merchant dashboard", "status": "operational"}},
			"incident_updates": []map[string]string{{"status": "resolved", "created_at": "2026-11-19T14:40:00Z", "body": "Payout reports are up to date again."}}},
	}
}

func spList(_ context.Context, _ Instance, args map[string]any) (*mcp.CallToolResult, error) {
	st, q := argStr(args, "status"), argStr(args, "q")
	var out []map[string]any
	for _, inc := range spIncidents() {
		s := inc["status"].(string)
		if st != "" && !(st == s || (st == "unresolved" && s != "resolved")) {
			continue
		}
		if q != "" && !mentions(inc["name"].(string), strings.Fields(q)...) {
			continue
		}
		out = append(out, inc)
	}
	if len(out) == 0 {
		return text("No status page incidents match status=%q q=%q.", st, q), nil
	}
	return jsonResult(out), nil
}

func spFind(id string) (map[string]any, bool) {
	for _, inc := range spIncidents() {
		if inc["id"] == strings.TrimSpace(id) {
			return inc, true
		}
	}
	return nil, false
}

func spGet(_ context.Context, _ Instance, args map[string]any) (*mcp.CallToolResult, error) {
	id := argStr(args, "incident_id")
	inc, ok := spFind(id)
	if !ok {
		return errResult("incident %q not found on this status page; see list_incidents", id), nil
	}
	return jsonResult(inc), nil
}

func spComponents(_ context.Context, _ Instance, _ map[string]any) (*mcp.CallToolResult, error) {
	return jsonResult(spComponentList()), nil
}

func spComponent(_ context.Context, _ Instance, args map[string]any) (*mcp.CallToolResult, error) {
	id := argStr(args, "component_id")
	for _, c := range spComponentList() {
		if c["id"] == id || strings.EqualFold(c["name"], id) {
			return jsonResult(c), nil
		}
	}
	return errResult("component %q not found; see list_components", id), nil
}

func spValid(v string, allowed []string) bool {
	if v == "" {
		return true
	}
	for _, a := range allowed {
		if v == a {
			return true
		}
	}
	return false
}

func spCreate(_ context.Context, _ Instance, args map[string]any) (*mcp.CallToolResult, error) {
	if argStr(args, "name") == "" || argStr(args, "body") == "" {
		return errResult("name and body are required"), nil
	}
	if !spValid(argStr(args, "status"), spStatuses()) {
		return errResult("status must be one of %v", spStatuses()), nil
	}
	return text("Status page incident created: id r6v1c8j3kd5e %q, status %s. Subscribers notified.", argStr(args, "name"), nonEmpty(argStr(args, "status"), "investigating")), nil
}

func spUpdate(_ context.Context, _ Instance, args map[string]any) (*mcp.CallToolResult, error) {
	id := argStr(args, "incident_id")
	inc, ok := spFind(id)
	if !ok {
		return errResult("incident %q not found on this status page", id), nil
	}
	st := argStr(args, "status")
	if !spValid(st, spStatuses()) {
		return errResult("status must be one of %v", spStatuses()), nil
	}
	return text("Incident %s %q updated: status %s -> %s.", id, inc["name"], inc["status"], nonEmpty(st, inc["status"].(string))), nil
}

func spSetComponent(_ context.Context, _ Instance, args map[string]any) (*mcp.CallToolResult, error) {
	st := argStr(args, "status")
	if !spValid(st, spComponentStatuses()) || st == "" {
		return errResult("status must be one of %v", spComponentStatuses()), nil
	}
	for _, c := range spComponentList() {
		if c["id"] == argStr(args, "component_id") {
			return text("Component %s (%s) status: %s -> %s.", c["id"], c["name"], c["status"], st), nil
		}
	}
	return errResult("component %q not found; see list_components", argStr(args, "component_id")), nil
}
