package search

import "testing"

// A negated change verb asks for no change; a negation before another
// word leaves the verb after it asked.
func TestNegatedVerbAsksNoChange(t *testing.T) {
	for q, want := range map[string]intent{
		"Is there a PKI engine mounted already? I don't want to enable a duplicate": 0,
		"which context am I pointed at? I do not want to run anything against prod": 0,
		"show me the diff, do not revert anything":                                  0,
		"I never merge on fridays, what's in !42":                                   0,
		"don't just look at it, restart the pod":                                    intentDelete,
		"I want to enable the engine":                                               intentCreate,
		"not the staging one: delete the prod index":                                intentDelete,
	} {
		if got := requestIntent(q); got != want {
			t.Errorf("requestIntent(%q) = %b, want %b", q, got, want)
		}
	}
}
