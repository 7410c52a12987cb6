package search

import (
	"regexp"
	"strings"
)

// Compounds of software English written apart whose second word, read
// alone, is another thing: a "stack trace" is an exception's call stack,
// not a distributed trace. Read word by word, "trace" named the tracing
// kind and matched its tools ("get console message 17 with its stack
// trace", "which stack trace keeps recurring"). Documents and requests
// alike write such a compound as one word, as synonyms fold shorthand.
// Like synonyms, the list is general vocabulary, no server's.

// fixedCompoundRe matches the compounds, any case.
var fixedCompoundRe = regexp.MustCompile(`(?i)\bstack[ -]traces?\b`)

// fixedCompounds writes text's fixed compounds as one word.
func fixedCompounds(text string) string {
	// terms calls this on every text it reads: no allocation when
	// there is nothing to fold.
	if !strings.Contains(text, "tack") && !strings.Contains(text, "TACK") {
		return text
	}
	return fixedCompoundRe.ReplaceAllStringFunc(text, func(m string) string {
		if strings.HasSuffix(strings.ToLower(m), "s") {
			return "stacktraces"
		}
		return "stacktrace"
	})
}
