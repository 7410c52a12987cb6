package search

import "testing"

func TestGenericChange(t *testing.T) {
	for q, want := range map[string]bool{
		"change the helm values file of the app to values-prod.yaml": true,
		"please update just the contacts part of the handbook page":  true,
		"sync the app":                           false, // a particular change
		"change the values and sync the app":     false, // one particular change said
		"the configmap change never got applied": false, // a noun
		"enforce policy set polset-123":          false,
		"set a silence on the alert":             false, // makes one
		"what's in the values file":              false,
	} {
		if got := genericChange(q); got != want {
			t.Errorf("genericChange(%q) = %v, want %v", q, got, want)
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
		{Kind: "chat", Tool: "post_message", Description: "Post a message to a channel."},
		{Kind: "ci", Tool: "list_pipelines", Description: "List the pipelines of a project."},
	}
	idx := New(docs, Options{NoRerank: true})
	for _, tc := range []struct {
		query, want string
	}{
		{"change the helm values file of deployer application metrics-stack to values-prod.yaml", "update_application"},
		{"sync deployer application metrics-stack", "sync_application"},
	} {
		if got := topTool(t, idx, docs, tc.query); got != tc.want {
			t.Errorf("top of %q = %s, want %s (ranking %v)", tc.query, got, tc.want, rankedTools(t, idx, docs, tc.query, 4))
		}
	}
}
