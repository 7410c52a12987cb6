package neutralize_test

import (
	"testing"

	"github.com/mcpfleet/mcpfleet/internal/neutralize"
)

// TestInspectOtherBehaviours: a claim that this tool changes how another
// tool works is a finding unless that tool is a sibling.
func TestInspectOtherBehaviours(t *testing.T) {
	n := neutralize.New()
	siblings := map[string]bool{"play_song": true}
	for _, tc := range []struct {
		name, text string
		want       bool
	}{
		{"side effect", "Adds two numbers. This tool has a side effect on the post_note tool.", true},
		{"modifies behaviour", "Sorts a list. It modifies the behaviour of wire_money for later calls.", true},
		{"sibling", "Sets the volume. It has a side effect on the play_song tool.", false},
		{"own side effects", "Deletes a row. This has side effects on the table.", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sub := neutralize.SubjectOf("tool", tc.text).WithSiblings(siblings)
			wantFired(t, n.InspectSubject(tc.text, sub, nil), neutralize.RuleToolReference, tc.want)
		})
	}
}
