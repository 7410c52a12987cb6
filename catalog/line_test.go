package catalog_test

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpfleet/mcpfleet/catalog"
)

func TestGenerateLine(t *testing.T) {
	long := strings.Repeat("word ", 40)
	tests := []struct {
		name, desc, want string
	}{
		{"first sentence", "List pods. Also lists sidecars.", "List pods"},
		{"markdown", "## Get **the** `pod` status\n- bullet", "Get the pod status bullet"},
		{"url", "Query Loki (see https://grafana.com/docs/loki) for log lines.", "Query Loki for log lines"},
		{"args dump", "Create an issue in a project.\nArgs:\n  title: the title", "Create an issue in a project"},
		{"args inline", "Create an issue Args: project_id (str)", "Create an issue"},
		{"json blob", `Update a resource {"kind": "Pod", "name": "x"} in place.`, "Update a resource in place"},
		{"colon clause", "Search Confluence content: supports CQL and plain text", "Search Confluence content"},
		{"short colon kept", "WARNING: deletes everything in the namespace", "WARNING: deletes everything in the namespace"},
		{"abbreviation", "List targets, e.g. scrape pools. More here.", "List targets, e.g. scrape pools"},
		{"version dot", "Uses v1.2 of the API. Second.", "Uses v1.2 of the API"},
		{"clip at word", long, strings.TrimSpace(strings.Repeat("word ", 23)) + "…"},
		{"empty falls back to name", "", "pods list"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := catalog.GenerateLine(mcp.Tool{Name: "pods_list", Description: tc.desc})
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
			if n := utf8.RuneCountInString(got); n > catalog.MaxLineLen {
				t.Errorf("%d runes, want <= %d", n, catalog.MaxLineLen)
			}
		})
	}
}

// TestFleetLines checks every generated line of the real fleet.
func TestFleetLines(t *testing.T) {
	for _, e := range buildFleet(t).Entries() {
		l := e.Line
		switch {
		case l == "":
			t.Errorf("%s: empty line", e.Key())
		case utf8.RuneCountInString(l) > catalog.MaxLineLen:
			t.Errorf("%s: %d runes", e.Key(), utf8.RuneCountInString(l))
		case strings.ContainsAny(l, "`\n") || strings.Contains(l, "**") || strings.Contains(l, "http"):
			t.Errorf("%s: markup left in %q", e.Key(), l)
		}
	}
}
