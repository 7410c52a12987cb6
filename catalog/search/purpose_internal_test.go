package search

import "testing"

// A change verb after "to" says what for, unless the words before it
// ask for the change.
func TestPurposeAsksNoChange(t *testing.T) {
	for q, want := range map[string]intent{
		"hit Escape on the keyboard to close the modal":          0,
		"give me the cli command to enable diagnostic settings":  0,
		"I want to close the alert":                              intentUpdate,
		"I need you to push the deployment":                      intentCreate,
		"close the modal":                                        intentUpdate,
		"press Escape to close the modal, then delete the draft": intentDelete,
		"who is allowed to push to main":                         0,
		"I'm about to merge !88, did its pipelines pass":         0,
	} {
		if got := requestIntent(q); got != want {
			t.Errorf("requestIntent(%q) = %b, want %b", q, got, want)
		}
	}
	if got := purposeTerms("who is allowed to push to main"); got != nil {
		t.Errorf("a permission's verb is asked about: purposeTerms = %v, want nil", got)
	}
	if got := purposeTerms("close it, or hit Escape to close the modal"); len(got) != 0 {
		t.Errorf("a verb also said as an ask is the request's: purposeTerms = %v, want nil", got)
	}
}

// "hit Escape to close the modal" asks to press a key: the close tool
// does not take rank 1 on a word said as the purpose.
func TestPurposeRanks(t *testing.T) {
	docs := []Doc{
		{Kind: "browser", Tool: "browser_close", Description: "Close the page."},
		{Kind: "browser", Tool: "browser_press_key", Description: "Press a key on the keyboard."},
		{Kind: "browser", Tool: "browser_tabs", Description: "List, create, close, or select a browser tab."},
		{Kind: "browser", Tool: "browser_click", Description: "Perform click on a web page."},
		{Kind: "chat", Tool: "post_message", Description: "Post a message to a channel."},
		{Kind: "chat", Tool: "close_thread", Description: "Close a thread of a channel."},
		{Kind: "ci", Tool: "list_pipelines", Description: "List the pipelines of a project."},
	}
	idx := New(docs, Options{NoRerank: true})
	for _, tc := range []struct {
		query, want string
	}{
		{"hit Escape on the keyboard to close the modal (browser)", "browser_press_key"},
		{"close the browser page", "browser_close"},
	} {
		if got := topTool(t, idx, docs, tc.query); got != tc.want {
			t.Errorf("top of %q = %s, want %s (ranking %v)", tc.query, got, tc.want, rankedTools(t, idx, docs, tc.query, 4))
		}
	}
}
