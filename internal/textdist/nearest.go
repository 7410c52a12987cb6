package textdist

import (
	"strings"
	"unicode/utf8"
)

// Nearest returns the choice nearest to got by case-insensitive edit
// distance, or "" when none is close enough to be a plausible typo (more
// than max(2, a third of got's runes) edits away) or got is a choice.
func Nearest(got string, choices []string) string {
	best, bestD := "", -1
	g := strings.ToLower(got)
	for _, c := range choices {
		d := Levenshtein(g, strings.ToLower(c))
		if bestD < 0 || d < bestD {
			best, bestD = c, d
		}
	}
	if bestD < 0 || best == got || bestD > max(2, utf8.RuneCountInString(got)/3) {
		return ""
	}
	return best
}
