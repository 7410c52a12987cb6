package fleet

import (
	"context"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
)

// The alertmanager kind mirrors the community Prometheus Alertmanager MCP
// servers (alerts, groups, silences, receivers, status). There is no fixture
// for it; the tool set follows the Alertmanager v2 API they wrap. Its data:
// PaymentsAPIHigh5xxRate and PaymentsAPIPodCrashLooping firing on k8s-3.

// alertmanagerKind is the simulated Alertmanager server.
func alertmanagerKind() kindSpec {
	return kindSpec{
		Tools:   func() []toolSpec { return bind(alertmanagerTools(), alertmanagerHandlers(), fallbackHandler) },
		Default: fallbackHandler("alertmanager", true),
	}
}

const amFilter = "Label matchers in Alertmanager syntax, comma separated, e.g. 'alertname=\"HighLatency\",severity=~\"critical|warning\"'."

func alertmanagerTools() []toolSpec {
	return []toolSpec{
		{Name: "get_status", Title: "Get Alertmanager status", ReadOnly: true,
			Desc: "Report the Alertmanager's own state: version, uptime, cluster peers and the loaded configuration (routes, inhibit rules, receivers)."},
		{Name: "list_alerts", Title: "List alerts", ReadOnly: true,
			Desc: "List the alerts the Alertmanager currently holds, with labels, annotations, start time, state and the receivers they route to. Filter by label matchers and by state to find what is firing right now.",
			Params: []param{
				pStr("filter", amFilter),
				pBool("active", "Include active (firing, not silenced or inhibited) alerts. Default true."),
				pBool("silenced", "Include alerts muted by a silence. Default true."),
				pBool("inhibited", "Include alerts suppressed by an inhibit rule. Default true."),
				pBool("unprocessed", "Include alerts not yet processed by the routing tree. Default true."),
				pStr("receiver", "Regular expression; keep only alerts routed to a matching receiver."),
			}},
		{Name: "get_alert", Title: "Get alert", ReadOnly: true,
			Desc: "Return one alert in full, found by its fingerprint or, more conveniently, by its alertname (the first matching alert is returned with the count of others).",
			Params: []param{
				pStr("fingerprint", "Fingerprint of the alert, as shown by list_alerts."),
				pStr("alertname", "Value of the alertname label, used when no fingerprint is given."),
			}},
		{Name: "list_alert_groups", Title: "List alert groups", ReadOnly: true,
			Desc: "List alerts grouped the way the routing tree groups them for notification, with each group's labels and receiver.",
			Params: []param{
				pStr("filter", amFilter),
				pBool("active", "Include active alerts. Default true."),
				pBool("silenced", "Include silenced alerts. Default true."),
				pBool("inhibited", "Include inhibited alerts. Default true."),
				pStr("receiver", "Regular expression; keep only groups for a matching receiver."),
			}},
		{Name: "list_silences", Title: "List silences", ReadOnly: true,
			Desc: "List silences with their matchers, author, comment, time window and state (active, pending, expired).",
			Params: []param{
				pStr("filter", "Label matchers; keep only silences whose matchers overlap them."),
				pEnum("state", "Keep only silences in this state.", "active", "pending", "expired"),
			}},
		{Name: "get_silence", Title: "Get silence", ReadOnly: true,
			Desc:   "Return one silence by id.",
			Params: []param{pReq("silence_id", "UUID of the silence.")}},
		{Name: "create_silence", Title: "Create silence", Handle: amCreateSilence,
			Desc: "Mute notifications for alerts matching a set of label matchers during a time window. Always give a comment saying why and who owns it; silences hide real problems if left behind.",
			Params: []param{
				{Name: "matchers", Type: "array", Items: "object", Required: true, Desc: "Label matchers an alert must satisfy to be silenced.",
					Props: []param{
						pReq("name", "Label name, e.g. alertname."),
						pReq("value", "Label value or regular expression."),
						{Name: "isRegex", Type: "boolean", Desc: "Treat value as a regular expression."},
						{Name: "isEqual", Type: "boolean", Desc: "true for = / =~, false for != / !~.", Default: true},
					}},
				pReq("startsAt", "Start of the silence, RFC 3339. Use the current time to silence immediately."),
				pReq("endsAt", "End of the silence, RFC 3339."),
				pReq("createdBy", "Who is creating the silence."),
				pReq("comment", "Why the alerts are silenced, ideally with a ticket reference."),
			}},
		{Name: "delete_silence", Title: "Expire silence", Destructive: true, Handle: amDeleteSilence,
			Desc:   "Expire a silence immediately so that matching alerts notify again.",
			Params: []param{pReq("silence_id", "UUID of the silence to expire.")}},
		{Name: "list_receivers", Title: "List receivers", ReadOnly: true,
			Desc: "List the notification receivers configured in the Alertmanager (PagerDuty services, Slack channels, e-mail, webhooks)."},
	}
}

