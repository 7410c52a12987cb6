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
		{"can you undo the acknowledgement on alert 1408?", "unacknowledge_alert"},
		{"unmount the old-kv secrets engine", "delete_mount"},
	} {
		if got := topTool(t, idx, docs, tc.query); got != tc.want {
			t.Errorf("top of %q = %s, want %s (ranking %v)", tc.query, got, tc.want, rankedTools(t, idx, docs, tc.query, 4))
		}
	}
}

// "take … back" undoes its object, "acknowledgement" undone is found
// through its stem's stem.
func TestUndoTerms(t *testing.T) {
	docs := []Doc{
		{Kind: "repo", Tool: "approve_merge_request", Description: "Approve a merge request."},
		{Kind: "repo", Tool: "unapprove_merge_request", Description: "Unapprove a merge request."},
		{Kind: "pager", Tool: "unacknowledge_alert", Description: "Unacknowledge an alert."},
	}
	idx := New(docs, Options{NoRerank: true}).ix
	for q, want := range map[string]string{
		"please take my approval back":           "unapprov",
		"undo the acknowledgement on alert 1408": "unacknowledg",
	} {
		found := false
		for _, j := range idx.undoTerms(q, map[string]float64{}) {
			found = found || j.term == want
		}
		if !found {
			t.Errorf("undoTerms(%q) = %v, want %s among them", q, idx.undoTerms(q, map[string]float64{}), want)
		}
	}
	// Undoing asks for a change, though no change verb is said.
	if got := idx.analyze("please take my approval back").req; got != intentUpdate {
		t.Errorf("analyze(take my approval back).req = %b, want %b", got, intentUpdate)
	}
	if got := idx.analyze("take the approval state").req; got != 0 {
		t.Errorf("analyze(take the approval state).req = %b, want 0", got)
	}
	if got := idx.undoTerms("take the approval state and go back", map[string]float64{}); len(got) != 0 {
		t.Errorf("\"back\" far from \"take\" undoes nothing: undoTerms = %v", got)
	}
}
