package kindgroups

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpfleet/mcpfleet/internal/fixtures"
	"github.com/mcpfleet/mcpfleet/internal/tokens"
)

func tool(name, schema string) mcp.Tool {
	return mcp.Tool{Name: name, RawInputSchema: json.RawMessage(schema)}
}

func TestFold(t *testing.T) {
	obj := `{"type":"object","properties":{"name":{"type":"string"}}}`
	objReordered := `{ "properties":{"name":{"type":"string"}}, "type":"object" }`
	drifted := `{"type":"object","properties":{"podName":{"type":"string"}}}`
	tests := []struct {
		name    string
		servers []Server
		want    []Group
	}{
		{
			name: "identical servers fold and key order is not drift",
			servers: []Server{
				{Name: "k8s-2", Kind: "kubernetes", Tools: []mcp.Tool{tool("pods_get", obj)}},
				{Name: "k8s-1", Kind: "kubernetes", Tools: []mcp.Tool{tool("pods_get", objReordered)}},
			},
			want: []Group{{Kind: "kubernetes", Servers: []string{"k8s-1", "k8s-2"}, Tools: []string{"pods_get"},
				ToolServers: map[string][]string{"pods_get": {"k8s-1", "k8s-2"}}}},
		},
		{
			name: "read-only sibling lacks write tools",
			servers: []Server{
				{Name: "gitlab-a-write", Kind: "gitlab", Tools: []mcp.Tool{tool("get_issue", obj), tool("create_issue", obj)}},
				{Name: "gitlab-a", Kind: "gitlab", Tools: []mcp.Tool{tool("get_issue", obj)}},
			},
			want: []Group{{Kind: "gitlab", Servers: []string{"gitlab-a", "gitlab-a-write"}, Tools: []string{"create_issue", "get_issue"},
				ToolServers: map[string][]string{"create_issue": {"gitlab-a-write"}, "get_issue": {"gitlab-a", "gitlab-a-write"}}}},
		},
		{
			name: "drift is reported with its variants",
			servers: []Server{
				{Name: "k8s-1", Kind: "kubernetes", Tools: []mcp.Tool{tool("pods_log", obj)}},
				{Name: "k8s-2", Kind: "kubernetes", Tools: []mcp.Tool{tool("pods_log", drifted)}},
				{Name: "k8s-3", Kind: "kubernetes", Tools: []mcp.Tool{tool("pods_log", obj)}},
			},
			want: []Group{{Kind: "kubernetes", Servers: []string{"k8s-1", "k8s-2", "k8s-3"}, Tools: []string{"pods_log"},
				ToolServers: map[string][]string{"pods_log": {"k8s-1", "k8s-2", "k8s-3"}},
				Drift:       []Drift{{Tool: "pods_log", Variants: [][]string{{"k8s-1", "k8s-3"}, {"k8s-2"}}}}}},
		},
		{
			name: "empty kind is the server's own name, kinds sorted",
			servers: []Server{
				{Name: "wiki", Tools: []mcp.Tool{tool("search", obj)}},
				{Name: "jira", Tools: []mcp.Tool{tool("search", obj)}},
			},
			want: []Group{
				{Kind: "jira", Servers: []string{"jira"}, Tools: []string{"search"}, ToolServers: map[string][]string{"search": {"jira"}}},
				{Kind: "wiki", Servers: []string{"wiki"}, Tools: []string{"search"}, ToolServers: map[string][]string{"search": {"wiki"}}},
			},
		},
		{name: "no servers", servers: nil, want: []Group{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := Fold(tc.servers)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("Fold mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestOverview(t *testing.T) {
	groups := []Group{
		{Kind: "gitlab", Servers: []string{"gitlab-a", "gitlab-b"}},
		{Kind: "kubernetes", Servers: []string{"k8s-1", "k8s-2", "k8s-3"}},
	}
	want := "gitlab: gitlab-a, gitlab-b\nkubernetes: k8s-1, k8s-2, k8s-3\n"
	if got := Overview(groups); got != want {
		t.Errorf("Overview = %q, want %q", got, want)
	}
	if g, ok := Lookup(groups, "kubernetes"); !ok || len(g.Servers) != 3 {
		t.Errorf("Lookup(kubernetes) = %v, %v", g, ok)
	}
	if _, ok := Lookup(groups, "jira"); ok {
		t.Error("Lookup(jira) found a group that does not exist")
	}
}

// TestFoldRealFixtures folds five copies of the real Kubernetes server and a
// read-only GitLab beside a full one, and checks what the token figures rest
// on: one tool list per kind, subsets kept apart, no false drift.
func TestFoldRealFixtures(t *testing.T) {
	k8s := fixtures.MustLoad(t, "kubernetes")
	gl := fixtures.MustLoad(t, "gitlab")
	glro := fixtures.MustLoad(t, "gitlab_readonly")
	var servers []Server
	for _, n := range []string{"k8s-1", "k8s-2", "k8s-3", "k8s-4", "k8s-5"} {
		servers = append(servers, Server{Name: n, Kind: "kubernetes", Tools: k8s.Tools})
	}
	servers = append(servers,
		Server{Name: "gitlab-a", Kind: "gitlab", Tools: glro.Tools},
		Server{Name: "gitlab-a-write", Kind: "gitlab", Tools: gl.Tools})
	groups := Fold(servers)
	if len(groups) != 2 {
		t.Fatalf("got %d groups, want 2", len(groups))
	}
	kg, _ := Lookup(groups, "kubernetes")
	if len(kg.Tools) != len(k8s.Tools) || len(kg.Drift) != 0 {
		t.Errorf("kubernetes: %d tools, %d drift; want %d, 0", len(kg.Tools), len(kg.Drift), len(k8s.Tools))
	}
	gg, _ := Lookup(groups, "gitlab")
	if len(gg.Tools) != len(gl.Tools) {
		t.Errorf("gitlab: %d tools, want %d (the union)", len(gg.Tools), len(gl.Tools))
	}
	writeOnly := 0
	for _, name := range gg.Tools {
		if len(gg.ToolServers[name]) == 1 {
			writeOnly++
			if gg.ToolServers[name][0] != "gitlab-a-write" {
				t.Errorf("%s only on %v, want only on gitlab-a-write", name, gg.ToolServers[name])
			}
		}
	}
	if writeOnly != len(gl.Tools)-len(glro.Tools) {
		t.Errorf("write-only tools = %d, want %d", writeOnly, len(gl.Tools)-len(glro.Tools))
	}
	full := 0
	for _, s := range servers {
		full += tokens.MCPTools(s.Tools)
	}
	ov := tokens.Count(Overview(groups))
	t.Logf("full catalog %d tokens, overview %d tokens (%.0fx)", full, ov, float64(full)/float64(ov))
	if ov*100 > full {
		t.Errorf("overview %d tokens is not two orders below the full catalog %d", ov, full)
	}
}
