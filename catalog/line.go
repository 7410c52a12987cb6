package catalog

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpfleet/mcpfleet/catalog/search"
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
// removed, at most MaxLineLen runes. Sentence and clause ends inside
// brackets do not count, and a line never ends inside an unclosed bracket
// or quote: a model reading "List merge requests (without project_id"
// cannot tell what was cut. A line too long keeps its words and drops its
// parentheticals first. A tool without a usable description gets its
// title, else its name as words.
func GenerateLine(t mcp.Tool) string {
	s := clean(t.Description)
	s = search.FirstSentence(s)
	if i := topLevelIndexAny(s, ":;"); i > 0 && len(strings.Fields(s[:i])) >= 3 {
		s = s[:i]
	}
	s = strings.TrimRight(strings.TrimSpace(s), ".:;,- ")
	// A description of only stray quotes or brackets is not empty here
	// but ends empty once closeOff drops them, so fall back on the result.
	if l := finishLine(s); l != "" {
		return l
	}
	s = t.Title
	if s == "" {
		s = t.Annotations.Title
	}
	if s == "" {
		s = strings.Join(search.NameWords(t.Name), " ")
	}
	return finishLine(s)
}

// finishLine fits s into MaxLineLen runes without ending inside a bracket.
func finishLine(s string) string {
	if utf8.RuneCountInString(s) > MaxLineLen {
		if short := dropParentheticals(s); short != "" {
			s = short
		}
	}
	return closeOff(clip(s, MaxLineLen))
}

// topLevelIndexAny is strings.IndexAny outside brackets.
func topLevelIndexAny(s, chars string) int {
	depth := 0
	for i, r := range s {
		switch {
		case strings.ContainsRune("([{", r):
			depth++
		case strings.ContainsRune(")]}", r):
			depth = max(depth-1, 0)
		case depth == 0 && strings.ContainsRune(chars, r):
			return i
		}
	}
	return -1
}

// dropParentheticals removes every balanced (…) and […] group.
func dropParentheticals(s string) string {
	var b strings.Builder
	depth := 0
	for _, r := range s {
		switch {
		case r == '(' || r == '[':
			depth++
		case (r == ')' || r == ']') && depth > 0:
			depth--
		case depth == 0:
			b.WriteRune(r)
		}
	}
	if depth > 0 {
		return "" // unbalanced: leave it to closeOff
	}
	out := collapse(b.String())
	out = strings.NewReplacer(" ,", ",", " .", ".", " ;", ";", " :", ":").Replace(out)
	return strings.TrimRight(out, ".:;,- ")
}

// unclosed returns the byte offset of the first bracket or quote in s that
// is never closed, or -1. A single quote opens only at the start of a
// word, so apostrophes ("user's") are not quotes.
func unclosed(s string) int {
	var stack []int
	closer := map[byte]byte{'(': ')', '[': ']', '{': '}'}
	for i := 0; i < len(s); i++ {
		c := s[i]
		top := byte(0)
		if n := len(stack); n > 0 {
			top = s[stack[n-1]]
		}
		switch {
		case (c == '"' || c == '\'') && top == c:
			stack = stack[:len(stack)-1]
		case c == '"', c == '\'' && (i == 0 || strings.IndexByte(" ([{", s[i-1]) >= 0):
			stack = append(stack, i)
		case closer[c] != 0:
			stack = append(stack, i)
		case c == ')' || c == ']' || c == '}':
			if top != 0 && closer[top] == c {
				stack = stack[:len(stack)-1]
			}
		}
	}
	if len(stack) == 0 {
		return -1
	}
	return stack[0]
}

// closeOff cuts s before its first unclosed bracket or quote, marking the
// cut with "…". When that would leave under three words, the stray opener
// alone goes instead.
func closeOff(s string) string {
	for range 4 { // a stray opener removed may expose another
		i := unclosed(s)
		if i < 0 {
			return s
		}
		if head := strings.TrimRight(s[:i], " .,;:-…"); len(strings.Fields(head)) >= 3 {
			return head + "…"
		}
		s = collapse(s[:i] + " " + s[i+1:])
	}
	return s
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
