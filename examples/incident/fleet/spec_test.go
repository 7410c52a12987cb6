package fleet

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpfleet/mcpfleet/internal/fixtures"
	"github.com/mcpfleet/mcpfleet/internal/tokens"
)

// TestSchemas checks that every kind builds, that tool names are unique,
// and that every input schema is an object schema whose required names are
// declared properties, with a description on every tool.
func TestSchemas(t *testing.T) {
	for _, k := range Kinds() {
		tools, err := Tools(Instance{Kind: k, Name: k})
		if err != nil {
			t.Fatal(err)
		}
		if len(tools) == 0 {
			t.Errorf("kind %s has no tools", k)
		}
		seen := map[string]bool{}
		for _, tl := range tools {
			if seen[tl.Name] {
				t.Errorf("%s: duplicate tool %s", k, tl.Name)
			}
			seen[tl.Name] = true
			var s struct {
				Type       string                     `json:"type"`
				Properties map[string]json.RawMessage `json:"properties"`
				Required   []string                   `json:"required"`
			}
			if err := json.Unmarshal(tl.RawInputSchema, &s); err != nil {
				t.Fatalf("%s/%s: %v", k, tl.Name, err)
			}
			if s.Type != "object" {
				t.Errorf("%s/%s: schema type %q", k, tl.Name, s.Type)
			}
			for _, r := range s.Required {
				if _, ok := s.Properties[r]; !ok {
					t.Errorf("%s/%s: required %q is not a property", k, tl.Name, r)
				}
			}
			if tl.Description == "" {
				t.Errorf("%s/%s: empty description", k, tl.Name)
			}
		}
	}
}

// TestListTools checks that every kind lists, over MCP, exactly the tools
// Tools reports, with explicit hints, and that read-only instances drop the
// write tools.
func TestListTools(t *testing.T) {
	for _, k := range Kinds() {
		t.Run(k, func(t *testing.T) {
			for _, ro := range []bool{false, true} {
				in := Instance{Kind: k, Name: k, ReadOnly: ro}
				want, err := Tools(in)
				if err != nil {
					t.Fatal(err)
				}
				res, err := startInProcess(t, in).ListTools(t.Context(), mcp.ListToolsRequest{})
				if err != nil {
					t.Fatal(err)
				}
				var gotNames, wantNames []string
				for _, tl := range res.Tools {
					gotNames = append(gotNames, tl.Name)
					if tl.Annotations.ReadOnlyHint == nil || tl.Annotations.DestructiveHint == nil {
						t.Errorf("%s: hints not set", tl.Name)
					} else if ro && !*tl.Annotations.ReadOnlyHint {
						t.Errorf("read-only instance lists write tool %s", tl.Name)
					}
				}
				for _, tl := range want {
					wantNames = append(wantNames, tl.Name)
				}
				slices.Sort(gotNames)
				slices.Sort(wantNames)
				if diff := cmp.Diff(wantNames, gotNames); diff != "" {
					t.Errorf("readOnly=%v tool names (-want +got):\n%s", ro, diff)
				}
			}
		})
	}
}

// TestHonestHints pins the hints of tools whose effect is obvious from
// their name: reads are read-only, deletes and rollbacks destructive.
func TestHonestHints(t *testing.T) {
	for _, k := range Kinds() {
		tools, err := Tools(Instance{Kind: k, Name: k})
		if err != nil {
			t.Fatal(err)
		}
		for _, tl := range tools {
			ro, de := *tl.Annotations.ReadOnlyHint, *tl.Annotations.DestructiveHint
			name := strings.TrimPrefix(strings.TrimPrefix(tl.Name, "jira_"), "confluence_")
			switch {
			case strings.HasPrefix(name, "delete_") || strings.HasPrefix(name, "rollback_") || strings.HasPrefix(name, "remove_"):
				if ro || !de {
					t.Errorf("%s/%s: readOnly=%v destructive=%v, want false/true", k, tl.Name, ro, de)
				}
			case strings.HasPrefix(name, "create_") || strings.HasPrefix(name, "update_") || strings.HasPrefix(name, "add_") ||
				strings.HasPrefix(name, "sync_") || strings.HasPrefix(name, "acknowledge_") || strings.HasPrefix(name, "resolve_"):
				if ro {
					t.Errorf("%s/%s is a write tool marked read-only", k, tl.Name)
				}
			case strings.HasPrefix(name, "get_") || strings.HasPrefix(name, "list_") || strings.HasPrefix(name, "search"):
				if !ro || de {
					t.Errorf("%s/%s: readOnly=%v destructive=%v, want true/false", k, tl.Name, ro, de)
				}
			}
		}
	}
}

