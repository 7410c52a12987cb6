package search

import "testing"

// A tool named by one word the request says in passing ("the redis pod")
// is not a name match: the tool that matches what the request asks for
// ranks first. Said with more of the tool's words, the one-word tool
// still wins.
func TestOneWordNameSaidInPassing(t *testing.T) {
	docs := []Doc{
		{Kind: "cloud", Tool: "redis", Description: "Manage Azure Cache for Redis: list caches, show access keys and memory usage."},
		{Kind: "cluster", Tool: "pods_exec", Description: "Execute a command in a pod container and return its output."},
		{Kind: "cluster", Tool: "pods_list", Description: "List pods in a namespace."},
	}
	idx := New(docs, Options{NoRerank: true})
	top := func(q string) string {
		rs := idx.Search(t.Context(), q, func(int) bool { return true }, 3)
		if len(rs) == 0 {
			return ""
		}
		return docs[rs[0].Doc].Tool
	}
	if got := top("execute redis-cli info in the redis-0 pod"); got != "pods_exec" {
		t.Errorf("redis said in passing: first is %q, want pods_exec", got)
	}
	if got := top("show redis cache access keys"); got != "redis" {
		t.Errorf("redis asked for: first is %q, want redis", got)
	}
}
