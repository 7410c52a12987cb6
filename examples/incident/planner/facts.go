package planner

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// finalAnswer is a subagent's answer: one line per fact read from a
// successful result, nothing that no tool said.
func finalAnswer(v *view) string {
	var facts []string
	rejected, repaired := 0, 0
	for _, t := range v.turns {
		if failed(t.result) {
			rejected++
			continue
		}
		for _, f := range factsOf(t) {
			if !slices.Contains(facts, f) {
				facts = append(facts, f)
			}
		}
		_ = repaired
	}
	if len(facts) == 0 {
		return "Found nothing relevant with the tools available."
	}
	var b strings.Builder
	b.WriteString("Findings:\n")
	for _, f := range facts {
		b.WriteString("- " + f + "\n")
	}
	return strings.TrimRight(b.String(), "\n")
}

// toolOf strips the kind prefix the fold adds to shared tool names.
func toolOf(name string) string {
	if _, after, ok := strings.Cut(name, "__"); ok {
		return after
	}
	return name
}

// payload returns the JSON inside a result, unwrapping the data envelope.
func payload(result string) any {
	s := result
	if i := strings.IndexAny(s, "[{"); i >= 0 {
		s = s[i:]
	}
	if j := strings.LastIndexAny(s, "]}"); j >= 0 {
		s = s[:j+1]
	}
	var out any
	if json.Unmarshal([]byte(s), &out) != nil {
		return nil
	}
	return out
}

// field walks a decoded JSON value by keys.
func field(v any, keys ...string) string {
	for _, k := range keys {
		m, ok := v.(map[string]any)
		if !ok {
			return ""
		}
		v = m[k]
	}
	switch x := v.(type) {
	case string:
		return x
	case float64:
		return fmt.Sprint(x)
	case nil:
		return ""
	}
	b, _ := json.Marshal(v)
	return string(b)
}

func list(v any, key string) []any {
	if key != "" {
		m, _ := v.(map[string]any)
		v = m[key]
	}
	l, _ := v.([]any)
	return l
}

var (
	promValueRe = regexp.MustCompile(`"value":\s*\[\s*[\d.]+,\s*"([\d.eE+-]+)"`)
	diffLineRe  = regexp.MustCompile(`(?m)^([-+])\s*(maxPoolSize|minIdle|replicas|image)[^\n]*?(\S+)$`)
	slowSpanRe  = regexp.MustCompile(`"slowest_span":\s*"([^"]+)"`)
	grepLineRe  = regexp.MustCompile(`(?m)^\s*\d+:\s*(.+)$`)
	errMsgRe    = regexp.MustCompile(`[\w.$]*(?:Exception|Error)[^"\n]{0,140}`)
)

