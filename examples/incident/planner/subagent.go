package planner

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// A subagent's playbook: moves tried in order, each of which either
// proposes the next tool call or has nothing (left) to do. Moves read only
// the task, the bound tools and earlier results.
type move func(v *view, s *slice) (*call, string)

// slice is the subagent's servers by kind, parsed from its instruction.
type slice struct {
	byKind map[string][]string
}

var serversLine = regexp.MustCompile(`Your servers: ([^\n]+?)\.\s`)
var serverItem = regexp.MustCompile(`([\w.-]+) \(([\w.-]+)\)`)

func parseSlice(system string) *slice {
	s := &slice{byKind: map[string][]string{}}
	m := serversLine.FindStringSubmatch(system + "\n")
	if m == nil {
		return s
	}
	for _, it := range serverItem.FindAllStringSubmatch(m[1], -1) {
		s.byKind[it[2]] = append(s.byKind[it[2]], it[1])
	}
	return s
}

func playbook() []move {
	return []move{
		alerts, pages,
		argoApps, argoHistory, mergeRequests, mrDiff,
		deploymentRevision,
		podsList, podLog, grepLog,
		promQuery("5xx", `sum(rate(http_requests_total{service="%s",code=~"5.."}[5m])) / sum(rate(http_requests_total{service="%s"}[5m]))`),
		promQuery("p99", `histogram_quantile(0.99, sum(rate(http_request_duration_seconds_bucket{service="%s"}[5m])) by (le))`),
		logSearch, grepLogSearch,
		traceSearch, criticalPath,
	}
}

// investigate is the subagent role: make the next useful call, or answer.
func investigate(v *view) decision {
	s := parseSlice(v.system)
	for _, m := range playbook() {
		if c, why := m(v, s); c != nil {
			return decision{call: c, thought: why}
		}
	}
	return decision{answer: finalAnswer(v)}
}

// service is the service the task is about ("service payments-api").
func service(task string) string { return wordAfter(task, "service") }

// namespace is the namespace the task names.
func namespace(task string) string { return wordAfter(task, "namespace") }

func wordAfter(text, key string) string {
	re := regexp.MustCompile(`\b` + key + `\s+([\w./-]+[\w])`)
	if m := re.FindStringSubmatch(text); m != nil {
		return m[1]
	}
	return ""
}

// mentioned returns the first of names that text mentions as a word.
func mentioned(text string, names []string) string {
	for _, n := range names {
		if regexp.MustCompile(`\b` + regexp.QuoteMeta(n) + `\b`).MatchString(text) {
			return n
		}
	}
	return ""
}

func alerts(v *view, s *slice) (*call, string) {
	name, ok := v.tool("alertmanager", "list_alerts")
	if !ok || len(v.made(name, "")) > 0 {
		return nil, ""
	}
	return &call{name, map[string]any{"server": v.serversOf(name)[0]}}, "Start from what is firing."
}

func pages(v *view, s *slice) (*call, string) {
	name, ok := v.tool("pagerduty", "list_incidents")
	if !ok || len(v.made(name, "")) > 0 {
		return nil, ""
	}
	return &call{name, map[string]any{"server": v.serversOf(name)[0]}}, "Check the open pages."
}

// argoApps finds the Argo CD application of the service on the cluster.
//
// Deliberately sloppy: like a model that has not looked the name up yet,
// it first asks for the history with an empty application name, which the
// placeholder gate rejects; then it lists the applications.
func argoApps(v *view, s *slice) (*call, string) {
	hist, ok := v.tool("argocd", "list_application_history")
	list, ok2 := v.tool("argocd", "list_applications")
	if !ok || !ok2 {
		return nil, ""
	}
	server := v.serversOf(hist)[0]
	if len(v.made(hist, "")) == 0 {
		return &call{hist, map[string]any{"server": server, "application_name": ""}}, "Deploy history of the service."
	}
	if len(v.made(list, "")) == 0 {
		return &call{list, map[string]any{"server": server}}, "That needs the application name; list the applications."
	}
	return nil, ""
}

// appFor picks, from a list_applications result, the application of the
// task's service deployed to the task's cluster.
var appRe = regexp.MustCompile(`"name":\s*"([\w.-]+)"`)

func appFor(v *view) (app, repo string) {
	list, _ := v.tool("argocd", "list_applications")
	t, ok := v.last(list, "")
	if !ok || failed(t.result) {
		return "", ""
	}
	svc := service(v.task)
	for _, m := range appRe.FindAllStringSubmatch(t.result, -1) {
		n := m[1]
		if strings.HasPrefix(n, svc) && mentioned(v.task, []string{strings.TrimPrefix(n, svc+"-")}) != "" {
			app = n
		}
	}
	if rm := regexp.MustCompile(`"repoURL":\s*"https?://[^/]+/([\w./-]+?)(\.git)?"`).FindStringSubmatch(t.result); rm != nil {
		repo = rm[1]
	}
	return app, repo
}

