package fleet

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
)

// tracingKind simulates the MCP extension of Jaeger's query service. Traces
// of payments-api after 02:15Z spend ~29.8s in db.acquire_connection.
func tracingKind() kindSpec {
	return kindSpec{
		Tools: func() []toolSpec {
			return bind(tracingTools(), map[string]handler{
				"get_services":             trServices,
				"get_span_names":           trSpanNames,
				"search_traces":            trSearch,
				"get_trace_topology":       trTopology,
				"get_critical_path":        trCriticalPath,
				"get_span_details":         trSpanDetails,
				"get_trace_errors":         trErrors,
				"get_service_dependencies": trDependencies,
			}, trDefault)
		},
		Default: trDefault("unknown", true),
	}
}

type trSpan struct {
	ID        string            `json:"span_id"`
	Parent    string            `json:"parent_span_id,omitempty"`
	Service   string            `json:"service"`
	Operation string            `json:"operation"`
	Kind      string            `json:"span_kind"`
	StartMS   float64           `json:"start_offset_ms"`
	DurMS     float64           `json:"duration_ms"`
	Error     string            `json:"error,omitempty"`
	Attrs     map[string]string `json:"attributes,omitempty"`
}

type trTrace struct {
	ID    string
	Start time.Time
	Spans []trSpan
}

func (t trTrace) root() trSpan      { return t.Spans[0] }
func (t trTrace) duration() float64 { return t.Spans[0].DurMS }
func (t trTrace) hasError() bool {
	for _, s := range t.Spans {
		if s.Error != "" {
			return true
		}
	}
	return false
}

// trTraces builds the stored traces: a few fast ones before the onset, and
// slow or failed ones after it, all deterministic.
func trTraces() []trTrace {
	var out []trTrace
	for i := 0; i < 24; i++ {
		r := newRNG(fmt.Sprint("trace", i))
		id := r.hex(32)
		before := i < 6
		start := time.Unix(onsetUnix, 0).UTC().Add(time.Duration(i-6)*150*time.Second + time.Duration(r.intn(60))*time.Second)
		acquire := 0.4 + float64(r.intn(20))/10
		failed := false
		if !before {
			acquire = slowSpanSecs*1000 + float64(r.intn(300)-150)
			failed = i%3 == 0
			if failed {
				acquire = 30000
			}
		}
		query, auth := 4.0+float64(r.intn(8)), 90.0+float64(r.intn(60))
		spans := []trSpan{
			{ID: r.hex(16), Service: "checkout-web", Operation: "POST /checkout/confirm", Kind: "server", Attrs: map[string]string{"http.status_code": "200"}},
			{ID: r.hex(16), Service: payService, Operation: slowOperation, Kind: "server", StartMS: 2.1, Attrs: map[string]string{"http.status_code": "201", "k8s.cluster": badCluster, "k8s.pod": clusterPods(badCluster)[i%3].Name, "service.version": badCommit}},
			{ID: r.hex(16), Service: payService, Operation: slowSpan, Kind: "internal", StartMS: 3.0, DurMS: acquire, Attrs: map[string]string{"db.system": "postgresql", "db.pool.name": "HikariPool-1", "db.pool.max": fmt.Sprint(newPoolSize), "db.pool.active": "10", "db.pool.waiting": fmt.Sprint(150 + r.intn(37))}},
		}
		if before {
			spans[1].Attrs["k8s.pod"] = "payments-api-6d8e2a-h2k9d"
			spans[1].Attrs["service.version"] = goodCommit
			spans[2].Attrs["db.pool.max"] = fmt.Sprint(oldPoolSize)
			spans[2].Attrs["db.pool.active"] = fmt.Sprint(5 + r.intn(6))
			spans[2].Attrs["db.pool.waiting"] = "0"
		}
		end := 3.0 + acquire
		if failed {
			spans[2].Error = hikariTimeout
			spans[1].Error = "java.sql.SQLTransientConnectionException: " + hikariTimeout
			spans[1].Attrs["http.status_code"] = "500"
			spans[0].Error = "upstream payments-api returned 500"
			spans[0].Attrs["http.status_code"] = "502"
		} else {
			spans = append(spans,
				trSpan{ID: r.hex(16), Service: payService, Operation: "db.query INSERT charges", Kind: "client", StartMS: end + 0.2, DurMS: query, Attrs: map[string]string{"db.system": "postgresql", "peer.service": "payments-db"}},
				trSpan{ID: r.hex(16), Service: payService, Operation: "card-network.authorize", Kind: "client", StartMS: end + query + 0.5, DurMS: auth, Attrs: map[string]string{"peer.service": "card-network-gateway"}},
			)
			end += query + auth + 0.7
		}
		spans[1].DurMS = end - 2.1 + 0.3
		spans[0].DurMS = end + 1.5
		for j := 1; j < len(spans); j++ {
			spans[j].Parent = spans[1].ID
		}
		spans[1].Parent = spans[0].ID
		for j := range spans {
			spans[j].DurMS = float64(int(spans[j].DurMS*10)) / 10
		}
		out = append(out, trTrace{ID: id, Start: start, Spans: spans})
	}
	return out
}

