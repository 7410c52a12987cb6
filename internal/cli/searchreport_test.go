package cli_test

import (
	"github.com/mcpfleet/mcpfleet/internal/goldenfile"
	"strings"
	"testing"
)

// TestSearchReportGolden pins the search-report transcripts of the
// telemetry log the catalog package records (catalog/testdata).
func TestSearchReportGolden(t *testing.T) {
	const log = "../../catalog/testdata/telemetry.jsonl"
	tests := []struct {
		name string
		args []string
		code int
	}{
		{"search_report", []string{"search-report", log}, 0},
		{"search_report_json", []string{"search-report", log, "--json"}, 0},
		{"search_report_no_log", []string{"search-report"}, 2},
		{"search_report_missing_log", []string{"search-report", "testdata/no-such.jsonl"}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := run(t, nil, "", tt.args...)
			if r.code != tt.code {
				t.Errorf("exit code = %d, want %d\nstderr:\n%s", r.code, tt.code, r.stderr)
			}
			goldenfile.CheckNamed(t, tt.name, transcript("\x00no fleet file", tt.args, r))
		})
	}
}

// TestSearchReportStdin: "-" reads the log from stdin, and a line that is
// not telemetry fails with its line number.
func TestSearchReportStdin(t *testing.T) {
	ok := `{"type":"search","session":"a","query":"nothing here","k":5,"results":[]}` + "\n"
	r := run(t, nil, ok, "search-report", "-")
	if r.code != 0 || !strings.Contains(r.stdout, `1x  "nothing here"`) {
		t.Errorf("exit %d, stdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}
	r = run(t, nil, ok+"{\"type\":\"tick\"}\n", "search-report", "-")
	if r.code != 1 || !strings.Contains(r.stderr, "line 2") {
		t.Errorf("exit %d, stderr:\n%s", r.code, r.stderr)
	}
}
