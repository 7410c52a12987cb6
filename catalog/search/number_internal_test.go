package search

import (
	"maps"
	"testing"
)

func TestWordNumber(t *testing.T) {
	for w, want := range map[string]gramNumber{
		"alerts": plural, "alert": singular, "policies": plural, "status": singular,
		"analysis": singular, "branches": plural, "access": singular, "pod": 0, "k8s": 0,
	} {
		if _, got := wordNumber(w); got != want {
			t.Errorf("wordNumber(%q) = %v, want %v", w, got, want)
		}
	}
	// Words inside names say no number.
	got := requestNumbers("is alert 3311 in app-logs-2024.06.11 or request_count's alert's?")
	want := map[string]gramNumber{stem("alert"): singular}
	if !maps.Equal(got, want) {
		t.Errorf("requestNumbers = %v, want %v", got, want)
	}
}

// Twins that differ in their object's number: the request's number picks
// one. The kind's tools all saying "pods" tells nothing apart.
func TestGrammaticalNumber(t *testing.T) {
	docs := []Doc{
		{Kind: "paging", Tool: "list_alerts", Description: "List alerts, filtered by a query."},
		{Kind: "paging", Tool: "get_alert", Description: "Get an alert by its id."},
		{Kind: "paging", Tool: "list_incidents", Description: "List incidents."},
		{Kind: "cluster", Tool: "pods_list", Description: "List pods."},
		{Kind: "cluster", Tool: "pods_get", Description: "Get a pod."},
	}
	nn := nameNumbers(docs)
	if nn[3] != nil || nn[4] != nil || nn[2] != nil {
		t.Errorf("numbers that tell no twins apart: %v %v %v", nn[2], nn[3], nn[4])
	}
	for _, opt := range []Options{{NoRerank: true}, {}} {
		idx := New(docs, opt)
		top := func(q string) string { return topTool(t, idx, docs, q) }
		if got := top("what is the priority of alert 3311"); got != "get_alert" {
			t.Errorf("NoRerank %v: one alert: first is %q, want get_alert", opt.NoRerank, got)
		}
		if got := top("show the alerts about checkout"); got != "list_alerts" {
			t.Errorf("NoRerank %v: alerts: first is %q, want list_alerts", opt.NoRerank, got)
		}
	}
}
