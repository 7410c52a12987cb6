package fleet

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestJQL pins the subset of JQL the simulated Jira understands.
func TestJQL(t *testing.T) {
	tests := []struct {
		jql, projects string
		want          []string
	}{
		{"key = INC-2041", "", []string{"INC-2041"}},
		{`project = INC AND status = "In Progress"`, "", []string{"INC-2041"}},
		{"project = INC AND status != Resolved ORDER BY created DESC", "", []string{"INC-2041"}},
		{"project = INC", "", []string{"INC-2041", "INC-2038"}},
		{"labels = checkout", "", []string{"INC-2038"}},
		{`text ~ "Hikari"`, "", []string{"INC-2041", "PAY-1187"}},
		{`summary ~ "5xx" AND resolution = Unresolved`, "", []string{"INC-2041"}},
		{"order by created DESC", "PAY", []string{"PAY-1187", "PAY-1190"}},
		{`text ~ "kafka"`, "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.jql, func(t *testing.T) {
			var got []string
			for _, is := range jiraMatch(tt.jql, tt.projects) {
				got = append(got, is.Key)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("jiraMatch(%q) keys (-want +got):\n%s", tt.jql, diff)
			}
		})
	}
}
