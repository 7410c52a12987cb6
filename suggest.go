package mcpfleet

import (
	"strings"

	"github.com/mcpfleet/mcpfleet/internal/textdist"
)

// nearest returns the candidate closest to s by edit distance, if it is close
// enough to be a plausible typo (at most a third of the longer string, or a
// prefix/substring match); "" otherwise.
func nearest(s string, candidates []string) string {
	best, bestD := "", -1
	ls := strings.ToLower(s)
	for _, c := range candidates {
		lc := strings.ToLower(c)
		d := textdist.Levenshtein(ls, lc)
		if strings.Contains(lc, ls) || strings.Contains(ls, lc) {
			d = min(d, 1+abs(len(lc)-len(ls))/4)
		}
		if bestD < 0 || d < bestD || (d == bestD && c < best) {
			best, bestD = c, d
		}
	}
	if best == "" {
		return ""
	}
	limit := max(len(s), len(best))/3 + 1
	if bestD > limit {
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
