package fleet

import (
	"context"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
)

// prometheusKind simulates pab1it0/prometheus-mcp-server. prometheus-b
// scrapes k8s-3 and sees the jump at 02:15Z; prometheus-a (k8s-1, k8s-2)
// and prometheus-c (k8s-4, k8s-5) see steady traffic.
func prometheusKind() kindSpec {
	return kindSpec{
		Tools: func() []toolSpec {
			return bind(prometheusTools(), map[string]handler{
				"execute_query":       promInstant,
				"execute_range_query": promRange,
				"list_metrics":        promListMetrics,
				"get_targets":         promTargets,
			}, promDefault)
		},
		Default: promDefault("unknown", true),
	}
}

// promClusters returns the clusters an instance scrapes.
func promClusters(in Instance) []string {
	switch in.Name {
	case metricsServer:
		return []string{badCluster}
	case "prometheus-c":
		return []string{"k8s-4", "k8s-5"}
	}
	return []string{"k8s-1", "k8s-2"}
}

var promServiceRE = regexp.MustCompile(`(?:service|app|job)\s*=~?\s*"([^"]+)"`)
var promQuantileRE = regexp.MustCompile(`histogram_quantile\(\s*([0-9.]+)`)

// promSeries is one answer series: labels plus a value function of time.
type promSeries struct {
	labels map[string]string
	value  func(t int64) float64
}

// wobble adds a deterministic ±2% ripple so that graphs look alive.
func wobble(v float64, t int64, salt string) float64 {
	r := newRNG(fmt.Sprint(salt, t/15))
	return v * (0.98 + float64(r.intn(400))/10000)
}

// step returns before until the onset on the bad cluster, after from it.
func stepAt(cluster string, t int64, before, after float64) float64 {
	if cluster == badCluster && t >= onsetUnix {
		return after
	}
	return before
}

// promEval interprets the handful of query shapes an investigation uses.
func promEval(in Instance, q string) ([]promSeries, error) {
	if strings.Count(q, "(") != strings.Count(q, ")") {
		return nil, fmt.Errorf("bad_data: invalid parameter \"query\": 1:%d: parse error: unclosed left parenthesis", len(q))
	}
	services := []string{payService, "checkout-web", "ledger"}
	if m := promServiceRE.FindStringSubmatch(q); m != nil {
		services = []string{m[1]}
	}
	known := func(s string) bool { return s == payService || s == "checkout-web" || s == "ledger" }
	var out []promSeries
	for _, cluster := range promClusters(in) {
		for _, svc := range services {
			if !known(svc) {
				continue
			}
			c, s := cluster, svc
			bad := s == payService
			base := map[string]string{"cluster": c, "namespace": map[string]string{payService: payNamespace, "checkout-web": "checkout", "ledger": "ledger"}[s], "service": s}
			switch {
			case strings.Contains(q, "histogram_quantile"):
				qv := 0.99
				if m := promQuantileRE.FindStringSubmatch(q); m != nil {
					qv, _ = strconv.ParseFloat(m[1], 64)
				}
				before, after := latencyQuantile(qv)
				if !bad {
					after = before
				}
				out = append(out, promSeries{base, func(t int64) float64 { return wobble(stepAt(c, t, before, after), t, c+s) }})
			case strings.Contains(q, "http_requests_total") && strings.Contains(q, "/"):
				after := errRateAfter
				if !bad {
					after = errRateBefore
				}
				out = append(out, promSeries{base, func(t int64) float64 { return wobble(stepAt(c, t, errRateBefore, after), t, c+s) }})
			case strings.Contains(q, "http_requests_total") && (strings.Contains(q, `"5..`) || strings.Contains(q, `"5xx`) || strings.Contains(q, `code="500"`)):
				after := 420 * errRateAfter
				if !bad {
					after = 420 * errRateBefore
				}
				lb := copyLabels(base, "code", "500")
				out = append(out, promSeries{lb, func(t int64) float64 { return wobble(stepAt(c, t, 420*errRateBefore, after), t, c+s) }})
			case strings.Contains(q, "http_requests_total"):
				out = append(out, promSeries{base, func(t int64) float64 { return wobble(420, t, c+s) }})
			case strings.Contains(q, "hikaricp_connections_pending"):
				after := 187.0
				if !bad {
					after = 0
				}
				out = append(out, promSeries{copyLabels(base, "pool", "HikariPool-1"), func(t int64) float64 { return math.Round(stepAt(c, t, 0, after)) }})
			case strings.Contains(q, "hikaricp_connections_max"):
				out = append(out, promSeries{copyLabels(base, "pool", "HikariPool-1"), func(t int64) float64 {
					if bad && c == badCluster && t >= deployUnix {
						return newPoolSize
					}
					return oldPoolSize
				}})
			case strings.Contains(q, "hikaricp_connections_active"):
				after := 10.0
				if !bad {
					after = 7
				}
				out = append(out, promSeries{copyLabels(base, "pool", "HikariPool-1"), func(t int64) float64 { return math.Round(stepAt(c, t, 7, after)) }})
			case strings.Contains(q, "kube_pod_container_status_restarts_total"):
				if !bad || c != badCluster {
					out = append(out, promSeries{base, func(int64) float64 { return 0 }})
					continue
				}
				for _, p := range clusterPods(c) {
					if p.Reason == "" {
						continue
					}
					n := float64(p.Restarts)
					out = append(out, promSeries{copyLabels(base, "pod", p.Name), func(t int64) float64 {
						if t < onsetUnix+120 {
							return 0
						}
						return math.Min(n, math.Floor(float64(t-onsetUnix-120)/float64(nowUnix-onsetUnix-120)*n))
					}})
				}
			case strings.HasPrefix(strings.TrimSpace(q), "up"):
				out = append(out, promSeries{copyLabels(base, "job", s), func(int64) float64 { return 1 }})
			}
		}
	}
	return out, nil
}

