package fleet

// kinds maps each kind name to its spec. It builds a fresh map on each call
// so that no package-level state exists to mutate.
func kinds() map[string]kindSpec {
	return map[string]kindSpec{
		"kubernetes":   kubernetesKind(),
		"gitlab":       gitlabKind(),
		"prometheus":   prometheusKind(),
		"opensearch":   opensearchKind(),
		"tracing":      tracingKind(),
		"jira":         jiraKind(),
		"wiki":         wikiKind(),
		"grafana":      grafanaKind(),
		"slack":        slackKind(),
		"alertmanager": alertmanagerKind(),
		"statuspage":   statuspageKind(),
		"pagerduty":    pagerdutyKind(),
		"argocd":       argocdKind(),
	}
}

// withHandlers attaches handlers to a kind's generated tool table by name.
// A name in hs that is not in the table is a programmer error: it panics so
// that a renamed tool cannot silently lose its incident data.
func withHandlers(tools []toolSpec, hs map[string]handler) []toolSpec {
	seen := 0
	for i := range tools {
		if h, ok := hs[tools[i].Name]; ok {
			tools[i].Handle = h
			seen++
		}
	}
	if seen != len(hs) {
		for name := range hs {
			found := false
			for _, t := range tools {
				found = found || t.Name == name
			}
			if !found {
				panic("fleet: handler for unknown tool " + name)
			}
		}
	}
	return tools
}

// withDefaults gives every tool without a handler the kind's per-tool
// fallback, which knows the tool name (kindSpec.Default does not).
func withDefaults(tools []toolSpec, def func(tool string) handler) []toolSpec {
	for i := range tools {
		if tools[i].Handle == nil {
			tools[i].Handle = def(tools[i].Name)
		}
	}
	return tools
}