func trServiceNames() []string {
	return []string{"card-network-gateway", "checkout-web", "ledger", payService, "payments-worker"}
}

func trServices(_ context.Context, in Instance, args map[string]any) (*mcp.CallToolResult, error) {
	var out []string
	re, err := trPattern(argStr(args, "pattern"))
	if err != nil {
		return errResult("invalid pattern: %v", err), nil
	}
	for _, s := range trServiceNames() {
		if re == nil || re.MatchString(s) {
			out = append(out, s)
		}
	}
	if lim := argInt(args, 0, "limit"); lim > 0 && lim < len(out) {
		out = out[:lim]
	}
	return jsonResult(map[string]any{"services": out}), nil
}

func trPattern(p string) (*regexp.Regexp, error) {
	if p == "" {
		return nil, nil
	}
	return regexp.Compile("(?i)" + p)
}

func trSpanNames(_ context.Context, in Instance, args map[string]any) (*mcp.CallToolResult, error) {
	svc := argStr(args, "service_name")
	if svc == "" {
		return errResult("service_name is required"), nil
	}
	names := map[string][]string{
		payService:             {slowOperation, "GET /v1/charges/{id}", "POST /v1/refunds", "POST /v1/charges/{id}/capture", slowSpan, "db.query INSERT charges", "card-network.authorize"},
		"checkout-web":         {"POST /checkout/confirm", "GET /checkout"},
		"ledger":               {"POST /v1/entries"},
		"card-network-gateway": {"authorize"},
		"payments-worker":      {"settle-batch"},
	}[svc]
	if names == nil {
		return text("No span names found: service %q has reported no traces (known services: %s).", svc, strings.Join(trServiceNames(), ", ")), nil
	}
	re, err := trPattern(argStr(args, "pattern"))
	if err != nil {
		return errResult("invalid pattern: %v", err), nil
	}
	var out []string
	for _, n := range names {
		if re == nil || re.MatchString(n) {
			out = append(out, n)
		}
	}
	return jsonResult(map[string]any{"service": svc, "span_names": out}), nil
}

// trDuration parses "2s", "500ms", or a bare number of milliseconds.
func trDuration(s string) (float64, bool) {
	if s == "" {
		return 0, false
	}
	if d, err := time.ParseDuration(s); err == nil {
		return float64(d) / float64(time.Millisecond), true
	}
	var f float64
	if _, err := fmt.Sscanf(s, "%g", &f); err == nil {
		return f, true
	}
	return 0, false
}

func trSearch(_ context.Context, in Instance, args map[string]any) (*mcp.CallToolResult, error) {
	svc, spanName := argStr(args, "service_name"), argStr(args, "span_name")
	minD, hasMin := trDuration(argStr(args, "duration_min"))
	maxD, hasMax := trDuration(argStr(args, "duration_max"))
	from, err := parseTime(argStr(args, "start_time_min"), nowUnix-3600)
	if err != nil {
		return errResult("invalid start_time_min: %v", err), nil
	}
	to, err := parseTime(argStr(args, "start_time_max"), nowUnix)
	if err != nil {
		return errResult("invalid start_time_max: %v", err), nil
	}
	onlyErr := argBool(args, "with_errors")
	attrs, _ := args["attributes"].(map[string]any)
	limit := argInt(args, 20, "search_depth")
	var rows []map[string]any
	for _, t := range trTraces() {
		if t.Start.Unix() < from || t.Start.Unix() > to || onlyErr && !t.hasError() {
			continue
		}
		if hasMin && t.duration() < minD || hasMax && t.duration() > maxD {
			continue
		}
		ok := svc == "" && spanName == ""
		for _, s := range t.Spans {
			if (svc == "" || s.Service == svc) && (spanName == "" || s.Operation == spanName) && trAttrsMatch(s, attrs) {
				ok = true
			}
		}
		if !ok || len(attrs) > 0 && !trAnyAttrs(t, attrs) {
			continue
		}
		var slowest trSpan
		for _, s := range t.Spans[1:] {
			if s.DurMS > slowest.DurMS && s.Operation != slowOperation {
				slowest = s
			}
		}
		rows = append(rows, map[string]any{"trace_id": t.ID, "root_service": t.root().Service, "root_operation": t.root().Operation,
			"start_time": t.Start.Format(time.RFC3339), "duration_ms": t.duration(), "span_count": len(t.Spans), "has_errors": t.hasError(),
			"slowest_span": fmt.Sprintf("%s %s (%.1f ms)", slowest.Service, slowest.Operation, slowest.DurMS)})
	}
	// Newest first, as the UI shows them.
	for i, j := 0, len(rows)-1; i < j; i, j = i+1, j-1 {
		rows[i], rows[j] = rows[j], rows[i]
	}
	if len(rows) > limit && limit > 0 {
		rows = rows[:limit]
	}
	if len(rows) == 0 {
		return text("No traces found for service %q, span %q in the window %s to %s with the given filters.", svc, spanName,
			time.Unix(from, 0).UTC().Format(time.RFC3339), time.Unix(to, 0).UTC().Format(time.RFC3339)), nil
	}
	return jsonResult(map[string]any{"traces": rows}), nil
}

