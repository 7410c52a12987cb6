package neutralize

import (
	"regexp"
	"strings"
)

// A role turn, "user:" at a line's start, opens a message in a chat
// transcript; in a definition the same line is often a parameter's
// documentation: a docstring's "Args:" list ("user: Username to add."),
// or a schema rendered as one text, one "name: description" line per
// parameter. A role marker is a role marker only where a parameter name
// cannot be: not in a list of such lines, beside a name that is no role.

// roleTurn is a span that is only a role and its colon, as the line
// start rule of [Neutralizer.match] finds it.
var roleTurn = regexp.MustCompile(`(?i)^[ \t>#*]*(?:system|assistant|user|human|developer|ai)[ \t]*:$`)

// namedLine is a line that documents a name: "  identifier: …",
// "count (int): …". A parameter's name starts in lower case; "NOTE:"
// and "IMPORTANT:" head prose.
var namedLine = regexp.MustCompile(`^[ \t]*([a-z_][\w.\-\[\]]*)[ \t]*(?:\([^()\n]{1,40}\))?[ \t]*:`)

// proseLabels are lower-case line heads that label prose, not a
// parameter.
var proseLabels = words(`note notes example examples warning important tip hint caution attention reminder info nb ps`)

// argsHeading opens a docstring's list of parameters.
var argsHeading = regexp.MustCompile(`(?i)^[ \t]*(?:args|arguments|parameters|params|inputs|input\s+parameters|properties|fields)[ \t]*:[ \t]*$`)

// parameterTurn reports whether the role turn s[start:end] is a
// parameter's line (see parameterLine).
func parameterTurn(s string, start, end int) bool {
	return roleTurn.MatchString(s[start:end]) && parameterLine(s, start)
}

// parameterLine reports whether the line that holds s[start], blank
// before start, documents a parameter: a line next to it documents a
// name that is no role, or the lines above it, each documenting a name,
// lead up to an "Args:" heading. A parameter named model or agent is no
// address to the model either.
func parameterLine(s string, start int) bool {
	lineStart := strings.LastIndexByte(s[:start], '\n') + 1
	if strings.TrimSpace(s[lineStart:start]) != "" {
		return false
	}
	prev := lineStart - 1
	for prev > 0 {
		// Walk the lines above: a non-role name settles it, a
		// heading of arguments too.
		from := strings.LastIndexByte(s[:prev], '\n') + 1
		line := s[from:prev]
		if argsHeading.MatchString(line) {
			return true
		}
		m := namedLine.FindStringSubmatch(line)
		if m == nil {
			break
		}
		if !roles[m[1]] && !proseLabels[m[1]] {
			return true
		}
		prev = from - 1
	}
	next := strings.IndexByte(s[start:], '\n')
	if next < 0 {
		return false
	}
	rest := s[start+next+1:]
	if k := strings.IndexByte(rest, '\n'); k >= 0 {
		rest = rest[:k]
	}
	m := namedLine.FindStringSubmatch(rest)
	return m != nil && !roles[m[1]] && !proseLabels[m[1]]
}
