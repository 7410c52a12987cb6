package subagent_test

import (
	"testing"

	"github.com/mcpfleet/mcpfleet/internal/tokens"
	"github.com/mcpfleet/mcpfleet/subagent"
)

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
