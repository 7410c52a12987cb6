package textdist

import (
	"strings"
	"unicode/utf8"
)

// Nearest returns the choice nearest to got by case-insensitive edit
// distance, or "" when none is close enough to be a plausible typo (more
// than max(2, a third of got's runes) edits away) or got is a choice.
// Ties go to the earlier choice.
func Nearest(got string, choices []string) string {
	return nearest(got, choices, false)
}

// NearestPart is Nearest for names that are typed short or long (tool,
// server and command names, "pods" for "pods_list", "podName" for
// "name"): a choice that contains got, or is contained in it, counts as 1
// edit plus a quarter of the length difference, and close enough is at
// most a third of the longer of the two, plus one. Ties go to the choice
// that sorts first.
func NearestPart(got string, choices []string) string {
	return nearest(got, choices, true)
}

// nearest is the one "did you mean" of mcpfleet; part selects the
// NearestPart rule.
func nearest(got string, choices []string, part bool) string {
	best, bestD := "", -1
	g := strings.ToLower(got)
	for _, c := range choices {
		lc := strings.ToLower(c)
		d := Levenshtein(g, lc)
		if part && (strings.Contains(lc, g) || strings.Contains(g, lc)) {
			d = min(d, 1+abs(len(lc)-len(g))/4)
		}
		if bestD < 0 || d < bestD || (part && d == bestD && c < best) {
			best, bestD = c, d
		}
	}
	limit := max(2, utf8.RuneCountInString(got)/3)
	if part {
		limit = max(len(got), len(best))/3 + 1
	}
	if bestD < 0 || best == got || bestD > limit {
		return ""
	}
	return best
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
