package neutralize

import (
	"encoding/json"
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
