package eino_test

import (
	"encoding/json"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mark3labs/mcp-go/mcp"

	mcpeino "github.com/mcpfleet/mcpfleet/adapters/eino"
	"github.com/mcpfleet/mcpfleet/kindgroups"
)

func TestFold(t *testing.T) {
	mx, _ := newFleet(t,
		srv{"k8s-2", "kubernetes", "kubernetes"}, srv{"k8s-4", "kubernetes", "kubernetes"},
		srv{"gitlab-rw", "gitlab", "gitlab"}, srv{"gitlab-ro", "gitlab", "gitlab_readonly"},
		srv{"github", "github", "github"},
		srv{"grafana-rw", "grafana", "grafana"}, srv{"grafana-ro", "grafana", "grafana_readonly"},
	)
	plan := mcpeino.Fold(mx.KindGroups(), mx.Tool)
	type row struct {
		Name, Kind, Tool string
		Servers          []string
		ServerArg        bool
	}
	get := func(name string) row {
		s, ok := plan.Lookup(name)
		if !ok {
			t.Fatalf("no tool %q in plan", name)
		}
		return row{s.Name, s.Kind, s.Tool, s.Servers, s.ServerArg}
	}
	tests := []struct {
		name string
		want row
	}{
		{"pods_list", row{"pods_list", "kubernetes", "pods_list", []string{"k8s-2", "k8s-4"}, true}},
		// a read-only sibling lacks write tools: the enum lists only the server that has it
		{"gitlab__create_branch", row{"gitlab__create_branch", "gitlab", "create_branch", []string{"gitlab-rw"}, true}},
		{"gitlab__get_file_contents", row{"gitlab__get_file_contents", "gitlab", "get_file_contents", []string{"gitlab-ro", "gitlab-rw"}, true}},
		{"github__get_file_contents", row{"github__get_file_contents", "github", "get_file_contents", []string{"github"}, true}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, get(tc.name)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
	var drifted []string
	for _, d := range plan.Drift {
		if d.Kind == "grafana" {
			drifted = append(drifted, d.Tool)
		}
	}
	// grafana_readonly changes the input schema of these (kindgroups decides drift)
	if diff := cmp.Diff([]string{"alerting_manage_rules", "alerting_manage_silences", "grafana_api_request"}, drifted); diff != "" {
		t.Fatalf("grafana drift (-want +got):\n%s", diff)
	}
	for _, tool := range drifted {
		for _, s := range []string{"grafana-ro", "grafana-rw"} {
			spec, ok := plan.Lookup(s + "__" + tool)
			if !ok || spec.ServerArg || !slices.Equal(spec.Servers, []string{s}) {
				t.Errorf("drifted %s on %s: got %+v, %v", tool, s, spec, ok)
			}
		}
		if _, ok := plan.Lookup(tool); ok {
			t.Errorf("drifted %s is also folded", tool)
		}
	}
	// names are unique and API-safe
	seen := map[string]bool{}
	for _, s := range plan.Specs {
		if seen[s.Name] {
			t.Errorf("duplicate name %s", s.Name)
		}
		seen[s.Name] = true
	}
}

func TestToolServerEnum(t *testing.T) {
	mx, _ := newFleet(t, srv{"gitlab-rw", "gitlab", "gitlab"}, srv{"gitlab-ro", "gitlab", "gitlab_readonly"})
	tools, _, err := mcpeino.NewTools(mx, mcpeino.ToolsConfig{})
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(tools, func(tl *mcpeino.Tool) bool { return tl.Spec().Name == "get_file_contents" })
	info, _ := tools[i].Info(t.Context())
	js, _ := info.ParamsOneOf.ToJSONSchema()
	var got struct {
		Required   []string `json:"required"`
		Properties map[string]struct {
			Enum []string `json:"enum"`
		} `json:"properties"`
	}
	b, _ := json.Marshal(js)
	_ = json.Unmarshal(b, &got)
	if got.Required[0] != "server" || !slices.Equal(got.Properties["server"].Enum, []string{"gitlab-ro", "gitlab-rw"}) {
		t.Errorf("server param: required %v, enum %v", got.Required, got.Properties["server"].Enum)
	}
	// the first property the model reads is server
	if !strings.HasPrefix(string(b), `{"type":"object","properties":{"server"`) && !strings.Contains(string(b), `"properties":{"server"`) {
		t.Errorf("server is not the first property: %s", b[:min(len(b), 120)])
	}
}

// TestFoldNamesWithinLimits: folded names meet the common client limits
// (at most 64 characters of [a-zA-Z0-9_-]) and stay distinct when two long
// names cut to the same 64 characters or differ only in characters that
// are not allowed.
func TestFoldNamesWithinLimits(t *testing.T) {
	long := strings.Repeat("get_the_metrics_for_every_", 3) // 78 characters
	tools := []string{long + "pod", long + "node", "get.status", "get/status", "get_status"}
	groups := []kindgroups.Group{
		{Kind: "observability", Servers: []string{"o-1"}, Tools: tools, ToolServers: map[string][]string{}},
		{Kind: "other", Servers: []string{"x-1"}, Tools: []string{long + "pod"}, ToolServers: map[string][]string{}},
	}
	for _, g := range groups {
		for _, tl := range g.Tools {
			g.ToolServers[tl] = g.Servers
		}
	}
	plan := mcpeino.Fold(groups, func(server, tool string) (mcp.Tool, bool) { return mcp.NewTool(tool), true })
	valid := regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)
	seen := map[string]string{}
	for _, s := range plan.Specs {
		if !valid.MatchString(s.Name) {
			t.Errorf("%s.%s: folded name %q breaks the client limits", s.Kind, s.Tool, s.Name)
		}
		if prev, ok := seen[s.Name]; ok {
			t.Errorf("%s.%s and %s share the name %q", s.Kind, s.Tool, prev, s.Name)
		}
		seen[s.Name] = s.Kind + "." + s.Tool
	}
	if len(plan.Specs) != 6 {
		t.Errorf("%d specs, want 6", len(plan.Specs))
	}
	if s, ok := plan.Lookup("get_status"); !ok || s.Tool != "get.status" && s.Tool != "get_status" && s.Tool != "get/status" {
		t.Errorf("get_status: %+v %v", s, ok)
	}
}

// Every tool of every fixture folds to a name the common clients accept.
func TestFoldFixtureNames(t *testing.T) {
	var servers []srv
	for _, f := range []string{"azure", "mongodb", "terraform", "chrome_devtools", "github", "gitlab", "grafana", "kubernetes", "opensearch"} {
		servers = append(servers, srv{f, f, f})
	}
	mx, _ := newFleet(t, servers...)
	plan := mcpeino.Fold(mx.KindGroups(), mx.Tool)
	valid := regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)
	seen := map[string]bool{}
	for _, s := range plan.Specs {
		if !valid.MatchString(s.Name) || seen[s.Name] {
			t.Errorf("%s.%s: folded name %q is invalid or repeated", s.Kind, s.Tool, s.Name)
		}
		seen[s.Name] = true
	}
	if len(seen) < 300 {
		t.Errorf("only %d folded tools; the fixtures did not load", len(seen))
	}
}
