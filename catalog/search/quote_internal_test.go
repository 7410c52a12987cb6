package search

import (
	"maps"
	"slices"
	"testing"
)

func TestQuotedTerms(t *testing.T) {
	for _, tc := range []struct {
		q    string
		want []string // stemmed, sorted; nil for none
	}{
		{"commit it with the message 'roll back search to 2.18.3'", []string{"18", "2", "3", "back", "roll", "search"}},
		{`open an issue titled "disk alert too noisy" and assign it`, []string{"alert", "disk", "noisy", "too"}},
		{"search logs for ‘payment declined’", []string{"declin", "payment"}},
		// A word said outside the quotes too is the request's own.
		{"search the logs for 'search timeout'", []string{"timeout"}},
		// Apostrophes open and close nothing.
		{"it's the app's events from yesterday's sync", nil},
		{"the users' emails, and it's 'checkout-prod' we mean", []string{"checkout", "checkoutprod", "prod"}},
		{"an unclosed 'quote here", nil},
	} {
		got := slices.Sorted(maps.Keys(quotedTerms(tc.q)))
		if !slices.Equal(got, tc.want) {
			t.Errorf("quotedTerms(%q)\n got %q\nwant %q", tc.q, got, tc.want)
		}
	}
}

// The words of a value the request quotes weigh as an identifier's: a
// commit whose message says "roll back" asks for a commit.
func TestQuotedTermsWeight(t *testing.T) {
	docs := []Doc{
		{Kind: "repo", Tool: "commit_file", Description: "Commits a change to a file with a message."},
		{Kind: "ci", Tool: "run_rollback", Description: "Rolls back a deployment to its previous release."},
	}
	idx := New(docs, Options{NoRerank: true})
	q := idx.ix.analyze("commit the file with the message 'roll back the previous release'")
	for _, slot := range q.slots {
		want := 1.0
		switch slot[0].t {
		case "roll", "back", "previous", "releas":
			want = identWeight
		}
		if slot[0].w != want {
			t.Errorf("%s weighs %v, want %v", slot[0].t, slot[0].w, want)
		}
	}
}
