package search

import (
	"encoding/json"
	"testing"
)

func TestIDPrefix(t *testing.T) {
	for w, want := range map[string]string{
		"run-4GhJkL9mNbVc":   "run",
		"apply-8fKxQw2LmZ3t": "apply",
		"cus_Nf3kQ9x2Lp":     "cus",
		"checkout-prod":      "",
		"redis-0":            "",
		"ops-412":            "",
		"OPS-4121ab":         "",
		"payments-api-7f9c4": "",
		"x-4GhJkL9m":         "",
	} {
		if got := idPrefix(w); got != want {
			t.Errorf("idPrefix(%q) = %q, want %q", w, got, want)
		}
	}
}

// A typed identifier names the kind whose tools alone take that type's
// id, and picks those tools among the kind's.
func TestTypedIdentifier(t *testing.T) {
	schema := func(params ...string) json.RawMessage { return requiredSchema(params) }
	docs := []Doc{
		{Kind: "infra", Tool: "get_run_details", Description: "Fetch a run.", Schema: schema("run_id")},
		{Kind: "infra", Tool: "list_runs", Description: "List the runs of a workspace.", Schema: schema("workspace_name")},
		{Kind: "infra", Tool: "get_apply_logs", Description: "Retrieve the logs of an apply.", Schema: schema("apply_id")},
		{Kind: "ci", Tool: "get_build_failure_logs", Description: "Get the logs of a failed build.", Schema: schema("project_slug", "branch")},
		{Kind: "ci", Tool: "run_pipeline", Description: "Run a pipeline.", Schema: schema("project_slug", "branch")},
	}
	idx := New(docs, Options{NoRerank: true})
	for q, want := range map[string]string{
		"show me the log output of apply apply-Qm3vN8pX1sRt, it failed": "get_apply_logs",
		"what happened to run-4GhJkL9mNbVc?":                            "get_run_details",
	} {
		if got := rankedTools(t, idx, docs, q, 3); len(got) == 0 || got[0] != want {
			t.Errorf("%q: got %v, want %s first", q, got, want)
		}
	}
}