func alertmanagerHandlers() map[string]handler {
	return map[string]handler{
		"get_status":        amStatus,
		"list_alerts":       amListAlerts,
		"get_alert":         amGetAlert,
		"list_alert_groups": amGroups,
		"list_silences":     amSilences,
		"get_silence":       amGetSilence,
		"list_receivers":    amReceivers,
	}
}

func amFingerprint(a alert) string {
	if a.Name == alert5xx {
		return "8c1f2a9d0b3e4f57"
	}
	return "3d7e9b1c5a2f0e84"
}

func amAlertJSON(a alert) map[string]any {
	return map[string]any{
		"fingerprint":  amFingerprint(a),
		"labels":       a.Labels,
		"annotations":  map[string]string{"summary": a.Summary, "runbook_url": "https://wiki.example/display/PAY/payments-api+runbook"},
		"startsAt":     a.StartsAt,
		"endsAt":       "0001-01-01T00:00:00Z",
		"status":       map[string]any{"state": "active", "silencedBy": []string{}, "inhibitedBy": []string{}},
		"receivers":    []map[string]string{{"name": "pagerduty-payments"}, {"name": "slack-inc-payments"}},
		"generatorURL": a.Generator,
	}
}

// amMatches applies simple label matchers (name=value, name=~regex-ish,
// name!=value); unknown syntax matches nothing rather than erroring.
func amMatches(filter string, labels map[string]string) bool {
	filter = strings.Trim(strings.TrimSpace(filter), "{}")
	if filter == "" {
		return true
	}
	for _, m := range strings.Split(filter, ",") {
		m = strings.TrimSpace(m)
		if m == "" {
			continue
		}
		var name, op, val string
		for _, o := range []string{"!~", "=~", "!=", "="} {
			if i := strings.Index(m, o); i > 0 {
				name, op, val = strings.TrimSpace(m[:i]), o, strings.Trim(strings.TrimSpace(m[i+len(o):]), "\"'")
				break
			}
		}
		if op == "" {
			return false
		}
		got := labels[name]
		var ok bool
		switch op {
		case "=":
			ok = got == val
		case "!=":
			ok = got != val
		case "=~", "!~":
			ok = false
			for _, alt := range strings.Split(val, "|") {
				alt = strings.Trim(alt, ".*^$()")
				if alt == "" || strings.Contains(strings.ToLower(got), strings.ToLower(alt)) {
					ok = true
				}
			}
			if op == "!~" {
				ok = !ok
			}
		}
		if !ok {
			return false
		}
	}
	return true
}

func amSelect(args map[string]any) []alert {
	var out []alert
	if v, ok := args["active"].(bool); ok && !v {
		return nil // every incident alert is active
	}
	for _, a := range incidentAlerts() {
		if !amMatches(argStr(args, "filter"), a.Labels) {
			continue
		}
		if r := argStr(args, "receiver"); r != "" && !mentions("pagerduty-payments slack-inc-payments", strings.Trim(r, ".*^$")) {
			continue
		}
		out = append(out, a)
	}
	return out
}

func amListAlerts(_ context.Context, in Instance, args map[string]any) (*mcp.CallToolResult, error) {
	as := amSelect(args)
	if len(as) == 0 {
		return text("No alerts on %s match filter %q.", in.Name, argStr(args, "filter")), nil
	}
	var out []map[string]any
	for _, a := range as {
		out = append(out, amAlertJSON(a))
	}
	return jsonResult(out), nil
}

