package goldenfile_test

import (
	"testing"

	"github.com/mcpfleet/mcpfleet/internal/goldenfile"
)

func TestSections(t *testing.T) {
	var s goldenfile.Sections
	s.Add("first", "one\n\n")
	s.Add("empty", "")
	s.Add("last", "two\nlines")
	want := "-- first --\none\n\n-- empty --\n\n\n-- last --\ntwo\nlines\n\n"
	if got := s.String(); got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
