package subagent_test

import (
	"testing"

	"github.com/mcpfleet/mcpfleet/internal/tokens"
	"github.com/mcpfleet/mcpfleet/subagent"
)

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

// TestSliceTokens pins the token figures of the design on a 23-server fleet.
func TestSliceTokens(t *testing.T) {
	mx, _ := newFleet(t, fleet23()...)
	if n := len(mx.Servers()); n != 23 {
		t.Fatalf("%d servers", n)
	}
	overview := tokens.Count(mx.Overview())
	var all int
	for _, s := range mx.Servers() {
		all += tokens.MCPTools(s.Tools)
	}
	c, err := subagent.SliceTokens(t.Context(), mx, subagent.Config{Servers: []string{"k8s-1", "prom-1", "gitlab-ro"}, Mode: "on"})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("overview %d tokens; every tool of the fleet %d tokens (%.0fx the overview)", overview, all, float64(all)/float64(overview))
	t.Logf("slice %v: %+v", c.Servers, c)
	if overview > 200 {
		t.Errorf("overview is %d tokens, want <= 200", overview)
	}
	if c.Total > 10000 {
		t.Errorf("3-server slice is %d tokens, want <= 10000", c.Total)
	}
	if c.MetaTools == 0 || c.CatalogBlock == 0 || c.ActiveTools == 0 || c.Mode != "on" {
		t.Errorf("slice cost lacks parts: %+v", c)
	}
}
