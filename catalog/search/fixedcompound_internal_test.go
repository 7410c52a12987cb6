package search

import (
	"slices"
	"testing"
)

func TestFixedCompounds(t *testing.T) {
	for in, want := range map[string][]string{
		"get console message 17 with its stack trace": {"17", "consol", "get", "messag", "stacktrac"},
		"the top recurring Stack Traces":              {"recur", "stacktrac", "top"},
		"search traces of the checkout stack":         {"checkout", "search", "stack", "trac"},
	} {
		got := terms(in)
		slices.Sort(got)
		if !slices.Equal(got, want) {
			t.Errorf("terms(%q) = %q, want %q", in, got, want)
		}
	}
}

// "with its stack trace" asks for no trace of the tracing kind.
func TestFixedCompoundRanks(t *testing.T) {
	docs := []Doc{
		{Kind: "browser", Tool: "list_console_messages", Description: "List all console messages of the page."},
		{Kind: "browser", Tool: "get_console_message", Description: "Get a console message by its ID, with the stack trace when available."},
		{Kind: "browser", Tool: "navigate_page", Description: "Navigate the page to a URL."},
		{Kind: "tracing", Tool: "get_trace_errors", Description: "Get the spans of a trace that errored, with their messages."},
		{Kind: "tracing", Tool: "search_traces", Description: "Search traces by service and duration."},
		{Kind: "tracing", Tool: "get_trace_topology", Description: "Get the topology of a trace."},
		{Kind: "chat", Tool: "post_message", Description: "Post a message to a channel."},
	}
	idx := New(docs, Options{NoRerank: true})
	q := "get console message 17 in full, with its stack trace"
	if got := topTool(t, idx, docs, q); got != "get_console_message" {
		t.Errorf("top of %q = %s, want get_console_message (ranking %v)", q, got, rankedTools(t, idx, docs, q, 4))
	}
}
