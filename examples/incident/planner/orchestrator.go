package planner

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// The orchestrator role: it sees the overview ("kind: servers" lines), the
// question and its spawnSubagents results, never a fleet tool.

var overviewLine = regexp.MustCompile(`(?m)^([\w][\w.-]*): ([\w.-]+(?:, [\w.-]+)*)\s*$`)

// fleetView maps kind -> servers, parsed from the overview in the instruction.
func fleetView(system string) map[string][]string {
	out := map[string][]string{}
	for _, m := range overviewLine.FindAllStringSubmatch(system, -1) {
		out[m[1]] = strings.Split(m[2], ", ")
	}
	return out
}

// Spec is one subagent the orchestrator asks for: an item of the
// spawnSubagents "tasks" argument.
type Spec struct {
	Task    string   `json:"task"`
	Servers []string `json:"servers"`
}

func orchestrate(v *view) decision {
	fv := fleetView(v.system)
	spawns := v.made(SpawnToolName, "")
	switch len(spawns) {
	case 0:
		return triage(fv)
	case 1:
		return investigateIncident(fv, spawns[0].result)
	}
	return decision{answer: report(v)}
}

// triage asks the alerting and paging servers where it hurts: the overview
// says which kinds exist, not which cluster is affected.
func triage(fv map[string][]string) decision {
	var servers []string
	for _, k := range []string{"alertmanager", "pagerduty"} {
		if s := fv[k]; len(s) > 0 {
			servers = append(servers, s[0])
		}
	}
	if len(servers) == 0 {
		return decision{answer: "This fleet has no alerting or paging server to start from; I cannot triage."}
	}
	return decision{thought: "First find out what is firing and where.", call: &call{SpawnToolName, map[string]any{"tasks": []Spec{{
		Servers: servers,
		Task:    "Triage: list the firing alerts and open pages. Name the affected cluster, namespace and service, and the Prometheus server the alerts come from.",
	}}}}}
}

var (
	nsRe  = regexp.MustCompile(`namespace ([\w-]+)`)
	svcRe = regexp.MustCompile(`service ([\w-]+)`)
)

// investigateIncident splits the investigation by kind, on the servers the
// triage answer names: symptoms (kubernetes + prometheus), changes
// (argocd + gitlab) and errors (opensearch + tracing).
func investigateIncident(fv map[string][]string, triageResult string) decision {
	triageAnswer := answers(triageResult)
	cluster := mentioned(triageAnswer, fv["kubernetes"])
	prom := mentioned(triageAnswer, fv["prometheus"])
	ns, svc := "", ""
	if m := nsRe.FindStringSubmatch(triageAnswer); m != nil {
		ns = m[1]
	}
	if m := svcRe.FindStringSubmatch(triageAnswer); m != nil {
		svc = m[1]
	}
	if cluster == "" || svc == "" {
		return decision{answer: "Triage did not name an affected cluster and service:\n" + triageAnswer}
	}
	where := fmt.Sprintf("service %s in namespace %s on cluster %s", svc, ns, cluster)
	var specs []Spec
	symptoms := []string{cluster}
	if prom != "" {
		symptoms = append(symptoms, prom)
	}
	specs = append(specs, Spec{Servers: symptoms,
		Task: "Symptoms of " + where + ": pods that crash-loop and why (their logs), and the 5xx ratio and p99 latency of the service."})
	var changes []string
	changes = append(changes, first(fv["argocd"])...)
	for _, s := range fv["gitlab"] {
		// Read-only instances suffice to investigate; the -write twins
		// exist for remediation.
		if !strings.HasSuffix(s, "-write") && len(changes) < 3 {
			changes = append(changes, s)
		}
	}
	if len(changes) > 0 {
		specs = append(specs, Spec{Servers: changes,
			Task: "What changed before the incident of " + where + "? Find its Argo CD application and deploy history, the merged merge requests of its repository and what they changed, and which revision the deployment runs on cluster " + cluster + "."})
	}
	var errs []string
	errs = append(errs, fv["opensearch"]...)
	errs = append(errs, first(fv["tracing"])...)
	if len(errs) > 3 {
		errs = slices.Delete(errs, 2, len(errs)-1)
	}
	if len(errs) > 0 {
		specs = append(specs, Spec{Servers: errs,
			Task: "Errors of " + where + " since the incident began: stack traces in its logs and the slow spans in its traces."})
	}
	return decision{thought: "Triage points at " + cluster + ". Investigate symptoms, changes and errors in parallel.",
		call: &call{SpawnToolName, map[string]any{"tasks": specs}}}
}

