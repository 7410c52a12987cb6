package catalog_test

import (
	"testing"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpfleet/mcpfleet/catalog"
	"github.com/mcpfleet/mcpfleet/catalog/internal/catalogtest"
	"github.com/mcpfleet/mcpfleet/kindgroups"
)

// TestSearchCompoundNames: run-together names meet the words a request
// says, through the index's own vocabulary, and a one-word name is a word
// of the request, not a name it quotes.
func TestSearchCompoundNames(t *testing.T) {
	c := catalog.Build([]kindgroups.Server{
		{Name: "cloud", Kind: "cloud", Tools: []mcp.Tool{
			catalogtest.Tool("whoami", "Show the authenticated principal.", true),
			catalogtest.Tool("listprojects", "Return every project the token can see.", true),
			catalogtest.Tool("keyvault", "Manage secrets, keys and certificates.", true),
			catalogtest.Tool("storage", "Manage storage accounts and a vault of blobs.", true),
			catalogtest.Tool("search", "Search cloud resources by name.", true),
		}},
		{Name: "jira", Kind: "jira", Tools: []mcp.Tool{
			catalogtest.Tool("jira_search", "Search Jira issues with JQL.", true),
			catalogtest.Tool("jira_get_issue", "Get one Jira issue.", true),
		}},
	}, catalog.Config{})
	ctx := catalog.WithScopes(t.Context(), catalog.ScopeAll)
	for _, tc := range []struct{ query, first string }{
		{"who am I logged in as", "cloud.whoami"},
		{"list projects", "cloud.listprojects"},
		{"open the key vault", "cloud.keyvault"},
		{"search jira for open bugs", "jira.jira_search"},
		{"search", "cloud.search"},
	} {
		t.Run(tc.query, func(t *testing.T) {
			if got := tops(c.Search(ctx, tc.query, 3)); len(got) == 0 || got[0] != tc.first {
				t.Errorf("top = %v, want %s first", got, tc.first)
			}
		})
	}
}
