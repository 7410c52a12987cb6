package search

import "testing"

func TestGenericChanges(t *testing.T) {
	for q, want := range map[string]intent{
		"change the helm values file of the app to values-prod.yaml":  intentUpdate,
		"please update just the contacts part of the handbook page":   intentUpdate,
		"create a notebook named 'INC-2291' with the queries we used": intentCreate,
		"sync the app":                                   0, // a particular change
		"change the values and sync the app":             0, // one particular change said
		"create a branch and deploy it":                  0, // deploy is a particular making
		"the configmap change never got applied":         0, // a noun
		"enforce policy set polset-123":                  0,
		"set a silence on the alert":                     intentCreate, // makes one
		"what's in the values file":                      0,
		"remove the unused email_1 index from crm.users": 0, // deleting is left out
	} {
		if got := genericChanges(q); got != want {
			t.Errorf("genericChanges(%q) = %b, want %b", q, got, want)
		}
	}
}

// "change the values file of the app" asks to update the app, not to
// sync it; "sync the app" asks to sync it.
func TestGenericChangeRanks(t *testing.T) {
	docs := []Doc{
		{Kind: "deployer", Tool: "update_application", Description: "update_application updates application"},
		{Kind: "deployer", Tool: "sync_application", Description: "sync_application syncs application from its helm source."},
		{Kind: "deployer", Tool: "get_application", Description: "get_application returns application by application name."},
		{Kind: "deployer", Tool: "create_application", Description: "create_application creates a new application in the given namespace."},
		{Kind: "notes", Tool: "execute_query", Description: "Execute a query and return its records. Queries are written in the query language and may be named; queries used in a notebook run the same way."},
		{Kind: "notes", Tool: "create_team_notebook", Description: "Create a notebook for the team."},
		{Kind: "notes", Tool: "list_notebooks", Description: "List notebooks."},
		{Kind: "notes", Tool: "generate_query", Description: "Generate a query from a question."},
		{Kind: "chat", Tool: "post_message", Description: "Post a message to a channel."},
		{Kind: "ci", Tool: "list_pipelines", Description: "List the pipelines of a project."},
	}
	idx := New(docs, Options{NoRerank: true})
	for _, tc := range []struct {
		query, want string
	}{
		{"change the helm values file of deployer application metrics-stack to values-prod.yaml", "update_application"},
		{"sync deployer application metrics-stack", "sync_application"},
		{"create a notebook named 'INC-2291 checkout latency' with the queries we used", "create_team_notebook"},
	} {
		if got := topTool(t, idx, docs, tc.query); got != tc.want {
			t.Errorf("top of %q = %s, want %s (ranking %v)", tc.query, got, tc.want, rankedTools(t, idx, docs, tc.query, 4))
		}
	}
}
