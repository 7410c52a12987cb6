package config

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestRequestLimitsDecode(t *testing.T) {
	const doc = `servers: [{name: a, command: x}]
request_limits: {body_bytes: 1048576, query_bytes: 2048, describe_names: 20, grep_pattern_bytes: 256}
`
	f, err := load([]byte(doc), "yaml", "", func() []string { return nil }, noVars, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := RequestLimits{BodyBytes: 1 << 20, QueryBytes: 2048, DescribeNames: 20, GrepPatternBytes: 256}
	if diff := cmp.Diff(want, f.RequestLimits); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestRequestLimitsProblems: a limit out of bounds is a load error naming
// the field and the nearest valid value; an unknown key names the
// nearest known one.
func TestRequestLimitsProblems(t *testing.T) {
	tests := []struct {
		name, section string
		want          []string
	}{
		{"negative", "{body_bytes: -1}",
			[]string{`request_limits: body_bytes: got "-1", want a number from 1 to 1073741824 (0 or leaving it out means 4194304, 4 MiB) (did you mean "0"?)`}},
		{"over the bound", "{grep_pattern_bytes: 4096, describe_names: 20000}",
			[]string{
				`request_limits: describe_names: got "20000", want a number from 1 to 10000 (did you mean "10000"?)`,
				`request_limits: grep_pattern_bytes: got "4096", want a number from 1 to 512 (did you mean "512"?)`,
			}},
		{"unknown key", "{query_byte: 10}",
			[]string{`request_limits: key: got "query_byte", want one of body_bytes, describe_names, grep_pattern_bytes, query_bytes (did you mean "query_bytes"?)`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc := "servers: [{name: a, command: x}]\nrequest_limits: " + tt.section + "\n"
			_, err := load([]byte(doc), "yaml", "", func() []string { return nil }, noVars, nil)
			got := problemsOf(t, err)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("problems (-want +got):\n%s", diff)
			}
		})
	}
}