// latencyQuantile returns a latency quantile of payments-api before and
// after the onset; p99 is the incident's 0.18s → 4.2s.
func latencyQuantile(q float64) (before, after float64) {
	switch {
	case q >= 0.99:
		return p99Before, p99After
	case q >= 0.95:
		return 0.12, 3.1
	case q >= 0.9:
		return 0.09, 2.4
	}
	return 0.045, 0.9
}

func copyLabels(m map[string]string, k, v string) map[string]string {
	out := map[string]string{k: v}
	for a, b := range m {
		out[a] = b
	}
	return out
}

// parseTime accepts RFC 3339, Unix seconds and "now".
func parseTime(s string, def int64) (int64, error) {
	s = strings.TrimSpace(s)
	if s == "" || s == "now" {
		return def, nil
	}
	if f, err := strconv.ParseFloat(s, 64); err == nil {
		return int64(f), nil
	}
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t.Unix(), nil
	}
	if t, err := time.Parse("2006-01-02T15:04:05", s); err == nil {
		return t.Unix(), nil
	}
	return 0, fmt.Errorf("cannot parse %q to a valid timestamp", s)
}

func parseStep(s string) (int64, error) {
	s = strings.TrimSpace(s)
	if f, err := strconv.ParseFloat(s, 64); err == nil && f > 0 {
		return int64(math.Max(1, f)), nil
	}
	if d, err := time.ParseDuration(s); err == nil && d >= time.Second {
		return int64(d / time.Second), nil
	}
	return 0, fmt.Errorf("cannot parse %q to a valid duration", s)
}

func promInstant(_ context.Context, in Instance, args map[string]any) (*mcp.CallToolResult, error) {
	q := argStr(args, "query")
	if q == "" {
		return errResult("query is required"), nil
	}
	t, err := parseTime(argStr(args, "time"), nowUnix)
	if err != nil {
		return errResult("bad_data: invalid parameter \"time\": %v", err), nil
	}
	series, err := promEval(in, q)
	if err != nil {
		return errResult("%v", err), nil
	}
	result := []map[string]any{}
	for _, s := range series {
		result = append(result, map[string]any{"metric": s.labels, "value": []any{t, strconv.FormatFloat(round4(s.value(t)), 'f', -1, 64)}})
	}
	return jsonResult(map[string]any{"resultType": "vector", "result": result, "prometheus": in.Name}), nil
}