// TestParityWithFixtures checks every simulated kind with a real
// counterpart against its fixture: every tool and every argument name
// exists in the real server's schema (names are facts), and the tool count
// and o200k size stay within 30% of the real ones, so that catalog and
// token figures measured on the simulated fleet transfer to real servers.
func TestParityWithFixtures(t *testing.T) {
	cases := []struct {
		fixture string
		in      Instance
	}{
		{"kubernetes", Instance{Kind: "kubernetes", Name: "k8s-1"}},
		{"gitlab", Instance{Kind: "gitlab", Name: "gitlab-a-write"}},
		{"gitlab_readonly", Instance{Kind: "gitlab", Name: "gitlab-a", ReadOnly: true}},
		{"prometheus", Instance{Kind: "prometheus", Name: "prometheus-a"}},
		{"opensearch", Instance{Kind: "opensearch", Name: "opensearch-a"}},
		{"jaeger", Instance{Kind: "tracing", Name: "tracing"}},
		{"jira", Instance{Kind: "jira", Name: "jira"}},
		{"confluence", Instance{Kind: "wiki", Name: "wiki"}},
		{"grafana", Instance{Kind: "grafana", Name: "grafana"}},
		{"grafana_readonly", Instance{Kind: "grafana", Name: "grafana", ReadOnly: true}},
		{"slack", Instance{Kind: "slack", Name: "slack"}},
	}
	props := func(t *testing.T, tl mcp.Tool) map[string]bool {
		t.Helper()
		var s struct {
			Properties map[string]json.RawMessage `json:"properties"`
		}
		raw := tl.RawInputSchema
		if raw == nil {
			b, err := json.Marshal(tl.InputSchema)
			if err != nil {
				t.Fatal(err)
			}
			raw = b
		}
		if err := json.Unmarshal(raw, &s); err != nil {
			t.Fatalf("%s: %v", tl.Name, err)
		}
		m := map[string]bool{}
		for p := range s.Properties {
			m[p] = true
		}
		return m
	}
	for _, c := range cases {
		t.Run(c.fixture, func(t *testing.T) {
			f := fixtures.MustLoad(t, c.fixture)
			real := map[string]map[string]bool{}
			for _, rt := range f.Tools {
				real[rt.Name] = props(t, rt)
			}
			got, err := Tools(c.in)
			if err != nil {
				t.Fatal(err)
			}
			for _, g := range got {
				rp, ok := real[g.Name]
				if !ok {
					t.Errorf("tool %q does not exist in fixture %s", g.Name, c.fixture)
					continue
				}
				for p := range props(t, g) {
					if !rp[p] {
						t.Errorf("%s: argument %q is not in the fixture", g.Name, p)
					}
				}
			}
			within := func(what string, got, want int) {
				if r := float64(got) / float64(want); r < 0.7 || r > 1.3 {
					t.Errorf("%s: got %d, fixture %d (ratio %.2f, want 0.70–1.30)", what, got, want, r)
				}
			}
			within("tool count", len(got), len(f.Tools))
			within("o200k tokens", tokens.MCPTools(got), tokens.MCPTools(f.Tools))
			t.Logf("%s: %d/%d tools, %d/%d tokens", c.fixture, len(got), len(f.Tools), tokens.MCPTools(got), tokens.MCPTools(f.Tools))
		})
	}
}

// TestReadOnlyIsExactSubset mirrors the real gitlab server: the read-only
// instance is exactly the ReadOnly subset of the write instance.
func TestReadOnlyIsExactSubset(t *testing.T) {
	full, _ := Tools(Instance{Kind: "gitlab", Name: "gitlab-a-write"})
	ro, _ := Tools(Instance{Kind: "gitlab", Name: "gitlab-a", ReadOnly: true})
	var want []string
	for _, tl := range full {
		if *tl.Annotations.ReadOnlyHint {
			want = append(want, tl.Name)
		}
	}
	var got []string
	for _, tl := range ro {
		got = append(got, tl.Name)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("read-only tools (-want +got):\n%s", diff)
	}
	if slices.Contains(got, "create_merge_request") || !slices.Contains(got, "get_merge_request") {
		t.Errorf("read-only gitlab must lack create_merge_request and keep get_merge_request")
	}
	if f, err := fixtures.Load("gitlab_readonly"); err == nil {
		var names []string
		for _, tl := range f.Tools {
			names = append(names, tl.Name)
		}
		slices.Sort(names)
		slices.Sort(got)
		if diff := cmp.Diff(names, got); diff != "" {
			t.Errorf("read-only tools vs fixture (-fixture +got):\n%s", diff)
		}
	}
}

func TestUnknownKind(t *testing.T) {
	if _, err := NewServer(Instance{Kind: "nope", Name: "x"}); err == nil || !strings.Contains(err.Error(), "unknown kind") {
		t.Errorf("NewServer(nope) = %v, want unknown kind error", err)
	}
}