func argoHistory(v *view, s *slice) (*call, string) {
	hist, ok := v.tool("argocd", "list_application_history")
	if !ok {
		return nil, ""
	}
	app, _ := appFor(v)
	if app == "" {
		return nil, ""
	}
	for _, t := range v.made(hist, "") {
		if t.args["application_name"] == app {
			return nil, ""
		}
	}
	return &call{hist, map[string]any{"server": v.serversOf(hist)[0], "application_name": app}}, "History of " + app + "."
}

// mergeRequests lists merged MRs of the application's repository on every
// GitLab server of the slice: the planner does not know which one hosts it.
func mergeRequests(v *view, s *slice) (*call, string) {
	name, ok := v.tool("gitlab", "list_merge_requests")
	_, repo := appFor(v)
	if !ok || repo == "" {
		return nil, ""
	}
	for _, srv := range v.serversOf(name) {
		if len(v.made(name, srv)) == 0 {
			return &call{name, map[string]any{"server": srv, "project_id": repo, "state": "merged"}}, "Merged changes of " + repo + " on " + srv + "."
		}
	}
	return nil, ""
}

var iidRe = regexp.MustCompile(`"iid":\s*(\d+)`)

// latestMR returns the server and iid of the first MR a successful listing returned.
func latestMR(v *view) (server, iid string) {
	name, _ := v.tool("gitlab", "list_merge_requests")
	for _, t := range v.made(name, "") {
		if failed(t.result) {
			continue
		}
		if m := iidRe.FindStringSubmatch(t.result); m != nil {
			return fmt.Sprint(t.args["server"]), m[1]
		}
	}
	return "", ""
}

func mrDiff(v *view, s *slice) (*call, string) {
	name, ok := v.tool("gitlab", "get_merge_request_diffs")
	srv, iid := latestMR(v)
	if !ok || iid == "" || len(v.made(name, srv)) > 0 {
		return nil, ""
	}
	_, repo := appFor(v)
	return &call{name, map[string]any{"server": srv, "project_id": repo, "merge_request_iid": iid}}, "What did !" + iid + " change?"
}

// deploymentRevision checks what runs on the cluster. The slice has no
// Kubernetes server, so the tool comes from the catalog: searchTools, then
// loadTools, then the call. The call says "deployments", plural, as models
// often do; singularResourceType repairs it.
func deploymentRevision(v *view, s *slice) (*call, string) {
	if len(s.byKind["kubernetes"]) > 0 || !strings.Contains(v.task, "deployment") {
		return nil, ""
	}
	cluster := regexp.MustCompile(`\bcluster\s+([\w.-]+[\w])`).FindStringSubmatch(v.task)
	if cluster == nil {
		return nil, ""
	}
	if name, ok := v.tool("kubernetes", "resources_get"); ok && slices.Contains(v.serversOf(name), cluster[1]) {
		if len(v.made(name, cluster[1])) > 0 {
			return nil, ""
		}
		return &call{name, map[string]any{"server": cluster[1], "apiVersion": "apps/v1", "kind": "deployments",
			"name": service(v.task), "namespace": namespaceOr(v.task)}}, "Which revision runs on " + cluster[1] + "?"
	}
	if _, ok := v.tools[searchToolsName]; ok && len(v.made(searchToolsName, "")) == 0 {
		return &call{searchToolsName, map[string]any{"query": "deployment revision and image running on a cluster"}}, "No Kubernetes tool here; search the catalog."
	}
	if _, ok := v.tools[loadToolsName]; ok && len(v.made(loadToolsName, "")) == 0 {
		t, _ := v.last(searchToolsName, "")
		if m := regexp.MustCompile(`- ([\w.]*resources_get) \[kubernetes`).FindStringSubmatch(t.result); m != nil {
			return &call{loadToolsName, map[string]any{"names": []string{cluster[1] + ".resources_get"}}}, "Load resources_get for " + cluster[1] + "."
		}
	}
	return nil, ""
}

func namespaceOr(task string) string {
	if ns := namespace(task); ns != "" {
		return ns
	}
	return "default"
}

func podsList(v *view, s *slice) (*call, string) {
	name, ok := v.tool("kubernetes", "pods_list_in_namespace")
	if !ok {
		return nil, ""
	}
	for _, srv := range s.byKind["kubernetes"] {
		if len(v.made(name, srv)) == 0 {
			return &call{name, map[string]any{"server": srv, "namespace": namespaceOr(v.task)}}, "Pods of the namespace on " + srv + "."
		}
	}
	return nil, ""
}