func amGetAlert(_ context.Context, in Instance, args map[string]any) (*mcp.CallToolResult, error) {
	fp, name := argStr(args, "fingerprint"), argStr(args, "alertname")
	if fp == "" && name == "" {
		return errResult("give fingerprint or alertname"), nil
	}
	for _, a := range incidentAlerts() {
		if (fp != "" && fp == amFingerprint(a)) || (fp == "" && strings.EqualFold(name, a.Name)) {
			return jsonResult(amAlertJSON(a)), nil
		}
	}
	return text("No alert on %s with fingerprint %q / alertname %q; it may have resolved.", in.Name, fp, name), nil
}

func amGroups(_ context.Context, in Instance, args map[string]any) (*mcp.CallToolResult, error) {
	as := amSelect(args)
	if len(as) == 0 {
		return text("No alert groups on %s match filter %q.", in.Name, argStr(args, "filter")), nil
	}
	var alerts []map[string]any
	for _, a := range as {
		alerts = append(alerts, amAlertJSON(a))
	}
	return jsonResult([]map[string]any{{
		"labels":   map[string]string{"cluster": badCluster, "namespace": payNamespace},
		"receiver": map[string]string{"name": "pagerduty-payments"},
		"alerts":   alerts,
	}}), nil
}

// amSilence is the one expired silence in the data: last week's maintenance.
func amSilence() map[string]any {
	return map[string]any{
		"id": "5b0e7c2a-91d4-4f3e-8a61-2c7d9e0f4b13", "status": map[string]string{"state": "expired"},
		"matchers": []map[string]any{{"name": "cluster", "value": "k8s-2", "isRegex": false, "isEqual": true}},
		"startsAt": "2026-11-24T22:00:00Z", "endsAt": "2026-11-24T23:30:00Z",
		"createdBy": "r.kumar", "comment": "k8s-2 node pool upgrade window",
	}
}

func amSilences(_ context.Context, in Instance, args map[string]any) (*mcp.CallToolResult, error) {
	if st := argStr(args, "state"); st != "" && st != "expired" {
		return text("No %s silences on %s.", st, in.Name), nil
	}
	return jsonResult([]map[string]any{amSilence()}), nil
}

func amGetSilence(_ context.Context, in Instance, args map[string]any) (*mcp.CallToolResult, error) {
	id := argStr(args, "silence_id")
	if s := amSilence(); id == s["id"] {
		return jsonResult(s), nil
	}
	return errResult("silence %q not found on %s", id, in.Name), nil
}

func amCreateSilence(_ context.Context, in Instance, args map[string]any) (*mcp.CallToolResult, error) {
	if _, ok := args["matchers"].([]any); !ok {
		return errResult("matchers must be a non-empty array of {name, value}"), nil
	}
	if argStr(args, "endsAt") == "" || argStr(args, "comment") == "" {
		return errResult("endsAt and comment are required"), nil
	}
	return text("Silence created on %s: silenceID e4a1c7d2-3b6f-4e89-a05d-7f2c1b9e8d46 (until %s).", in.Name, argStr(args, "endsAt")), nil
}

func amDeleteSilence(_ context.Context, in Instance, args map[string]any) (*mcp.CallToolResult, error) {
	id := argStr(args, "silence_id")
	if id == "" {
		return errResult("silence_id is required"), nil
	}
	return text("Silence %s expired on %s.", id, in.Name), nil
}

func amStatus(_ context.Context, in Instance, _ map[string]any) (*mcp.CallToolResult, error) {
	return jsonResult(map[string]any{
		"name": in.Name, "versionInfo": map[string]string{"version": "0.28.1"}, "uptime": "2026-11-02T07:41:12Z",
		"cluster": map[string]any{"status": "ready", "peers": []string{"alertmanager-0", "alertmanager-1"}},
		"config":  map[string]any{"route": map[string]any{"receiver": "slack-default", "group_by": []string{"cluster", "namespace"}, "routes": []map[string]string{{"matchers": "namespace=payments", "receiver": "pagerduty-payments"}}}},
	}), nil
}

func amReceivers(_ context.Context, _ Instance, _ map[string]any) (*mcp.CallToolResult, error) {
	return jsonResult([]map[string]string{{"name": "slack-default"}, {"name": "pagerduty-payments"}, {"name": "slack-inc-payments"}, {"name": "email-platform"}}), nil
}
