package realservers

import (
	"testing"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpfleet/mcpfleet/internal/tokens"
	"github.com/mcpfleet/mcpfleet/subagent"
)

// A subagent over two Kubernetes clusters and one filesystem server, on the
// servers' real schemas: what its first model call carries against the
// three servers' own tool lists.
func TestSliceLean(t *testing.T) {
	mx := fleet(t)
	slice := []string{"k8s-3", "k8s-4", "fs-1"}
	var unfolded []mcp.Tool
	for _, s := range mx.Servers() {
		for _, n := range slice {
			if s.Name == n {
				unfolded = append(unfolded, s.Tools...)
			}
		}
	}
	c, err := subagent.SliceTokens(t.Context(), mx, subagent.Config{Servers: slice, Mode: "on"})
	if err != nil {
		t.Fatal(err)
	}
	base := tokens.MCPTools(unfolded)
	tools, prompt := float64(c.Tools)/float64(base), float64(c.Total)/float64(base)
	t.Logf("slice %v: unfolded %d tools, %d tokens; %+v; tool definitions %.2fx, first prompt %.2fx", slice, len(unfolded), base, c, tools, prompt)
	if tools > 0.65 {
		t.Errorf("tool definitions are %.2fx the unfolded tools, want <= 0.65", tools)
	}
	if prompt > 0.85 {
		t.Errorf("first prompt is %.2fx the unfolded tools, want <= 0.85", prompt)
	}
}
