package search

import "testing"

// Undoing said in other words meets the un- tool: "undo the
// acknowledge", "remove my acknowledgment", "lift the protection". An
// un- word no tool has says what it negates: "unmount" says mount.
func TestUndoSaysUn(t *testing.T) {
	docs := []Doc{
		{Kind: "pager", Tool: "acknowledge_alert", Description: "Acknowledge an alert so that it stops escalating."},
		{Kind: "pager", Tool: "unacknowledge_alert", Description: "Unacknowledge an alert."},
		{Kind: "pager", Tool: "list_alerts", Description: "List alerts."},
		{Kind: "repo", Tool: "protect_branch", Description: "Protect a branch: who may push and merge."},
		{Kind: "repo", Tool: "unprotect_branch", Description: "Unprotect a branch."},
		{Kind: "repo", Tool: "list_protected_branches", Description: "List the protected branches and their protection rules."},
		{Kind: "secrets", Tool: "delete_mount", Description: "Delete a secrets engine."},
		{Kind: "secrets", Tool: "list_secrets", Description: "List the secrets under a path of a secrets engine."},
	}
	idx := New(docs, Options{NoRerank: true})
	for _, tc := range []struct {
		query, want string
	}{
		{"undo the acknowledge on alert 2210", "unacknowledge_alert"},
		{"remove my acknowledgment on the kafka-lag alert", "unacknowledge_alert"},
		{"lift the protection on release/1.2", "unprotect_branch"},
		{"unmount the old-kv secrets engine", "delete_mount"},
	} {
		if got := topTool(t, idx, docs, tc.query); got != tc.want {
			t.Errorf("top of %q = %s, want %s (ranking %v)", tc.query, got, tc.want, rankedTools(t, idx, docs, tc.query, 4))
		}
	}
}
