package search

import "strings"

// firstSentence returns s up to the end of its first sentence. A full
// stop inside brackets ends nothing: "(e.g. thumbsup). Second." is one
// sentence up to ')'.
func firstSentence(s string) string {
	depth := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case '(', '[', '{':
			depth++
			continue
		case ')', ']', '}':
			depth = max(depth-1, 0)
			continue
		case '.', '!', '?':
		default:
			continue
		}
		if depth > 0 {
			continue
		}
		if i+1 < len(s) && s[i+1] != ' ' {
			continue // "v1.2", "k8s.io"
		}
		word := strings.TrimLeft(s[strings.LastIndexByte(s[:i], ' ')+1:i], "([{\"'")
		switch strings.ToLower(word) {
		case "e.g", "i.e", "etc", "vs", "approx", "incl":
			continue
		}
		return s[:i]
	}
	return s
}
