package catalog_test

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpfleet/mcpfleet/catalog"
	"github.com/mcpfleet/mcpfleet/catalog/internal/catalogtest"
	"github.com/mcpfleet/mcpfleet/kindgroups"
)

func TestPermit(t *testing.T) {
	servers := []kindgroups.Server{
		{Name: "k1", Kind: "k", Tools: []mcp.Tool{catalogtest.Tool("look", "Look.", true), catalogtest.Tool("wipe", "Wipe.", false)}},
		{Name: "k2", Kind: "k", Tools: []mcp.Tool{catalogtest.Tool("look", "Look.", true)}},
	}
	c := catalog.Build(servers, catalog.Config{})
	tests := []struct {
		name         string
		server, tool string
		scopes       []string
		want         *catalog.GateError
	}{
		{"read tool, read scope", "k1", "look", []string{"read"}, nil},
		{"write tool, write scope", "k1", "wipe", []string{"write"}, nil},
		{"write tool, every scope", "k1", "wipe", []string{"*"}, nil},
		{"write tool, read scope", "k1", "wipe", []string{"read"},
			&catalog.GateError{Server: "k1", Tool: "wipe", Kind: "k", Reason: catalog.ReasonNotPermitted, Needs: []string{"write"}}},
		// Unknown pairs pass: the Mux refuses them with its own reason.
		{"unknown server", "nope", "wipe", []string{"read"}, nil},
		{"unknown tool", "k1", "nope", []string{"read"}, nil},
		{"tool not on that server", "k2", "wipe", []string{"read"}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := c.Permit(tc.server, tc.tool, tc.scopes)
			var got *catalog.GateError
			if err != nil && !errors.As(err, &got) {
				t.Fatalf("err = %v, want *GateError", err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
	err := c.Permit("k1", "wipe", nil)
	want := "call to k1.wipe rejected (not_permitted): the caller is not permitted to use this tool.\n- at tool: It needs scope write.\nDo not retry; use a tool you are permitted to use."
	if got := err.(*catalog.GateError).ModelText(); got != want {
		t.Errorf("ModelText =\n%s\nwant\n%s", got, want)
	}
}
