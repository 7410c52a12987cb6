package search

import (
	"slices"
	"strings"
	"testing"
)

// "did" or "does" before the verb's subject asks whether the change
// happened; "do", and a longer run before the verb, leave it asked.
func TestFactQuestionAsksNoChange(t *testing.T) {
	for q, want := range map[string]intent{
		"is alert 4411 still open or did someone close it?":            0,
		"does it change models too?":                                   0,
		"did the sync finish, and did Marco merge it":                  0,
		"How many resources did the apply add?":                        0,
		"how many resources did apply apply-8fKx add, change and drop": 0,
		"how do you install azd on ubuntu":                             intentCreate,
		"why did the deploy fail restart it":                           intentDelete,
		"close alert 4411":                                             intentUpdate,
		"did it finish? if so, merge it":                               intentUpdate,
	} {
		if got := requestIntent(q); got != want {
			t.Errorf("requestIntent(%q) = %b, want %b", q, got, want)
		}
	}
}

// A question of fact, or a negated verb, ranks the read above the
// change its verb names (real fixtures).
func TestUnsaidVerbRanks(t *testing.T) {
	idx, docs := fixtureIndex(t, "opsgenie", "vault", "terraform", "gitlab", "jira", "confluence")
	for _, tc := range []struct{ query, want string }{
		{"is opsgenie alert 8c1f2e9a-55d3-4a7b-9f10-2b6e3c4d5e6f still open or did someone close it?", "opsgenie_list_alerts opsgenie_get_alert"},
		{"close opsgenie alert 8c1f2e9a", "opsgenie_close_alert"},
		{"Is there already a PKI engine mounted in Vault, and at which path? I don't want to enable a duplicate.", "list_mounts"},
		{"enable a PKI engine in Vault at pki_int", "enable_pki"},
	} {
		if got := topTool(t, idx, docs, tc.query); !slices.Contains(strings.Fields(tc.want), got) {
			t.Errorf("top of %q = %s, want one of %s (ranking %v)", tc.query, got, tc.want, rankedTools(t, idx, docs, tc.query, 4))
		}
	}
}
