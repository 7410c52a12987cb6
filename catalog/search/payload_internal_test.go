package search

import (
	"slices"
	"strings"
	"testing"
)

func TestPayloadTerms(t *testing.T) {
	for q, want := range map[string]string{
		"comment on DEVOPS-431: rolled back to v2.14.3, monitoring error rates":     "roll back v2 14 3 monitor error rat",
		"please add a note to alert 4821: root cause is the expired key":            "root caus expir key",
		"turn this into DQL: error logs from k8s namespace payments grouped by pod": "error log kubernet namespac payment group pod",
		"lint this config before I push it:\nversion: 2.1\njobs:\n  build: {}":      "version 2 1 job build",
		"Is this config valid?\nversion: 2.1\njobs: [test]":                         "version 2 1 job test",
		// A colon after a topic or a read opens no payload, nor does one
		// before a question.
		"run this against prometheus: p99 of checkout over 6 hours at a 1m step":     "",
		"jaeger: checkout-service traces with errors":                                "",
		"details for apply apply-xYz901: status, timestamps, resource counts":        "",
		"Start with SUP-3310: how long did it sit before first response?":            "",
		"For the postmortem I need the timeline for OPS-399: when it was created":    "",
		"let's declare this properly: checkout is failing, spin up an incident room": "",
	} {
		var got []string
		for t := range payloadTerms(q) {
			got = append(got, t)
		}
		slices.Sort(got)
		w := strings.Fields(want)
		slices.Sort(w)
		if !slices.Equal(got, w) {
			t.Errorf("payloadTerms(%q) = %v, want %v", q, got, w)
		}
	}
}

// The words of a comment's text ask for no tool of their own.
func TestPayloadRanking(t *testing.T) {
	idx, docs := fixtureIndex(t, "jira", "prometheus", "grafana", "azure", "datadog", "dynatrace", "kubernetes", "opsgenie", "confluence", "circleci", "gitlab")
	q := "comment on DEVOPS-431: rolled back to v2.14.3, monitoring error rates for the next hour"
	if got := topTool(t, idx, docs, q); got != "jira_add_comment" {
		t.Errorf("%q: got %s first, want jira_add_comment", q, got)
	}
}