var crashRe = regexp.MustCompile(`(?m)^(\S+)\s+\S+\s+CrashLoopBackOff`)

// podLog fetches the previous (crashed) run's log of the first pod in
// CrashLoopBackOff. Deliberately sloppy: it says pod_name instead of name
// and previous as the string "true"; field_map and coerceTypes repair both.
// It asks for the whole log, which is large, so the Mux offloads it.
func podLog(v *view, s *slice) (*call, string) {
	list, _ := v.tool("kubernetes", "pods_list_in_namespace")
	name, ok := v.tool("kubernetes", "pods_log")
	if !ok {
		return nil, ""
	}
	for _, srv := range s.byKind["kubernetes"] {
		t, ok := v.last(list, srv)
		if !ok || len(v.made(name, srv)) > 0 {
			continue
		}
		if m := crashRe.FindStringSubmatch(t.result); m != nil {
			return &call{name, map[string]any{"server": srv, "pod_name": m[1], "namespace": namespaceOr(v.task), "previous": "true"}},
				m[1] + " is in CrashLoopBackOff; read the log of its crashed run."
		}
	}
	return nil, ""
}

// grepOffloaded searches an offloaded result of tool instead of reading it.
func grepOffloaded(v *view, tool, pattern string) (*call, string) {
	if _, ok := v.tools[grepResultName]; !ok {
		return nil, ""
	}
	for _, t := range v.made(tool, "") {
		h, ok := offloadHandle(t.result)
		if !ok {
			continue
		}
		done := false
		for _, g := range v.made(grepResultName, "") {
			done = done || g.args["handle"] == h
		}
		if !done {
			return &call{grepResultName, map[string]any{"handle": h, "pattern": pattern, "context": 0}}, "Too large to read; grep it."
		}
	}
	return nil, ""
}

func grepLog(v *view, s *slice) (*call, string) {
	name, _ := v.tool("kubernetes", "pods_log")
	return grepOffloaded(v, name, `(?i)pool exhausted|exiting with status`)
}

func promQuery(label, format string) move {
	return func(v *view, s *slice) (*call, string) {
		name, ok := v.tool("prometheus", "execute_query")
		svc := service(v.task)
		if !ok || svc == "" {
			return nil, ""
		}
		q := strings.ReplaceAll(format, "%s", svc)
		for _, srv := range s.byKind["prometheus"] {
			done := false
			for _, t := range v.made(name, srv) {
				done = done || t.args["query"] == q
			}
			if !done {
				return &call{name, map[string]any{"server": srv, "query": q}}, label + " of " + svc + " on " + srv + "."
			}
		}
		return nil, ""
	}
}

func logSearch(v *view, s *slice) (*call, string) {
	name, ok := v.tool("opensearch", "SearchIndexTool")
	svc := service(v.task)
	if !ok || svc == "" {
		return nil, ""
	}
	for _, srv := range s.byKind["opensearch"] {
		if len(v.made(name, srv)) == 0 {
			return &call{name, map[string]any{"server": srv, "index": "logs-" + strings.SplitN(svc, "-", 2)[0] + "-*", "size": 100,
				"query_dsl": map[string]any{"query": map[string]any{"bool": map[string]any{"filter": []any{
					map[string]any{"term": map[string]any{"service": svc}},
					map[string]any{"term": map[string]any{"level": "ERROR"}}}}}}}}, "Error logs of " + svc + " on " + srv + "."
		}
	}
	return nil, ""
}

func grepLogSearch(v *view, s *slice) (*call, string) {
	name, _ := v.tool("opensearch", "SearchIndexTool")
	return grepOffloaded(v, name, `(?i)exception|pool exhausted`)
}

var traceIDRe = regexp.MustCompile(`"trace_id":\s*"([0-9a-f]{16,32})"`)

func traceSearch(v *view, s *slice) (*call, string) {
	name, ok := v.tool("tracing", "search_traces")
	svc := service(v.task)
	if !ok || svc == "" || len(v.made(name, "")) > 0 {
		return nil, ""
	}
	return &call{name, map[string]any{"server": v.serversOf(name)[0], "service_name": svc, "duration_min": "5s"}}, "Slow traces through " + svc + "."
}

func criticalPath(v *view, s *slice) (*call, string) {
	search, _ := v.tool("tracing", "search_traces")
	name, ok := v.tool("tracing", "get_critical_path")
	t, found := v.last(search, "")
	if !ok || !found || len(v.made(name, "")) > 0 {
		return nil, ""
	}
	m := traceIDRe.FindStringSubmatch(t.result)
	if m == nil {
		return nil, ""
	}
	return &call{name, map[string]any{"server": v.serversOf(name)[0], "trace_id": m[1]}}, "Where did the time of the slowest trace go?"
}