// factsOf reads the facts of one successful result.
func factsOf(t turn) []string {
	srv := fmt.Sprint(t.args["server"])
	p := payload(t.result)
	switch toolOf(t.name) {
	case "list_alerts":
		var out []string
		for _, a := range list(p, "") {
			src := regexp.MustCompile(`//([\w-]+)`).FindStringSubmatch(field(a, "generatorURL"))
			f := fmt.Sprintf("alert %s (%s) firing since %s: cluster %s, namespace %s, service %s",
				field(a, "labels", "alertname"), field(a, "labels", "severity"), field(a, "startsAt"),
				field(a, "labels", "cluster"), field(a, "labels", "namespace"), orDash(field(a, "labels", "service"), field(a, "labels", "deployment")))
			if src != nil {
				f += ", from " + src[1]
			}
			out = append(out, f)
		}
		return out
	case "list_incidents":
		var out []string
		for _, in := range list(p, "incidents") {
			out = append(out, fmt.Sprintf("page %s %s: %s", field(in, "id"), field(in, "status"), field(in, "body")))
		}
		return out
	case "list_application_history":
		h := list(p, "history")
		if len(h) == 0 {
			return nil
		}
		last := h[len(h)-1]
		f := fmt.Sprintf("%s deployed revision %s (history id %s) at %s by %s", field(p, "application"), field(last, "revision"),
			field(last, "id"), field(last, "deployedAt"), field(last, "initiatedBy"))
		if len(h) > 1 {
			prev := h[len(h)-2]
			f += fmt.Sprintf("; previous %s (id %s) since %s", field(prev, "revision"), field(prev, "id"), field(prev, "deployedAt"))
		}
		return []string{f}
	case "list_merge_requests":
		mrs := list(p, "")
		if len(mrs) == 0 {
			return nil
		}
		mr := mrs[0]
		sha := field(mr, "merge_commit_sha")
		if len(sha) > 7 {
			sha = sha[:7]
		}
		return []string{fmt.Sprintf("%s: latest merged MR !%s %q by %s, merged %s, merge commit %s", srv, field(mr, "iid"),
			field(mr, "title"), field(mr, "author"), field(mr, "merged_at"), sha)}
	case "get_merge_request_diffs":
		var out []string
		for _, d := range list(p, "") {
			var ch []string
			for _, m := range diffLineRe.FindAllStringSubmatch(field(d, "diff"), -1) {
				ch = append(ch, m[1]+m[2]+" "+m[3])
			}
			if len(ch) > 0 {
				out = append(out, fmt.Sprintf("!%v changes %s: %s", t.args["merge_request_iid"], field(d, "new_path"), strings.Join(ch, ", ")))
			}
		}
		return out
	case "resources_get":
		rev := regexp.MustCompile(`deployment\.kubernetes\.io/revision"?:\s*"?(\d+)`).FindStringSubmatch(t.result)
		img := regexp.MustCompile(`image"?:\s*"?([\w./:-]+)`).FindStringSubmatch(t.result)
		f := fmt.Sprintf("deployment %v on %s", t.args["name"], srv)
		if rev != nil {
			f += " is at revision " + rev[1]
		}
		if img != nil {
			f += ", image " + img[1]
		}
		return []string{f}
	case "pods_list_in_namespace":
		m := crashRe.FindAllStringSubmatch(t.result, -1)
		if len(m) == 0 {
			return []string{fmt.Sprintf("%s/%v: no pod in CrashLoopBackOff", srv, t.args["namespace"])}
		}
		var names []string
		for _, x := range m {
			names = append(names, x[1])
		}
		return []string{fmt.Sprintf("%s/%v: %d pods in CrashLoopBackOff (%s)", srv, t.args["namespace"], len(m), strings.Join(names, ", "))}
	case "pods_log", "SearchIndexTool":
		// Facts name what was read, never the tool: answers go to the
		// orchestrator, which plans by kind and server only.
		what := "log search on " + srv
		if toolOf(t.name) == "pods_log" {
			what = fmt.Sprintf("log of %v on %s", t.args["pod_name"], srv)
		}
		var out []string
		if h, ok := offloadHandle(t.result); ok {
			out = append(out, fmt.Sprintf("%s: too large, offloaded as %s (kept out of the context)", what, h))
		}
		// The last error line: in a crash log, the one that ended the run.
		if ms := errMsgRe.FindAllString(t.result, -1); len(ms) > 0 {
			out = append(out, fmt.Sprintf("%s: %s", what, ms[len(ms)-1]))
		}
		return out
	case "grepResult":
		var out []string
		for _, m := range grepLineRe.FindAllStringSubmatch(t.result, 2) {
			out = append(out, fmt.Sprintf("grep %v: %s", t.args["handle"], strings.TrimSpace(m[1])))
		}
		return out
	case "execute_query":
		if m := promValueRe.FindStringSubmatch(t.result); m != nil {
			what := "p99 latency (s)"
			if strings.Contains(fmt.Sprint(t.args["query"]), "5..") {
				what = "5xx ratio"
			}
			return []string{fmt.Sprintf("%s of %s on %s: %s", what, svcLabel(fmt.Sprint(t.args["query"])), srv, m[1])}
		}
	case "search_traces":
		m := slowSpanRe.FindAllStringSubmatch(t.result, -1)
		if len(m) > 0 {
			return []string{fmt.Sprintf("%d slow traces (>%v) of %v; slowest span: %s", len(m), t.args["duration_min"], t.args["service_name"], m[0][1])}
		}
	case "get_critical_path":
		if m := regexp.MustCompile(`[\w-]+ db\.[\w.]+[^"\n]{0,60}`).FindString(t.result); m != "" {
			return []string{fmt.Sprintf("critical path of trace %v: %s", t.args["trace_id"], m)}
		}
	}
	return nil
}

func orDash(a, b string) string {
	if a != "" {
		return a
	}
	if b != "" {
		return b
	}
	return "-"
}

func svcLabel(q string) string {
	if m := regexp.MustCompile(`service="([^"]+)"`).FindStringSubmatch(q); m != nil {
		return m[1]
	}
	return "the service"
}
