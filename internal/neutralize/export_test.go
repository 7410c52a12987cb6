package neutralize

import (
	"encoding/json"
	"os"
	"testing"
)

// Bridges for the external tests: the set-line and fixture readers the
// trainer uses, so that every test reads a definition the same way.

// SplitDefinition reads a line of a poisoned or clean set into parts.
func SplitDefinition(line string) []Part { return splitDefinition(line) }

// FixtureParts returns a real tool's parts as the pinner reads them.
func FixtureParts(desc string, in, out json.RawMessage) []Part { return fixtureParts(desc, in, out) }

// ReadSetLines reads a poisoned or clean set: one definition a line, "\n"
// standing for a line break.
func ReadSetLines(t testing.TB, file string) []string { return readSetLines(t, file) }

// DirPairs returns the poisoned/clean pairs of a folder outside the repo
// that the variable env names.
func DirPairs(t testing.TB, env, dir string) map[string][2]string { return dirPairs(t, env, dir) }

// MeasuredScorer returns the scorer the tests measure: the embedded
// model, or the model file SCORER_MODEL names, such as one TestTrainScorer
// wrote with SCORER_OUT.
func MeasuredScorer(t testing.TB) *Scorer {
	t.Helper()
	path := os.Getenv("SCORER_MODEL")
	if path == "" {
		s, err := DefaultScorer()
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("SCORER_MODEL: %v", err)
	}
	s, err := ParseScorer(b)
	if err != nil {
		t.Fatalf("SCORER_MODEL=%s: %v", path, err)
	}
	t.Logf("scorer: %s, thresholds (f, d, p, v) %.3f", path, s.threshold)
	return s
}
