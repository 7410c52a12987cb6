package catalog

import (
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
		{"create an issue and kick the pod", intentCreate | intentDelete},
		{"delete the index, then drop a note", intentDelete | intentCreate},
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
