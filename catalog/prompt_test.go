package catalog_test

import (
	"testing"

	"github.com/mcpfleet/mcpfleet/catalog"
)

func TestToolDescription(t *testing.T) {
	tests := []struct{ desc, avoid, want string }{
		{"Get a pod.", "", "Get a pod."},
		{"Get a pod.\n", "  ", "Get a pod.\n"},
		{"Get a pod.\n", "it is a Deployment", "Get a pod.\n\nAvoid when: it is a Deployment"},
		{"", "it is a Deployment", "Avoid when: it is a Deployment"},
	}
	for _, tc := range tests {
		if got := catalog.ToolDescription(tc.desc, tc.avoid); got != tc.want {
			t.Errorf("ToolDescription(%q, %q) = %q, want %q", tc.desc, tc.avoid, got, tc.want)
		}
	}
}
