package search

import "testing"

func TestFilterPair(t *testing.T) {
	for w, want := range map[string]bool{
		"service:billing": true, "trace_id:8812736": true, "acknowledged:false": true,
		"env:\"prod\"": true, "host:web-*": true,
		"10:00": false, "https://example.com": false, "note:": false, ":x": false,
		"16:20": false, "a-b:c": false,
	} {
		if got := filterPair(w); got != want {
			t.Errorf("filterPair(%q) = %v, want %v", w, got, want)
		}
	}
}

// A filter's key names a field of the records searched: the request
// asks for the records. "service:billing" does not ask for services,
// "trace_id:…" not for traces.
func TestFilterKeyIsNoAsk(t *testing.T) {
	docs := []Doc{
		{Kind: "obs", Tool: "get_logs", Description: "Search logs with a query and a time range. Returns matching log lines."},
		{Kind: "obs", Tool: "get_all_services", Description: "List all services reporting logs, with the service names and their environments."},
		{Kind: "obs", Tool: "list_traces", Description: "List traces of a service, filtered by trace id, duration or status."},
		{Kind: "obs", Tool: "list_hosts", Description: "List hosts reporting to the agent."},
		{Kind: "chat", Tool: "post_message", Description: "Post a message to a channel."},
		{Kind: "chat", Tool: "list_channels", Description: "List the channels of a workspace."},
		{Kind: "ci", Tool: "list_pipelines", Description: "List the pipelines of a project."},
	}
	idx := New(docs, Options{NoRerank: true})
	for _, tc := range []struct {
		query, want string
	}{
		{"search logs for 'payment declined' from service:billing in the last 15m", "get_logs"},
		{"log lines carrying trace_id:8812736 to correlate with the failing request", "get_logs"},
		// Said outside the filter, the word is asked for.
		{"list the services, e.g. service:billing", "get_all_services"},
	} {
		if got := topTool(t, idx, docs, tc.query); got != tc.want {
			t.Errorf("top of %q = %s, want %s (ranking %v)", tc.query, got, tc.want, rankedTools(t, idx, docs, tc.query, 4))
		}
	}
}
