package catalog_test

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpfleet/mcpfleet/catalog"
	"github.com/mcpfleet/mcpfleet/catalog/internal/catalogtest"
	"github.com/mcpfleet/mcpfleet/internal/fixtures"
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
		{"colon inside brackets", "List widgets (default: yours; use scope=all for all). More.", "List widgets (default: yours; use scope=all for all)"},
		{"abbreviation in brackets", "Add a tag (e.g. red, blue). More.", "Add a tag (e.g. red, blue)"},
		{"long line drops parentheticals", "Fetch one widget by id and return its parts (with sizes, colours, prices and stock levels in every warehouse) and its history of owners",
			"Fetch one widget by id and return its parts and its history of owners"},
		{"clip never ends in a bracket", "Fetch one widget " + long + " (and " + long + ")",
			"Fetch one widget " + strings.TrimSpace(strings.Repeat("word ", 20)) + "…"},
		{"unclosed bracket in source", "Fetch one widget (by id and return it", "Fetch one widget…"},
		{"stray opener near the start", "Fetch (one widget", "Fetch one widget"},
		{"unclosed quote", `Fetch the widget named "` + long, "Fetch the widget named…"},
		{"apostrophe is not a quote", "List the user's widgets. More.", "List the user's widgets"},
		// Found by FuzzGenerateLine: closeOff removed the lone quote and
		// left an empty line instead of the name.
		{"only a stray quote falls back to name", `"`, "pods list"},
		{"only a stray bracket falls back to name", "(", "pods list"},
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

// TestGenerateLineFixtures runs GenerateLine on real descriptions that
// have a bracket, and checks no line ends inside one; whether the
// parenthetical survives whole or is dropped depends on the length.
func TestGenerateLineFixtures(t *testing.T) {
	tests := []struct {
		kind, tool string
		keepsParen bool // the line still holds a whole (…)
	}{
		{"gitlab", "list_merge_requests", true},
		{"gitlab", "list_issues", true},
		{"gitlab", "list_events", true},
		{"gitlab", "download_attachment", true},
		{"gitlab", "create_issue_emoji_reaction", true},
		{"grafana", "list_provisioning_repositories", true},
		{"grafana", "query_loki_logs", false},
		{"kubernetes_optional_toolsets", "kiali_get_trace_details", false},
	}
	for _, tc := range tests {
		t.Run(tc.kind+"/"+tc.tool, func(t *testing.T) {
			var desc string
			for _, tl := range fixtures.MustLoad(t, tc.kind).Tools {
				if tl.Name == tc.tool {
					desc = tl.Description
				}
			}
			if !strings.Contains(desc, "(") {
				t.Fatalf("fixture %s.%s has no '(' in its description; pick another case", tc.kind, tc.tool)
			}
			got := catalog.GenerateLine(mcp.Tool{Name: tc.tool, Description: desc})
			if !balanced(got) {
				t.Errorf("line ends inside a bracket or quote: %q", got)
			}
			if keeps := strings.Contains(got, "(") && strings.Contains(got, ")"); keeps != tc.keepsParen {
				t.Errorf("keeps parenthetical = %v, want %v: %q", keeps, tc.keepsParen, got)
			}
			if n := utf8.RuneCountInString(got); n > catalog.MaxLineLen || n < 20 {
				t.Errorf("%d runes: %q", n, got)
			}
		})
	}
}

// balanced reports whether every (, [, { and " in s is closed.
func balanced(s string) bool {
	depth := 0
	for _, r := range s {
		switch r {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
		}
		if depth < 0 {
			return false
		}
	}
	return depth == 0 && strings.Count(s, `"`)%2 == 0
}

// TestFleetLines checks every generated line of the real fleet.
func TestFleetLines(t *testing.T) {
	for _, e := range catalogtest.BuildFleet(t).Entries() {
		l := e.Line
		switch {
		case l == "":
			t.Errorf("%s: empty line", e.Key())
		case utf8.RuneCountInString(l) > catalog.MaxLineLen:
			t.Errorf("%s: %d runes", e.Key(), utf8.RuneCountInString(l))
		case strings.ContainsAny(l, "`\n") || strings.Contains(l, "**") || strings.Contains(l, "http"):
			t.Errorf("%s: markup left in %q", e.Key(), l)
		case !balanced(l):
			t.Errorf("%s: line ends inside a bracket or quote: %q", e.Key(), l)
		}
	}
}
