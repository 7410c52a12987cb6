package search

import "testing"

// A question about the things a change may act on asks no change.
func TestWhObjectAsksNoChange(t *testing.T) {
	for q, want := range map[string]intent{
		"which GCP regions can I deploy an Atlas cluster in?": 0,
		"which actions can I run on the Rollout 'web'?":       0,
		"what branches can we push to in ledger?":             0,
		"what can I restart in this namespace?":               intentDelete,
		"can we restart the checkout pods?":                   intentDelete,
		"which pod is failing? can you restart it":            intentDelete,
	} {
		if got := requestIntent(q); got != want {
			t.Errorf("requestIntent(%q) = %b, want %b", q, got, want)
		}
	}
}

// "which actions can I run on X" asks for the actions, not to run one.
func TestWhObjectRanks(t *testing.T) {
	docs := []Doc{
		{Kind: "deployer", Tool: "get_resource_actions", Description: "get_resource_actions returns actions for a resource that is managed by an application"},
		{Kind: "deployer", Tool: "run_resource_action", Description: "run_resource_action runs an action on a resource"},
		{Kind: "deployer", Tool: "get_application", Description: "get_application returns application by application name."},
		{Kind: "chat", Tool: "post_message", Description: "Post a message to a channel."},
		{Kind: "ci", Tool: "list_pipelines", Description: "List the pipelines of a project."},
	}
	idx := New(docs, Options{NoRerank: true})
	q := "which actions can I run on the Rollout 'web' in deployer app storefront?"
	if got := topTool(t, idx, docs, q); got != "get_resource_actions" {
		t.Errorf("top of %q = %s, want get_resource_actions (ranking %v)", q, got, rankedTools(t, idx, docs, q, 3))
	}
}
