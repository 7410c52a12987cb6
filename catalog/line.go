package catalog

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/mark3labs/mcp-go/mcp"
)

// Patterns used to clean descriptions; compiled once, never mutated.
var (
	reFence   = regexp.MustCompile("(?s)```.*?```")
	reURL     = regexp.MustCompile(`(?i)\bhttps?://[^\s)\]>]+`)
	reEmpty   = regexp.MustCompile(`(?i)[(\[]\s*(?:see|cf\.?|at)?\s*[)\]]`)
	reHeading = regexp.MustCompile(`(?m)^\s*#{1,6}\s*`)
	reBullet  = regexp.MustCompile(`(?m)^\s*(?:[-*+•]|\d+[.)])\s+`)
	reJSON    = regexp.MustCompile(`[{\[][^{}\[\]]*[}\]]`)
	// A parameter dump starts a section that is not a summary.
	reDump = regexp.MustCompile(`(?i)(?:^|\s)(?:args|arguments|parameters|params|returns|example|examples|input schema)\s*:`)
)

// GenerateLine makes a catalog line from a tool's description: its first
// sentence, or the clause before the first ':' or ';' when that clause says
// something by itself, with markdown, URLs, JSON blobs and parameter dumps
// removed, at most MaxLineLen runes. A tool without a usable description
// gets its title, else its name as words.
func GenerateLine(t mcp.Tool) string {
	s := clean(t.Description)
	s = firstSentence(s)
	if i := strings.IndexAny(s, ":;"); i > 0 && len(strings.Fields(s[:i])) >= 3 {
		s = s[:i]
	}
	s = strings.TrimRight(strings.TrimSpace(s), ".:;,- ")
	if s == "" {
		s = t.Title
		if s == "" {
			s = t.Annotations.Title
		}
		if s == "" {
			s = strings.Join(nameWords(t.Name), " ")
		}
	}
	return clip(s, MaxLineLen)
}

// clean strips markup and non-prose from a description.
func clean(s string) string {
	s = reFence.ReplaceAllString(s, " ")
	if loc := reDump.FindStringIndex(s); loc != nil {
		s = s[:loc[0]]
	}
	s = reURL.ReplaceAllString(s, "")
	s = reHeading.ReplaceAllString(s, "")
	s = reBullet.ReplaceAllString(s, "")
	for range 3 { // nested blobs, innermost first
		s = reJSON.ReplaceAllStringFunc(s, func(m string) string {
			if strings.ContainsAny(m, `":`) {
				return " "
			}
			return m
		})
	}
	s = strings.NewReplacer("**", "", "__", "", "`", "", "\\n", " ").Replace(s)
	s = collapse(s)
	// Brackets emptied by removing URLs or blobs.
	s = reEmpty.ReplaceAllString(s, "")
	return collapse(s)
}

// firstSentence returns s up to the end of its first sentence.
func firstSentence(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c != '.' && c != '!' && c != '?' {
			continue
		}
		if i+1 < len(s) && s[i+1] != ' ' {
			continue // "v1.2", "k8s.io"
		}
		word := s[strings.LastIndexByte(s[:i], ' ')+1 : i]
		switch strings.ToLower(word) {
		case "e.g", "i.e", "etc", "vs", "approx", "incl":
			continue
		}
		return s[:i]
	}
	return s
}

// collapse turns every run of whitespace into one space.
func collapse(s string) string { return strings.Join(strings.Fields(s), " ") }

// clip cuts s to at most n runes at a word boundary, ending in "…".
func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)[:n-1]
	cut := len(r)
	for cut > 0 && !unicode.IsSpace(r[cut-1]) {
		cut--
	}
	if cut < n/2 { // one enormous word: cut inside it
		cut = len(r)
	}
	return strings.TrimRight(strings.TrimRightFunc(string(r[:cut]), unicode.IsSpace), ".,;:-") + "…"
}