func round4(v float64) float64 { return math.Round(v*10000) / 10000 }

func promRange(_ context.Context, in Instance, args map[string]any) (*mcp.CallToolResult, error) {
	q := argStr(args, "query")
	if q == "" {
		return errResult("query is required"), nil
	}
	start, err := parseTime(argStr(args, "start"), windowStartUnix)
	if err != nil {
		return errResult("bad_data: invalid parameter \"start\": %v", err), nil
	}
	end, err := parseTime(argStr(args, "end"), nowUnix)
	if err != nil {
		return errResult("bad_data: invalid parameter \"end\": %v", err), nil
	}
	step, err := parseStep(argStr(args, "step"))
	if err != nil {
		return errResult("bad_data: invalid parameter \"step\": %v", err), nil
	}
	if end < start {
		return errResult("bad_data: end timestamp must not be before start time"), nil
	}
	if (end-start)/step > 11000 {
		return errResult("bad_data: exceeded maximum resolution of 11,000 points per timeseries. Try decreasing the query resolution (?step=XX)"), nil
	}
	series, err := promEval(in, q)
	if err != nil {
		return errResult("%v", err), nil
	}
	result := []map[string]any{}
	for _, s := range series {
		var vals [][]any
		for t := start; t <= end; t += step {
			vals = append(vals, []any{t, strconv.FormatFloat(round4(s.value(t)), 'f', -1, 64)})
		}
		result = append(result, map[string]any{"metric": s.labels, "values": vals})
	}
	return jsonResult(map[string]any{"resultType": "matrix", "result": result, "prometheus": in.Name}), nil
}

func promMetricNames() []string {
	return []string{"up", "http_requests_total", "http_request_duration_seconds_bucket", "http_request_duration_seconds_count", "http_request_duration_seconds_sum",
		"hikaricp_connections_active", "hikaricp_connections_pending", "hikaricp_connections_max", "hikaricp_connections_timeout_total",
		"jvm_memory_used_bytes", "process_cpu_usage", "kube_pod_container_status_restarts_total", "kube_deployment_status_replicas_available",
		"container_cpu_usage_seconds_total", "container_memory_working_set_bytes", "node_load1"}
}

func promListMetrics(_ context.Context, in Instance, args map[string]any) (*mcp.CallToolResult, error) {
	f := argStr(args, "filter_pattern")
	var out []string
	for _, m := range promMetricNames() {
		if f == "" || mentions(m, f) {
			out = append(out, m)
		}
	}
	if len(out) == 0 {
		return text("No metrics on %s match %q.", in.Name, f), nil
	}
	return jsonResult(map[string]any{"metrics": out, "total_count": len(out)}), nil
}

func promTargets(_ context.Context, in Instance, _ map[string]any) (*mcp.CallToolResult, error) {
	var active []map[string]any
	for _, c := range promClusters(in) {
		for _, job := range []string{"kubernetes-pods", "kube-state-metrics", "node-exporter"} {
			active = append(active, map[string]any{"labels": map[string]string{"job": job, "cluster": c}, "health": "up", "lastScrape": tNow, "lastError": ""})
		}
	}
	return jsonResult(map[string]any{"activeTargets": active, "droppedTargets": []any{}}), nil
}

func promDefault(tool string, _ bool) handler {
	return func(_ context.Context, in Instance, args map[string]any) (*mcp.CallToolResult, error) {
		switch tool {
		case "health_check":
			return jsonResult(map[string]any{"status": "healthy", "prometheus_url": "http://" + in.Name + ":9090", "scrapes": promClusters(in)}), nil
		case "get_metric_metadata":
			m := argStr(args, "metric")
			for _, name := range promMetricNames() {
				if m == name {
					typ := "gauge"
					if strings.HasSuffix(m, "_total") {
						typ = "counter"
					} else if strings.HasSuffix(m, "_bucket") {
						typ = "histogram"
					}
					return jsonResult(map[string]any{m: []map[string]string{{"type": typ, "help": "Simulated metric " + m, "unit": ""}}}), nil
				}
			}
			return text("No metadata found for metric %q on %s.", m, in.Name), nil
		}
		return text("%s on %s: nothing to report.", tool, in.Name), nil
	}
}
