package search

import (
	"regexp"
	"regexp/syntax"
	"strings"
	"unicode"
)

// An idPattern is one of a kind's IDPatterns with a cheap filter in front.
// Go's regexp scans a request at every position when a pattern has no
// literal prefix, as `(?:^|\s)![0-9]+` has not: 5 to 20 µs for each
// pattern and request, which doubles the search of a fleet of a few
// hundred tools. Most requests lack a character every match needs (the
// "!" of a merge request, the "/" of a path), and strings.ContainsAny
// finds that in nanoseconds.
type idPattern struct {
	re *regexp.Regexp
	// need are rune sets a match takes at least one rune of each from.
	need []string
}

// maxNeedSet bounds a character class that counts as a need: [!#] and
// [0-9] tell a request apart, [a-z] hardly does.
const maxNeedSet = 16

func newIDPattern(re *regexp.Regexp) idPattern {
	p := idPattern{re: re}
	if ast, err := syntax.Parse(re.String(), syntax.Perl); err == nil {
		p.need = needs(ast.Simplify())
	}
	return p
}

func (p idPattern) match(query string) bool {
	for _, set := range p.need {
		if !strings.ContainsAny(query, set) {
			return false
		}
	}
	return p.re.MatchString(query)
}

// needs returns rune sets that every match of re takes at least one rune
// of each from; nil when it knows none. It may miss a need, never invent
// one.
func needs(re *syntax.Regexp) []string {
	switch re.Op {
	case syntax.OpLiteral:
		var out []string
		for _, r := range re.Rune {
			out = append(out, orbit(r, re.Flags&syntax.FoldCase != 0))
		}
		return out
	case syntax.OpCharClass:
		if s, ok := classSet(re.Rune); ok {
			return []string{s}
		}
	case syntax.OpCapture, syntax.OpPlus:
		return needs(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min > 0 {
			return needs(re.Sub[0])
		}
	case syntax.OpConcat:
		var out []string
		for _, s := range re.Sub {
			out = append(out, needs(s)...)
		}
		return out
	case syntax.OpAlternate:
		// A match takes one alternative: it needs a rune of the union of
		// one need of each.
		var b strings.Builder
		for _, s := range re.Sub {
			n := needs(s)
			if len(n) == 0 {
				return nil
			}
			b.WriteString(n[0])
		}
		return []string{b.String()}
	}
	// Star, quest, anchors, word boundaries, any character, empty.
	return nil
}

// orbit returns r, and with fold the runes that match it case-insensitively.
func orbit(r rune, fold bool) string {
	s := string(r)
	if fold {
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			s += string(f)
		}
	}
	return s
}

// classSet returns the runes of a character class given as ranges, when
// they are few.
func classSet(ranges []rune) (string, bool) {
	var b strings.Builder
	n := 0
	for i := 0; i+1 < len(ranges); i += 2 {
		n += int(ranges[i+1]-ranges[i]) + 1
		if n > maxNeedSet {
			return "", false
		}
		for r := ranges[i]; r <= ranges[i+1]; r++ {
			b.WriteRune(r)
		}
	}
	return b.String(), n > 0
}
