package search

import "testing"

// A short form meets the word a tool spells out, both ways: "orgs" in a
// tool name meets "organizations" in a request, "var" in a request
// meets "variable" in a tool name, "VMs" meets "virtual machines".
func TestAbbreviationsFold(t *testing.T) {
	docs := []Doc{
		{Kind: "cloud", Tool: "list_orgs", Description: "List the orgs the token can access."},
		{Kind: "cloud", Tool: "get_token_permissions", Description: "Get the permissions of the API token: which organizations, projects and teams it can access."},
		{Kind: "cloud", Tool: "create_workspace_variable", Description: "Create a variable in a workspace."},
		{Kind: "cloud", Tool: "create_workspace_tags", Description: "Add tags to a workspace, as key:value pairs."},
		{Kind: "cloud", Tool: "compute", Description: "Manage virtual machines: list, create, start, stop and resize them."},
		{Kind: "cloud", Tool: "list_runs", Description: "List the runs that are running or queued in a workspace."},
	}
	idx := New(docs, Options{NoRerank: true})
	for _, tc := range []struct {
		query, want string
	}{
		{"which organizations can I access with this token?", "list_orgs"},
		{"add env var LOG_LEVEL=debug to workspace staging", "create_workspace_variable"},
		{"which VMs do we have in rg-batch?", "compute"},
	} {
		if got := topTool(t, idx, docs, tc.query); got != tc.want {
			t.Errorf("top of %q = %s, want %s (ranking %v)", tc.query, got, tc.want, rankedTools(t, idx, docs, tc.query, 4))
		}
	}
}
