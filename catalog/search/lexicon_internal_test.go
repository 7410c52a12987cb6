package search

import (
	"strings"
	"testing"
)

// TestLexiconTriggers: every built-in trigger analyzes to words (a
// trigger of punctuation alone would fire on every request) and no
// trigger sits in two entries.
func TestLexiconTriggers(t *testing.T) {
	seen := map[string]int{}
	for i, e := range builtinLexicon() {
		for _, w := range e.when {
			if len(w) == 0 {
				t.Errorf("entry %d: a trigger analyzes to nothing", i)
			}
			k := strings.Join(w, " ")
			if j, ok := seen[k]; ok && j != i {
				t.Errorf("trigger %q is in entries %d and %d", k, j, i)
			}
			seen[k] = i
		}
		if len(e.add) == 0 {
			t.Errorf("entry %d adds nothing", i)
		}
	}
}

func TestSigilRunes(t *testing.T) {
	for _, tc := range []struct {
		q    string
		want bool
	}{
		{"#payments", true}, {"#über-alerts", true}, {"see #—", false}, {"a#b", false}, {"(#ops)", true}, {"#", false},
	} {
		if got := hashChannel(tc.q); got != tc.want {
			t.Errorf("hashChannel(%q) = %v, want %v", tc.q, got, tc.want)
		}
	}
}
