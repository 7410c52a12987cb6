package search

import "testing"

// namedKindDocs are made-up tools of seven kinds: a pager whose tools
// all end in "alert", a rota that names tools for alert groups too, a
// tracing kind, a browser that records performance to files, and three
// kinds that say none of those words.
var namedKindDocs = []Doc{
	{Kind: "pager", Tool: "pager_acknowledge_alert", Description: "Acknowledge an alert so that it stops paging."},
	{Kind: "pager", Tool: "pager_close_alert", Description: "Close an alert."},
	{Kind: "pager", Tool: "pager_get_alert", Description: "Get an alert by its id."},
	{Kind: "rota", Tool: "update_alert_group", Description: "Update the state of an alert group: acknowledge or resolve it."},
	{Kind: "rota", Tool: "list_alert_groups", Description: "List alert groups."},
	{Kind: "rota", Tool: "get_schedule", Description: "Get an on-call schedule."},
	{Kind: "tracing", Tool: "search_traces", Description: "Search traces by service and duration."},
	{Kind: "tracing", Tool: "stop_sampling", Description: "Stop sampling."},
	{Kind: "browser", Tool: "stop_recording", Description: "Stop the performance recording of the page and save it to a file."},
	{Kind: "browser", Tool: "start_recording", Description: "Start a performance recording of the page."},
	{Kind: "wiki", Tool: "get_page", Description: "Get a page."},
	{Kind: "wiki", Tool: "search_pages", Description: "Search pages."},
	{Kind: "repo", Tool: "list_commits", Description: "List commits."},
	{Kind: "repo", Tool: "get_file", Description: "Get a file."},
	{Kind: "chat", Tool: "post_message", Description: "Post a message."},
	{Kind: "chat", Tool: "list_channels", Description: "List channels."},
}

// A word most of a kind's tools share names the kind only while no tool
// of another kind is named with it: "alert" is the pager's shared word,
// but the rota names tools for alert groups, so the word names no kind.
// The kind's own name still names it.
func TestSharedNameWordOfOtherKinds(t *testing.T) {
	idx := New(namedKindDocs, Options{NoRerank: true})
	if k, ok := idx.ix.kindNames[stem("alert")]; ok {
		t.Errorf("\"alert\" names kind %d; the rota's tools are named for alerts too", k)
	}
	if _, ok := idx.ix.kindNames["pager"]; !ok {
		t.Error("\"pager\", the kind's own name, names no kind")
	}
	q := "acknowledge alert group 42"
	if got := topTool(t, idx, namedKindDocs, q); got != "update_alert_group" {
		t.Errorf("top of %q = %s, want update_alert_group (ranking %v)", q, got, rankedTools(t, idx, namedKindDocs, q, 4))
	}
}

// A kind's name said only inside an identifier names nothing: the
// "trace" of trace.json is a file's name.
func TestKindNameInsideIdentifier(t *testing.T) {
	idx := New(namedKindDocs, Options{NoRerank: true})
	for _, tc := range []struct {
		query, want string
	}{
		{"stop and save it to trace.json", "stop_recording"},
		// Said as a word, it names the kind.
		{"search traces of checkout slower than 2s", "search_traces"},
	} {
		if got := topTool(t, idx, namedKindDocs, tc.query); got != tc.want {
			t.Errorf("top of %q = %s, want %s (ranking %v)", tc.query, got, tc.want, rankedTools(t, idx, namedKindDocs, tc.query, 4))
		}
	}
}
