package search

import "testing"

// A short form said with its kind's name stands for the word that kind's
// tool names spell out: "shipper app" is an application of the shipper,
// whose tools say "application" and whose one "app" is the compound
// AppProject. Said without the kind, "app" stays as written.
func TestKindAbbreviations(t *testing.T) {
	docs := []Doc{
		{Kind: "shipper", Tool: "list_applications", Description: "list_applications returns list of applications"},
		{Kind: "shipper", Tool: "get_application", Description: "get_application returns application by application name."},
		{Kind: "shipper", Tool: "get_appproject", Description: "get_appproject returns a shipper AppProject (project) by its name. AppProjects provide a logical grouping of applications and define allowed sources and destinations."},
		{Kind: "shipper", Tool: "list_clusters", Description: "list_clusters returns list of clusters registered with the shipper"},
		{Kind: "shipper", Tool: "get_application_events", Description: "get_application_events returns events for application by application name."},
		{Kind: "shipper", Tool: "get_resource_events", Description: "get_resource_events returns events for a resource that is managed by an application"},
		{Kind: "shipper", Tool: "delete_application", Description: "delete_application deletes application."},
		{Kind: "shipper", Tool: "run_resource_action", Description: "run_resource_action runs an action on a resource"},
		{Kind: "cloud", Tool: "appservice", Description: "Manage App Service web apps: list, restart and scale them."},
		{Kind: "cloud", Tool: "search_logs", Description: "Search the app logs of a workspace for matching lines."},
		{Kind: "cloud", Tool: "list_clusters", Description: "List the clusters of a subscription."},
		{Kind: "cloud", Tool: "applens", Description: "Diagnose a web app with AppLens."},
		{Kind: "cloud", Tool: "list_appliances", Description: "List the network appliances of a subscription."},
		{Kind: "cloud", Tool: "get_approvals", Description: "Get the pending approvals of a deployment."},
		{Kind: "chat", Tool: "post_message", Description: "Post a message to a channel."},
		{Kind: "chat", Tool: "list_channels", Description: "List the channels of a workspace."},
	}
	idx := New(docs, Options{NoRerank: true})
	for _, tc := range []struct {
		query, want string
	}{
		{"list shipper apps matching 'payments'", "list_applications"},
		{"show the shipper app docs-site", "get_application"},
		// No kind named: "app" reads as written.
		{"search the app logs for timeouts", "search_logs"},
	} {
		if got := topTool(t, idx, docs, tc.query); got != tc.want {
			t.Errorf("top of %q = %s, want %s (ranking %v)", tc.query, got, tc.want, rankedTools(t, idx, docs, tc.query, 4))
		}
	}
	ix := idx.ix
	named := make([]bool, ix.nKinds)
	named[ix.docKind[0]] = true
	if got := ix.kindAbbreviated("app", named); len(got) != 1 || got[0] != "application" {
		t.Errorf(`kindAbbreviated("app") in the shipper = %v, want [application] (appproject is a compound)`, got)
	}
	if got := ix.kindAbbreviated("app", make([]bool, ix.nKinds)); got != nil {
		t.Errorf(`kindAbbreviated("app") with no kind named = %v, want nil`, got)
	}
}
