package goldenfile

import "strings"

// Sections builds a golden file of named texts, each headed "-- name --"
// and followed by a blank line, so one file pins every text a test sees
// and a diff names the text that moved. The zero value is ready to use.
type Sections struct{ b strings.Builder }

// Add appends text under name, without its trailing newlines.
func (s *Sections) Add(name, text string) {
	s.b.WriteString("-- " + name + " --\n")
	s.b.WriteString(strings.TrimRight(text, "\n"))
	s.b.WriteString("\n\n")
}

// String returns the sections added so far.
func (s *Sections) String() string { return s.b.String() }