func trAttrsMatch(s trSpan, attrs map[string]any) bool {
	for k, v := range attrs {
		if s.Attrs[k] != fmt.Sprint(v) {
			return false
		}
	}
	return true
}

func trAnyAttrs(t trTrace, attrs map[string]any) bool {
	for _, s := range t.Spans {
		if trAttrsMatch(s, attrs) {
			return true
		}
	}
	return false
}

func trFind(args map[string]any) (trTrace, *mcp.CallToolResult) {
	id := strings.ToLower(strings.TrimSpace(argStr(args, "trace_id")))
	if id == "" {
		return trTrace{}, errResult("trace_id is required")
	}
	for _, t := range trTraces() {
		if t.ID == id || strings.TrimLeft(t.ID, "0") == strings.TrimLeft(id, "0") {
			return t, nil
		}
	}
	return trTrace{}, errResult("trace %s not found", id)
}

func trTopology(_ context.Context, _ Instance, args map[string]any) (*mcp.CallToolResult, error) {
	t, bad := trFind(args)
	if bad != nil {
		return bad, nil
	}
	depth := argInt(args, 0, "depth")
	var b strings.Builder
	fmt.Fprintf(&b, "trace %s started %s, %d spans\n", t.ID, t.Start.Format(time.RFC3339), len(t.Spans))
	level := map[string]int{}
	for _, s := range t.Spans {
		l := 0
		if s.Parent != "" {
			l = level[s.Parent] + 1
		}
		level[s.ID] = l
		if depth > 0 && l >= depth {
			continue
		}
		status := ""
		if s.Error != "" {
			status = "  ERROR"
		}
		fmt.Fprintf(&b, "%s- %s %s [%s] +%.1fms %.1fms%s\n", strings.Repeat("  ", l), s.Service, s.Operation, s.ID, s.StartMS, s.DurMS, status)
	}
	return text("%s", b.String()), nil
}

func trCriticalPath(_ context.Context, _ Instance, args map[string]any) (*mcp.CallToolResult, error) {
	t, bad := trFind(args)
	if bad != nil {
		return bad, nil
	}
	var path []map[string]any
	for _, s := range t.Spans {
		self := s.DurMS
		for _, c := range t.Spans {
			if c.Parent == s.ID {
				self -= c.DurMS
			}
		}
		path = append(path, map[string]any{"span_id": s.ID, "service": s.Service, "operation": s.Operation, "self_time_ms": float64(int(max(self, 0)*10)) / 10})
	}
	return jsonResult(map[string]any{"trace_id": t.ID, "total_ms": t.duration(), "critical_path": path}), nil
}

func trSpanDetails(_ context.Context, _ Instance, args map[string]any) (*mcp.CallToolResult, error) {
	t, bad := trFind(args)
	if bad != nil {
		return bad, nil
	}
	want := map[string]bool{}
	for _, v := range asList(args["span_ids"]) {
		want[strings.ToLower(fmt.Sprint(v))] = true
	}
	var out []trSpan
	for _, s := range t.Spans {
		if len(want) == 0 || want[s.ID] {
			out = append(out, s)
		}
	}
	if len(out) == 0 {
		return text("None of the requested span IDs are in trace %s.", t.ID), nil
	}
	return jsonResult(out), nil
}

func trErrors(_ context.Context, _ Instance, args map[string]any) (*mcp.CallToolResult, error) {
	t, bad := trFind(args)
	if bad != nil {
		return bad, nil
	}
	var out []trSpan
	for _, s := range t.Spans {
		if s.Error != "" {
			out = append(out, s)
		}
	}
	if len(out) == 0 {
		return text("Trace %s has no error spans.", t.ID), nil
	}
	return jsonResult(out), nil
}

func trDependencies(_ context.Context, _ Instance, _ map[string]any) (*mcp.CallToolResult, error) {
	return jsonResult([]map[string]any{
		{"parent": "checkout-web", "child": payService, "call_count": 25410},
		{"parent": payService, "child": "payments-db", "call_count": 16022},
		{"parent": payService, "child": "card-network-gateway", "call_count": 15876},
		{"parent": "payments-worker", "child": "ledger", "call_count": 3120},
	}), nil
}

func trDefault(tool string, _ bool) handler {
	return func(_ context.Context, in Instance, args map[string]any) (*mcp.CallToolResult, error) {
		if tool == "read_skill" {
			p := argStr(args, "path")
			if p == "" {
				return errResult("path is required"), nil
			}
			return text("Guide %s: find slow traces with search_traces (duration_min), open one with get_trace_topology, then get_critical_path to see which span holds the time; get_trace_errors lists failing spans.", p), nil
		}
		return text("%s on %s: nothing to report.", tool, in.Name), nil
	}
}
