package search

import (
	"strings"
	"unicode"
)

// The words a request may say a change with. A name or a flag the
// request carries says none: "the status of run run-XyZ789" runs
// nothing, "vault kv get -mount=secret app/redis" mounts nothing. A
// token with a digit, an '=' or a leading '-' is such a name or flag,
// and its words are left out; a gap stands in their place, so that
// "blocked by OPS-412, wire that up" does not read "by wire". Kebab-case words without
// digits stay: English writes verbs so ("force-push", "re-run").

// nameGap stands for a name or flag among the words: no verb, noun
// marker or preposition, so "by OPS-412, wire that up" still asks to
// wire.
const nameGap = "#"

// verbWords returns query's words as the change readers see them: lower
// case, letters only, the words of names and flags left out.
func verbWords(query string) []string {
	lower := strings.ToLower(query)
	if !strings.ContainsAny(lower, "0123456789=-") {
		return strings.FieldsFunc(lower, func(r rune) bool { return !unicode.IsLetter(r) })
	}
	var out []string
	for f := range strings.FieldsSeq(lower) {
		if nameToken(f) {
			out = append(out, nameGap)
			continue
		}
		out = append(out, strings.FieldsFunc(f, func(r rune) bool { return !unicode.IsLetter(r) })...)
	}
	return out
}

// nameToken reports whether a whitespace-separated token is a name or a
// flag: letters with a digit, an '=', or a leading '-' ("-mount=secret").
func nameToken(f string) bool {
	f = strings.Trim(f, ".,;:!?()[]\"'`")
	hasLetter := strings.IndexFunc(f, unicode.IsLetter) >= 0
	return hasLetter && (strings.ContainsAny(f, "0123456789=") || strings.HasPrefix(f, "-"))
}