func first(s []string) []string {
	if len(s) == 0 {
		return nil
	}
	return s[:1]
}

var (
	mrFactRe   = regexp.MustCompile(`([\w-]+): latest merged MR !(\d+) "([^"]+)" by ([\w.]+), merged (\S+), merge commit (\w+)`)
	deployRe   = regexp.MustCompile(`(\S+) deployed revision (\w+) \(history id (\d+)\) at (\S+)`)
	prevRe     = regexp.MustCompile(`previous (\w+) \(id (\d+)\)`)
	crashFact  = regexp.MustCompile(`([\w-]+)/([\w-]+): (\d+) pods in CrashLoopBackOff`)
	clusterDep = regexp.MustCompile(`deployment ([\w-]+) on ([\w-]+) is at revision (\d+)`)
)

// report is the final incident report, built from the subagents' findings.
// The root cause is stated only when the findings connect a change to the
// failing pods; otherwise the report says it is not established.
func report(v *view) string {
	var all strings.Builder
	for _, t := range v.made(SpawnToolName, "") {
		all.WriteString(t.result + "\n")
	}
	text := all.String()
	var b strings.Builder
	b.WriteString("INCIDENT REPORT\n\n")
	mr := mrFactRe.FindStringSubmatch(text)
	dep := deployRe.FindStringSubmatch(text)
	crash := crashFact.FindStringSubmatch(text)
	switch {
	case mr != nil && crash != nil:
		fmt.Fprintf(&b, "Root cause: merge request !%s %q (%s, merged %s) on %s", mr[2], mr[3], mr[4], mr[5], mr[1])
		if dep != nil && strings.HasPrefix(mr[6], dep[2]) {
			fmt.Fprintf(&b, " was deployed as %s (history id %s) at %s", dep[1], dep[3], dep[4])
		}
		fmt.Fprintf(&b, "; since then %s pods in namespace %s on %s are in CrashLoopBackOff.\n", crash[3], crash[2], crash[1])
		if strings.Contains(text, "maxPoolSize") {
			if m := regexp.MustCompile(`changes \S+: [^\n]*maxPoolSize[^\n]*`).FindString(text); m != "" {
				fmt.Fprintf(&b, "Mechanism: !%s %s, and the pods exhaust the smaller DB connection pool.\n", mr[2], m)
			}
		}
	default:
		b.WriteString("Root cause: not established from the findings below.\n")
	}
	b.WriteString("\nEvidence:\n")
	for _, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(line, "## ") {
			b.WriteString("  " + strings.TrimPrefix(line, "## ") + "\n")
		}
		line = strings.TrimPrefix(line, "answer: ")
		if strings.HasPrefix(line, "- ") {
			b.WriteString("    " + line + "\n")
		}
	}
	b.WriteString("\nNext steps:\n")
	if dep != nil {
		if p := prevRe.FindStringSubmatch(text); p != nil {
			fmt.Fprintf(&b, "  1. Roll %s back to revision %s (Argo CD history id %s).\n", dep[1], p[1], p[2])
		} else {
			fmt.Fprintf(&b, "  1. Roll %s back to its previous revision.\n", dep[1])
		}
	}
	if mr != nil {
		fmt.Fprintf(&b, "  2. Revert !%s on %s before the next deploy, and size the pool for peak load.\n", mr[2], mr[1])
	}
	if cd := clusterDep.FindStringSubmatch(text); cd != nil {
		fmt.Fprintf(&b, "  3. Confirm %s on %s leaves revision %s and the pods become ready.\n", cd[1], cd[2], cd[3])
	}
	return strings.TrimRight(b.String(), "\n")
}

// answers keeps the answers of a spawnSubagents result, without the task
// lines the orchestrator itself wrote.
func answers(result string) string {
	var b strings.Builder
	for _, l := range strings.Split(result, "\n") {
		if !strings.HasPrefix(l, "task: ") {
			b.WriteString(l + "\n")
		}
	}
	return b.String()
}
