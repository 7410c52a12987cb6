package search

import (
	"slices"
	"strings"
	"unicode"
)

// stopwords is deliberately tiny: BM25's idf already discounts common
// words, and words like "who" or "show" carry intent in ops requests.
var stopwords = map[string]bool{
	"a": true, "an": true, "the": true, "of": true, "for": true, "to": true,
	"in": true, "on": true, "at": true, "by": true, "with": true, "and": true,
	"or": true, "is": true, "are": true, "was": true, "be": true, "it": true,
	"its": true, "this": true, "that": true, "from": true, "as": true,
	"i": true, "me": true, "my": true, "we": true, "our": true, "you": true,
	"your": true, "do": true, "does": true, "can": true, "please": true,
	"all": true, "any": true, "some": true, "into": true, "if": true,
	"what": true, "which": true, "how": true, "when": true, "where": true,
	"there": true, "have": true, "has": true, "did": true, "been": true,
	// Fillers of spoken requests: tool texts rarely say them, so their
	// idf is high and they would pull in whichever tool happens to.
	"now": true, "just": true, "right": true, "currently": true, "again": true,
	"also": true, "still": true, "us": true, "let": true,
}

// nameWords splits a tool name on '_', '-', '.', '/' and camelCase
// boundaries: "SearchIndexTool" -> Search Index Tool, "pods_list" -> pods list.
func nameWords(name string) []string {
	var words []string
	for _, part := range strings.FieldsFunc(name, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}) {
		words = append(words, splitCamel(part)...)
	}
	return words
}

func splitCamel(s string) []string {
	r := []rune(s)
	var out []string
	start := 0
	for i := 1; i < len(r); i++ {
		lowerToUpper := unicode.IsLower(r[i-1]) && unicode.IsUpper(r[i])
		// "HTTPServer": split before the 'S' that starts a lower-case run.
		// "VMs", "PRs", "APIs": an acronym's plural stays one word.
		acronymEnd := unicode.IsUpper(r[i-1]) && unicode.IsUpper(r[i]) && i+1 < len(r) && unicode.IsLower(r[i+1]) &&
			string(r[i+1:]) != "s"
		if lowerToUpper || acronymEnd {
			out = append(out, string(r[start:i]))
			start = i
		}
	}
	return append(out, string(r[start:]))
}

// synonyms folds ops shorthand into the words tool descriptions use. It is
// applied to documents and queries alike, so it only has to name
// equivalences, never directions. Keep it short and generic: anything
// specific to one fleet belongs in KindConfig.Aliases.
var synonyms = map[string][]string{
	"ticket": {"issue"}, "tickets": {"issue"},
	"mr": {"merge", "request"}, "mrs": {"merge", "request"},
	"pr": {"merge", "request"}, "prs": {"merge", "request"},
	"repo": {"repository"}, "repos": {"repository"},
	"k8s": {"kubernetes"}, "kube": {"kubernetes"},
	"ns":     {"namespace"},
	"promql": {"prometheus", "query"},
	"es":     {"elasticsearch"},
	"find":   {"search"}, "lookup": {"search"},
	// Plurals the stemmer does not fold.
	"indices": {"index"}, "indexes": {"index"},
}

// terms analyzes text into index terms: words split like names, lower
// case, synonyms folded, stopwords dropped, lightly stemmed. A hyphenated
// word also yields its parts joined ("on-call" -> "oncall").
func terms(text string) []string {
	text = loginPhrase(text)
	text = fixedCompounds(text) // "stack trace" (fixedcompound.go)
	var out []string
	add := func(w string) {
		w = strings.ToLower(w)
		syn, ok := synonyms[w]
		if !ok {
			syn, ok = abbreviations[w]
		}
		if ok {
			for _, s := range syn {
				out = append(out, stem(s))
			}
			return
		}
		if stopwords[w] || (len(w) == 1 && !unicode.IsDigit(rune(w[0]))) {
			return // single letters come from "what's", "don't"
		}
		out = append(out, stem(w))
	}
	for _, w := range nameWords(text) {
		add(w)
	}
	for f := range strings.FieldsSeq(text) {
		if strings.Count(f, "-") == 1 {
			a, b, _ := strings.Cut(strings.Trim(f, ".,;:!?()\"'`"), "-")
			if isAlpha(strings.ToLower(a)) && isAlpha(strings.ToLower(b)) && a != "" && b != "" {
				add(a + b)
			}
		}
	}
	return out
}

