package search

import "testing"

func TestKebabName(t *testing.T) {
	for w, want := range map[string]bool{
		"checkout-api":  true,
		"feature-flags": true,
		"redis-cli":     true,
		"beta-search":   true,
		"helm-charts":   true,
		"on-call":       false, // a particle
		"follow-up":     false,
		"read-only":     false,
		"out-of-memory": false,
		"non-prod":      false, // a prefix
		"re-run":        false,
		"real-time":     false, // an adjective of time
		"long-running":  false, // a participle
		"auto-scaled":   false,
		"redis-0":       false, // digits: instanceName's
		"Checkout-API":  false, // names are written in lower case
		"checkout":      false,
		"a--b":          false,
	} {
		if got := kebabName(w); got != want {
			t.Errorf("kebabName(%q) = %v, want %v", w, got, want)
		}
	}
}

// A kebab-case name names one thing: "the feature-flags secret" asks for
// a secret, and its parts do not say a tool's whole name.
func TestKebabNameSearch(t *testing.T) {
	docs := []Doc{
		{Kind: "cluster", Tool: "get_secret", Description: "Returns one secret of a namespace."},
		{Kind: "cluster", Tool: "list_pods", Description: "Lists pods."},
		{Kind: "flags", Tool: "list_feature_flags", Description: "Lists the feature flags of a project."},
		{Kind: "flags", Tool: "get_project", Description: "Returns a project."},
	}
	idx := New(docs, Options{NoRerank: true})
	q := "show me the feature-flags secret in the payments namespace"
	if got := topTool(t, idx, docs, q); got != "get_secret" {
		t.Errorf("%s: top tool %q, want get_secret", q, got)
	}
	if q := "list the feature flags"; topTool(t, idx, docs, q) != "list_feature_flags" {
		t.Errorf("%s: top tool %q, want list_feature_flags", q, topTool(t, idx, docs, q))
	}
}

// A tool's name is said where its words are said, not inside a name the
// request gives: "targets of flag beta-search" does not name
// users_search, though it says "users" and, inside beta-search, "search".
func TestNameNotSaidInsideIdentifier(t *testing.T) {
	docs := []Doc{
		{Kind: "chat", Tool: "users_search", Description: "Finds people by name."},
		{Kind: "chat", Tool: "users_list", Description: "Lists people."},
	}
	idx := New(docs, Options{NoRerank: true})
	nameHit := func(query string) bool {
		for _, c := range idx.ix.candidates(idx.ix.analyze(query), 0, func(int) bool { return true }, 2) {
			if c.doc == 0 {
				return c.nameHit
			}
		}
		return false
	}
	if nameHit("add users to the targets of flag beta-search") {
		t.Error("users_search: name hit from a word said only inside beta-search")
	}
	if !nameHit("search users named alice") {
		t.Error("users_search: no name hit where both words are said")
	}
}
