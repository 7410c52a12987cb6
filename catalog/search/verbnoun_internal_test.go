package search

import "testing"

// A change verb after a preposition is a noun: "the status of run 42"
// asks to read, "on mount pki_int" mounts nothing.
func TestVerbAfterPrepositionIsNoun(t *testing.T) {
	for _, tc := range []struct {
		query string
		want  intent
	}{
		{"status of run 42: who triggered it?", 0},
		{"list the issuers under mount pki_root", 0},
		{"issue a cert for api.internal using role web on mount pki_int", 0},
		// Still verbs: first in the request, after "to", after "and".
		{"run the nightly job", intentCreate},
		{"I need you to mount a kv engine at apps/", intentCreate},
		{"stop the sampler and run it again", intentCreate},
	} {
		if got := requestIntent(tc.query); got != tc.want {
			t.Errorf("requestIntent(%q) = %b, want %b", tc.query, got, tc.want)
		}
	}
	docs := []Doc{
		{Kind: "secrets", Tool: "create_mount", Description: "Mount a new secrets engine at a path."},
		{Kind: "secrets", Tool: "read_secret", Description: "Read a secret stored at a path of a mount."},
		{Kind: "secrets", Tool: "list_mounts", Description: "List the mounted secrets engines."},
	}
	idx := New(docs, Options{NoRerank: true})
	q := "what's the password stored on mount apps at path billing/db?"
	if got := topTool(t, idx, docs, q); got != "read_secret" {
		t.Errorf("top of %q = %s, want read_secret (ranking %v)", q, got, rankedTools(t, idx, docs, q, 3))
	}
}
