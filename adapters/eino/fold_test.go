package eino_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	mcpeino "github.com/mcpfleet/mcpfleet/adapters/eino"
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
