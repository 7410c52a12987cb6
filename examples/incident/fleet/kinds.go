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
