package search

import (
	"maps"
	"slices"
	"testing"
)

func TestPipedTerms(t *testing.T) {
	for _, tc := range []struct {
		q    string
		want []string
	}{
		{`check this query for syntax errors: fetch logs | filter status == 500 | summarize count()`,
			[]string{"500", "count", "fetch", "filter", "log", "status", "summariz"}},
		// Said in the prose too, a word is the request's.
		{`what do these logs say? fetch logs | filter pod == "x" | limit 20`,
			[]string{"filter", "limit", "pod", "20", "fetch"}},
		// The prose after a dash is the request's.
		{`fetch logs | filter pod == "x" | limit 20 - execute that query`, nil},
		{`what does this do? fetch logs | filter pod == "x" | limit 20 - execute it`,
			[]string{"20", "fetch", "filter", "limit", "log", "pod"}},
		// No mark before the query: nothing is read as pasted.
		{`fetch logs | filter pod == "x"`, nil},
		{`list the pods in kube-system`, nil},
	} {
		got := slices.Sorted(maps.Keys(pipedTerms(tc.q)))
		want := slices.Sorted(slices.Values(tc.want))
		if !slices.Equal(got, want) {
			t.Errorf("pipedTerms(%q)\n got %q\nwant %q", tc.q, got, want)
		}
	}
}

// "fetch logs" inside a pasted query asks for no logs: the tool that
// checks queries comes before the cluster's log tools.
func TestPipedQueryRanks(t *testing.T) {
	docs := queryCheckDocs()
	idx := New(docs, Options{NoRerank: true})
	q := `check this for syntax errors: fetch logs | filter pod.name == "x" | summarize count(), by:{k8s.pod.name}`
	got := rankedTools(t, idx, docs, q, 7)
	if slices.Index(got, "verify_query") > slices.Index(got, "nodes_log") {
		t.Errorf("ranking of %q = %v, want verify_query before nodes_log", q, got)
	}
}
