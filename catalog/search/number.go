package search

import (
	"strings"
	"unicode"
)

// Grammatical number: near twins often differ in the number of their
// object and nothing else. get_alert reads one alert, list_alerts many;
// get_console_message one message, list_console_messages all of them.
// The stemmer folds the two together, so BM25 cannot tell them apart,
// but the request can: "is alert 3311 still open" asks for one, "which
// alerts fired" for many. A tool whose name says an object in the number
// the request says it scores up; one that says it in the other number
// scores down.
//
// Only a name word whose number tells a kind's tools apart counts: one
// that some tool of the same kind says in the singular and another in
// the plural. Where every tool says "pods", the number says nothing.

const (
	// numberAgree multiplies the lexical score of a tool whose name
	// says a distinguishing object in the number the request says it.
	numberAgree = 1.15
	// numberDisagree multiplies it when the name says the other number.
	numberDisagree = 1 / numberAgree
)

// gramNumber is a word's grammatical number, as a bit set: a request may say
// an object in both.
type gramNumber uint8

const (
	singular gramNumber = 1 << iota
	plural
)

// wordNumber returns the number of a lower-case word and its stem, as
// stem folds it: "alerts" is plural, "alert" and "status" singular.
// Words of three letters or fewer, and words with digits, have none.
func wordNumber(w string) (string, gramNumber) {
	if len(w) <= 3 || !isAlpha(w) {
		return "", 0
	}
	n := singular
	switch {
	case strings.HasSuffix(w, "ies") && len(w) > 4,
		strings.HasSuffix(w, "sses"),
		strings.HasSuffix(w, "ches"), strings.HasSuffix(w, "shes"),
		strings.HasSuffix(w, "xes"), strings.HasSuffix(w, "zes"):
		n = plural
	case strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") &&
		!strings.HasSuffix(w, "us") && !strings.HasSuffix(w, "is"):
		n = plural
	}
	return stem(w), n
}

// nameNumbers returns, per tool, the stems of its name words whose
// number distinguishes it within its kind, with that number.
func nameNumbers(entries []Doc) []map[string]gramNumber {
	out := make([]map[string]gramNumber, len(entries))
	said := map[string]map[string]gramNumber{} // kind -> stem -> numbers
	for i, e := range entries {
		for _, w := range nameWords(e.Tool) {
			s, n := wordNumber(strings.ToLower(w))
			if n == 0 {
				continue
			}
			if out[i] == nil {
				out[i] = map[string]gramNumber{}
			}
			out[i][s] |= n
			if said[e.Kind] == nil {
				said[e.Kind] = map[string]gramNumber{}
			}
			said[e.Kind][s] |= n
		}
	}
	for i, e := range entries {
		for s, n := range out[i] {
			// Both numbers in one name ("alerts_alert") say neither;
			// one the kind says only this way tells nothing apart.
			if n == singular|plural || said[e.Kind][s] != singular|plural {
				delete(out[i], s)
			}
		}
		if len(out[i]) == 0 {
			out[i] = nil
		}
	}
	return out
}

// requestNumbers returns the number each stem of the request is said
// in; nil when no word has one. Words inside names (request_count,
// app-logs-2024.06.11, deploy/values.yaml) say no number.
func requestNumbers(query string) map[string]gramNumber {
	var out map[string]gramNumber
	for f := range strings.FieldsSeq(strings.ToLower(query)) {
		w := strings.TrimFunc(f, func(r rune) bool { return !unicode.IsLetter(r) })
		if i := strings.IndexAny(w, "'’"); i > 0 {
			w = w[:i] // "alert's"
		}
		if strings.ContainsFunc(w, func(r rune) bool { return !unicode.IsLetter(r) }) {
			continue
		}
		s, n := wordNumber(w)
		if n == 0 || stopwords[w] {
			continue
		}
		if out == nil {
			out = map[string]gramNumber{}
		}
		out[s] |= n
	}
	return out
}

// numberDoc is one tool whose name says a distinguishing stem in n.
type numberDoc struct {
	doc int32
	n   gramNumber
}

// numberIndex inverts nameNumbers: for each stem, the tools whose name
// says it distinguishingly.
func numberIndex(per []map[string]gramNumber) map[string][]numberDoc {
	out := map[string][]numberDoc{}
	for d, m := range per {
		for s, n := range m {
			out[s] = append(out[s], numberDoc{int32(d), n})
		}
	}
	return out
}

// numberFlags records in flags, by document, whether the request's
// numbers agree (1) or disagree (2) with each tool's distinguishing name
// words, and returns the documents it marked, for the caller to clear.
func numberFlags(req map[string]gramNumber, idx map[string][]numberDoc, flags []uint8) []int32 {
	var marked []int32
	for s, rn := range req {
		for _, nd := range idx[s] {
			var f uint8
			switch rn {
			case nd.n:
				f = 1
			case nd.n ^ (singular | plural):
				f = 2
			default:
				continue
			}
			if flags[nd.doc] == 0 {
				marked = append(marked, nd.doc)
			}
			flags[nd.doc] |= f
		}
	}
	return marked
}

// numberFactor is the multiplier for a tool whose distinguishing name
// words agree with the request's number (flag 1), disagree (2), or both.
func numberFactor(flags uint8) float64 {
	switch flags {
	case 1:
		return numberAgree
	case 2:
		return numberDisagree
	}
	return 1
}
