package search

import (
	"maps"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestRequestIntent(t *testing.T) {
	tests := []struct {
		q    string
		want intent
	}{
		{"what's in the current sprint", 0},
		{"who changed the priority on the ticket", 0}, // past tense reads history
		{"which pods are running in payments", 0},
		{"change the priority", intentUpdate},
		{"start a sprint", intentCreate},
		{"Delete the stuck job", intentDelete},
		{"leave a comment, then close it", intentCreate | intentUpdate},
		{"open the handbook page", 0}, // "open" also reads
		{"open a ticket for it", intentCreate},
		{"drop a note on OPS-388", intentCreate}, // not a delete
		{"drop the old index", intentDelete},
		{"ship !4102 to main", intentUpdate},
		{"kick off the nightly pipeline", intentCreate},
		{"kick the stuck pod", intentDelete},
		{"turn off the checkout-v2 flag in production", intentUpdate},
		{"roll out variation B to 20% of users", intentUpdate},
		{"the turn of the year", 0},
		{"hook the varset up to workspace X", intentUpdate},
		{"fire an alert for the networking team", intentCreate},
		{"jot a note on alert 6620", intentCreate},
		{"create an issue and kick the pod", intentCreate | intentDelete},
		{"delete the index, then drop a note", intentDelete | intentCreate},
		// "merge request" is GitLab's noun, not a merge.
		{"list open merge requests for payments", 0},
		{"list the merge requests merged yesterday", 0},
		{"merge the hotfix now", intentUpdate},
		// A verb after a determiner or a copula is a noun or a state.
		{"show me the new pods", 0},
		{"what's the latest comment on OPS-1", 0},
		{"the flag is set", 0},
		{"open a new MR", intentCreate},
		// The speaker's own verbs are not asked for; an inverted modal asks.
		{"before I push: is this snippet valid?", 0},
		{"show the diff, I'll merge it later", 0},
		{"so we can restart it", 0},
		{"can we restart it", intentDelete},
		{"can we then restart it", intentDelete},
		{"can I just restart it", intentDelete},
		{"then we can merge it", 0},
		{"I want to delete the index", intentDelete},
		{"memory working set of the pods", 0},
		{"get rid of the stale branch", intentDelete},
		// "who" as the subject asks about someone's change; "allowed to",
		// "able to" ask about a permission.
		{"who can edit the DR plan page?", 0},
		{"who can then merge it", 0},
		{"who's allowed to push to main?", 0},
		{"are we able to merge it yet", 0},
		{"allow pushes to main", 0},
		{"edit the page so only leads can", intentUpdate},
		// A change to a thing the request introduces makes one.
		{"put a marker on the dashboard at 14:05", intentCreate},
		{"set an expiry reminder on the token", intentCreate},
		{"put the ticket on me", intentUpdate},
	}
	for _, tt := range tests {
		t.Run(tt.q, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, requestIntent(tt.q)); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}

func TestNameIntent(t *testing.T) {
	tests := []struct {
		tool string
		want intent
	}{
		{"jira_get_sprint_issues", 0},
		{"jira_update_sprint", intentUpdate},
		{"resources_create_or_update", intentCreate | intentUpdate},
		{"pods_delete", intentDelete},
		{"SearchIndexTool", 0},
		{"get_merge_request_approval_state", 0},
		{"merge_merge_request", intentUpdate},
		{"create_merge_request", intentCreate},
		{"jira_batch_get_changelogs", 0},
		{"issue_write", intentCreate | intentUpdate},
	}
	for _, tt := range tests {
		t.Run(tt.tool, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, nameIntent(tt.tool)); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}

func TestIntentFactor(t *testing.T) {
	tests := []struct {
		name      string
		req, tool intent
		want      float64
	}{
		{"read tool, question", 0, 0, 1},
		{"read tool, request", intentCreate, 0, 1},
		{"change tool, question", 0, intentUpdate, readPenalty},
		{"same change", intentCreate, intentCreate | intentUpdate, verbBoost},
		{"other change", intentCreate, intentUpdate, otherChange},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, intentFactor(tt.req, tt.tool)); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}

func TestInflectedOnly(t *testing.T) {
	tests := []struct {
		q    string
		want []string
	}{
		{"list the merge requests merged yesterday", []string{"merg"}},
		{"which pods are running in payments", []string{"run"}},
		{"open tickets assigned to me", []string{"assign"}},
		// Said in its base form too: the change may be asked.
		{"merge it, it was approved and merged into staging before", []string{"approv"}},
		// Not a name verb.
		{"pods restarting in payments", nil},
	}
	for _, tt := range tests {
		got := slices.Sorted(maps.Keys(inflectedOnly(tt.q)))
		if !slices.Equal(got, tt.want) {
			t.Errorf("inflectedOnly(%q) = %q, want %q", tt.q, got, tt.want)
		}
	}
}
