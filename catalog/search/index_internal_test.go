package search

import (
	"math"
	"testing"
)

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
	top := func(q string) string { return topTool(t, idx, docs, q) }
	if got := top("execute redis-cli info in the redis-0 pod"); got != "pods_exec" {
		t.Errorf("redis said in passing: first is %q, want pods_exec", got)
	}
	if got := top("show redis cache access keys"); got != "redis" {
		t.Errorf("redis asked for: first is %q, want redis", got)
	}
}

// A name's change verb counts as said, toward name coverage, when the
// request asks for that kind of change in other words: "ack alert group
// X" says more of update_alert_group than "the alert group X" does, and
// it ranks first over the pager's acknowledge tool.
func TestChangeVerbCoversName(t *testing.T) {
	docs := []Doc{
		{Kind: "pager", Tool: "pager_acknowledge_alert", Description: "Acknowledge an alert"},
		{Kind: "pager", Tool: "pager_list_alerts", Description: "List alerts"},
		{Kind: "pager", Tool: "pager_close_alert", Description: "Close an alert"},
		{Kind: "oncall", Tool: "update_alert_group", Description: "Update the state of a Grafana OnCall alert group: acknowledge, unacknowledge, resolve, or unresolve it by ID."},
		{Kind: "oncall", Tool: "list_alert_groups", Description: "List alert groups from Grafana OnCall with filtering options: state (new, acknowledged, resolved), team, time range."},
		{Kind: "oncall", Tool: "get_alert_group", Description: "Get a specific alert group from Grafana OnCall by its ID."},
	}
	idx := New(docs, Options{NoRerank: true})
	cover := func(query string) float64 {
		q := idx.ix.analyze(query)
		q.req, _ = requestIntents(query)
		return idx.ix.coverage(q, 3)
	}
	if ack, read := cover("ack alert group IX7Q2ZK"), cover("the alert group IX7Q2ZK"); ack <= read {
		t.Errorf("coverage of update_alert_group: ack %.3f, not above a read's %.3f", ack, read)
	}
	if got := rankedTools(t, idx, docs, "ack OnCall alert group IX7Q2ZK", 3); len(got) == 0 || got[0] != "update_alert_group" {
		t.Errorf("ack alert group: got %v, want update_alert_group first", got)
	}
}

// A kind's name said short names it: "argo" is argocd. A beginning that
// is under half the name ("conf"), or a word other kinds' tools use
// ("data" of datadog), names nothing.
func TestShortKindName(t *testing.T) {
	docs := []Doc{
		{Kind: "argocd", Tool: "sync_application", Description: "Sync an application."},
		{Kind: "argocd", Tool: "list_applications", Description: "List applications."},
		{Kind: "confluence", Tool: "confluence_get_page", Description: "Get a page."},
		{Kind: "confluence", Tool: "confluence_search", Description: "Search pages."},
		{Kind: "datadog", Tool: "get_logs", Description: "Search logs."},
		{Kind: "datadog", Tool: "list_hosts", Description: "List hosts."},
		{Kind: "mongo", Tool: "aggregate", Description: "Run an aggregation over data in a collection."},
	}
	idx := New(docs, Options{NoRerank: true})
	named := func(q string) []string {
		var out []string
		for k, ok := range idx.ix.namedKinds(q, terms(q)) {
			if ok {
				for i, d := range docs {
					if int(idx.ix.docKind[i]) == k {
						out = append(out, d.Kind)
						break
					}
				}
			}
		}
		return out
	}
	for q, want := range map[string]string{"sync the argo app": "argocd", "the nginx conf": "", "the data pipeline": ""} {
		got := named(q)
		if want == "" && len(got) != 0 || want != "" && (len(got) != 1 || got[0] != want) {
			t.Errorf("%q names %v, want %q", q, got, want)
		}
	}
}

// A question that says no change asks to read: a changing tool whose
// name it says in full ("who approved review 4521" says approve_review)
// takes the verb factor on its name bonus too, not on its word score
// alone, so the bonus cannot carry it over the tool that reads. Its score
// under a read and under another change then stands as the two factors.
func TestNameBonusTakesVerb(t *testing.T) {
	docs := []Doc{
		{Kind: "review", Tool: "approve_review", Description: "Approve a review."},
		{Kind: "review", Tool: "get_review", Description: "Get a review and its approvals."},
	}
	idx := New(docs, Options{NoRerank: true})
	q := idx.ix.analyze("who approved review 4521")
	score := func(req intent) float64 {
		for _, c := range idx.ix.candidates(q, req, func(int) bool { return true }, 2) {
			if c.doc == 0 {
				if !c.nameHit {
					t.Fatalf("approve_review: no name hit")
				}
				return c.score
			}
		}
		t.Fatalf("approve_review not ranked")
		return 0
	}
	read, other := score(0), score(intentDelete)
	if got, want := read/other, readPenalty/otherChange; math.Abs(got-want) > 1e-9 {
		t.Errorf("score under a read / under another change = %.4f, want %.4f (the verb factors' ratio)", got, want)
	}
}
