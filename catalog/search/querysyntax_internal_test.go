package search

import (
	"maps"
	"slices"
	"testing"
)

func TestSyntaxTerms(t *testing.T) {
	for _, tc := range []struct {
		q    string
		want []string
	}{
		{`run up{job="node-exporter"} == 0`, []string{"job"}},
		{`sum(rate(http_requests_total{code=~"5..", env!="dev"}[5m]))`, []string{"cod", "env", "rat", "sum"}},
		{`avg:system.cpu.user{env:prod} by {host}`, []string{"env"}},
		{`fetch logs | summarize count(), by:{k8s.pod.name}`, []string{"count"}},
		// Said in prose too, so not only syntax.
		{`which job exports up{job="api"}`, nil},
		// Prose with brackets calls nothing.
		{`restart the pod(s) (the api ones)`, nil},
		{`list the jobs of the deploy pipeline`, nil},
	} {
		got := slices.Sorted(maps.Keys(syntaxTerms(tc.q)))
		if !slices.Equal(got, tc.want) {
			t.Errorf("syntaxTerms(%q) = %v, want %v", tc.q, got, tc.want)
		}
	}
}

// A label key of a quoted expression is not a request word: "job" in
// up{job="api"} asks nothing of a CI job tool. The label's value stays.
func TestSyntaxTermsAnalyze(t *testing.T) {
	docs := []Doc{
		{Kind: "ci", Tool: "get_job", Description: "Returns the current status of one CI job of the api."},
		{Kind: "metrics", Tool: "evaluate_expression", Description: "Returns the current value of an expression."},
	}
	idx := New(docs, Options{NoRerank: true})
	q := idx.ix.analyze(`current value of up{job="api"}`)
	var said []string
	for _, slot := range q.slots {
		said = append(said, slot[0].t)
	}
	if slices.Contains(said, "job") || slices.Contains(q.terms, "job") {
		t.Errorf("request words %v hold the label key job", said)
	}
	if !slices.Contains(said, "api") {
		t.Errorf("request words %v lack the label value api", said)
	}
}
