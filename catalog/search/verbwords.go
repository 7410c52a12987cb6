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
//
// So does a change verb said right after a capitalized word that is not
// the first of its sentence: "the latency of Cloud Run service X",
// "under Vault mount pki_root", "in KV mount 'apps'" name a product's
// thing. "Please merge", "can I deploy" and "Grafana: silence" keep
// their verbs.

// nameGap stands for a name or flag among the words: no verb, noun
// marker or preposition, so "by OPS-412, wire that up" still asks to
// wire.
const nameGap = "#"

// verbWords returns query's words as the change readers see them: lower
// case, letters only, the words of names and flags left out.
func verbWords(query string) []string {
	lower := strings.ToLower(query)
	if !strings.ContainsAny(lower, "0123456789=-") && !properVerb(query) {
		return strings.FieldsFunc(lower, func(r rune) bool { return !unicode.IsLetter(r) })
	}
	var out []string
	fs := strings.Fields(query)
	for i, f := range fs {
		switch {
		case nameToken(f):
			out = append(out, nameGap)
		case properBefore(fs, i):
			// "Cloud Run service", "Vault mount pki_root".
			out = append(out, nameGap)
		default:
			out = append(out, strings.FieldsFunc(strings.ToLower(f), func(r rune) bool { return !unicode.IsLetter(r) })...)
		}
	}
	return out
}

// properBefore reports whether token fs[i] is a change verb said right
// after a capitalized word that is neither "I" nor a sentence's first
// word, with no punctuation between: "Cloud Run", "KV mount".
func properBefore(fs []string, i int) bool {
	if i < 2 || requestVerbs[strings.ToLower(strings.TrimRight(fs[i], ".,;:!?)'\""))] == 0 {
		return false
	}
	p := fs[i-1]
	if p == "I" || !unicode.IsUpper(rune(p[0])) || strings.ContainsAny(fs[i-2][len(fs[i-2])-1:], ".?!:") {
		return false
	}
	for _, r := range p {
		if !unicode.IsLetter(r) {
			return false
		}
	}
	return true
}

// properVerb reports whether some change verb of query follows a
// capitalized word as properBefore reads it.
func properVerb(query string) bool {
	fs := strings.Fields(query)
	for i := range fs {
		if properBefore(fs, i) {
			return true
		}
	}
	return false
}

// nameToken reports whether a whitespace-separated token is a name or a
// flag: letters with a digit, an '=', or a leading '-' ("-mount=secret").
func nameToken(f string) bool {
	f = strings.Trim(f, ".,;:!?()[]\"'`")
	hasLetter := strings.IndexFunc(f, unicode.IsLetter) >= 0
	return hasLetter && (strings.ContainsAny(f, "0123456789=") || strings.HasPrefix(f, "-"))
}
