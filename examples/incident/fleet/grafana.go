package fleet

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
)

// The grafana kind mirrors grafana/mcp-grafana: dashboards, datasources,
// Prometheus and Loki queries, annotations, alerting, OnCall, Incident, Sift,
// Pyroscope and snapshots, with the same tool and argument names and our own
// descriptions. Its data: dashboard payments-overview with the 02:15Z jump and
// the "deploy 9f3c2e1" annotation. The tool table is in
// grafana_tools.go.

// grafanaKind is the simulated Grafana server.
func grafanaKind() kindSpec {
	return kindSpec{
		Tools:   func() []toolSpec { return bind(grafanaTools(), grafanaHandlers(), fallbackHandler) },
		Default: fallbackHandler("grafana", true),
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
