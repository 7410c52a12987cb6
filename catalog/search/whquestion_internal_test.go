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

// The verb of a question's subject asks for no change; a clause after
// the subject's words may.
func TestWhSubjectAsksNoChange(t *testing.T) {
	for q, want := range map[string]intent{
		"which branches in backend/orders start with hotfix/?": 0,
		"which policy sets apply to workspace ws-7HhQ2?":       0,
		"what image tag is the ledger deployment on":           0,
		"what happened restart it":                             intentDelete,
		"what the heck, please restart the pod":                intentDelete,
		"which branch do you merge first":                      intentUpdate,
	} {
		if got := requestIntent(q); got != want {
			t.Errorf("requestIntent(%q) = %b, want %b", q, got, want)
		}
	}
}

// "who still needs to approve" asks who, not for the approval; "we
// need to approve it" asks for it.
func TestWhoMustAsksNoChange(t *testing.T) {
	for q, want := range map[string]intent{
		"who still needs to approve !311?":          0,
		"who has to merge it":                       0,
		"we need to approve it today":               intentUpdate,
		"who is on call? I need to restart the pod": intentDelete,
	} {
		if got := requestIntent(q); got != want {
			t.Errorf("requestIntent(%q) = %b, want %b", q, got, want)
		}
	}
}
