package search

import "testing"

func TestRunningAQuestionReads(t *testing.T) {
	for _, tc := range []struct {
		tool string
		want intent
	}{
		{"execute_query", 0},
		{"run_range_query", 0},
		{"executeSearch", 0},
		{"store_run_report", 0},
		{"run_pipeline", intentCreate},
		{"execute_command", intentCreate},
		{"create_query", intentCreate},
	} {
		if got := nameIntent(tc.tool); got != tc.want {
			t.Errorf("nameIntent(%q) = %v, want %v", tc.tool, got, tc.want)
		}
	}
}