// stem folds plurals, -ing and -ed, and a final 'e', so that "traces",
// "tracing" and "traced" all meet "trace" at "trac". It is not a real
// stemmer; it only has to make query and document agree.
func stem(w string) string {
	if len(w) <= 3 || !isAlpha(w) {
		return w
	}
	switch {
	case strings.HasSuffix(w, "ies") && len(w) > 4:
		w = w[:len(w)-3] + "y"
	case strings.HasSuffix(w, "sses"):
		w = w[:len(w)-2]
	case strings.HasSuffix(w, "ches"), strings.HasSuffix(w, "shes"), strings.HasSuffix(w, "xes"), strings.HasSuffix(w, "zes"):
		w = w[:len(w)-2]
	case strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us") && !strings.HasSuffix(w, "is"):
		w = w[:len(w)-1]
	}
	switch {
	case strings.HasSuffix(w, "ing") && len(w) > 5:
		w = undouble(w[:len(w)-3])
	case strings.HasSuffix(w, "ied") && len(w) > 4:
		w = w[:len(w)-3] + "y"
	case strings.HasSuffix(w, "ed") && len(w) > 4:
		w = undouble(w[:len(w)-2])
	}
	if strings.HasSuffix(w, "e") && len(w) > 3 {
		w = w[:len(w)-1]
	}
	// A few derivations tools and requests mix: "approval" and
	// "approved", "deployment" and "deploy", "dependency" and "depends".
	// Each keeps a stem of five letters or more, so "comment", "latency"
	// and "signal" stay whole.
	for _, suf := range []string{"ment", "ency", "al"} {
		if r, ok := strings.CutSuffix(w, suf); ok && len(r) >= 5 {
			return r
		}
	}
	return w
}

// undouble drops one of a doubled final consonant: "runn" -> "run".
func undouble(w string) string {
	n := len(w)
	if n >= 2 && w[n-1] == w[n-2] && !strings.ContainsRune("aeiousl", rune(w[n-1])) {
		return w[:n-1]
	}
	return w
}

func isAlpha(s string) bool {
	for _, r := range s {
		if r < 'a' || r > 'z' {
			return false
		}
	}
	return true
}

// loginPhrase rewrites "logged in", "logging into", "log in to", "log
// out" as "login" or "logout": the phrasal verb is about a session, and
// stemmed word by word it would read as logs.
func loginPhrase(text string) string {
	lower := strings.ToLower(text)
	if !strings.Contains(lower, "log") {
		return text
	}
	ws := strings.Fields(text)
	changed := false
	for i := 0; i+1 < len(ws); i++ {
		w := strings.ToLower(strings.Trim(ws[i], ".,;:!?()\"'`"))
		next := strings.ToLower(strings.Trim(ws[i+1], ".,;:!?()\"'`"))
		verb := w == "logged" || w == "logging" || w == "log" || w == "logs"
		switch {
		case !verb:
		case next == "into":
			ws[i], ws[i+1] = "", "login"
		case next == "out" && w != "logs":
			ws[i], ws[i+1] = "", "logout"
		case next == "in" && (w == "logged" || w == "logging" ||
			i+2 < len(ws) && slices.Contains([]string{"to", "as", "with"}, strings.ToLower(ws[i+2]))):
			ws[i], ws[i+1] = "", "login"
		default:
			continue
		}
		changed = true
	}
	if !changed {
		return text
	}
	return strings.Join(ws, " ")
}
