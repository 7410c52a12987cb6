package orchestrator_test

// fleet23 is a 23-server fleet over every fixture family.
func fleet23() []srv {
	return []srv{
		{name: "k8s-1", kind: "kubernetes", fixture: "kubernetes"},
		{name: "k8s-2", kind: "kubernetes", fixture: "kubernetes"},
		{name: "k8s-3", kind: "kubernetes", fixture: "kubernetes"},
		{name: "k8s-4", kind: "kubernetes", fixture: "kubernetes"},
		{name: "k8s-5", kind: "kubernetes", fixture: "kubernetes"},
		{name: "k8s-mc", kind: "kubernetes_multicluster", fixture: "kubernetes_multicluster"},
		{name: "k8s-tools", kind: "kubernetes_toolsets", fixture: "kubernetes_optional_toolsets"},
		{name: "gitlab-rw", kind: "gitlab", fixture: "gitlab"},
		{name: "gitlab-ro", kind: "gitlab", fixture: "gitlab_readonly"},
		{name: "github", kind: "github", fixture: "github"},
		{name: "prom-1", kind: "prometheus", fixture: "prometheus"},
		{name: "prom-2", kind: "prometheus", fixture: "prometheus"},
		{name: "prom-3", kind: "prometheus", fixture: "prometheus"},
		{name: "grafana-rw", kind: "grafana", fixture: "grafana"},
		{name: "grafana-ro", kind: "grafana", fixture: "grafana_readonly"},
		{name: "jaeger", kind: "jaeger", fixture: "jaeger"},
		{name: "opensearch-1", kind: "opensearch", fixture: "opensearch"},
		{name: "opensearch-2", kind: "opensearch", fixture: "opensearch"},
		{name: "elasticsearch", kind: "elasticsearch", fixture: "elasticsearch"},
		{name: "jira", kind: "jira", fixture: "jira"},
		{name: "confluence", kind: "confluence", fixture: "confluence"},
		{name: "slack", kind: "slack", fixture: "slack"},
		{name: "notion", kind: "notion", fixture: "notion"},
	}
}
