package search

import (
	"regexp"
	"slices"
	"strings"
	"unicode"
)

// Run-together names. Servers name tools "whoami", "listprojects" or
// "keyvault"; requests say "who am I", "list projects", "key vault". Two
// generic rules meet them, each checked against the index's own
// vocabulary, so neither knows any server:
//
//   - a request's adjacent words joined (two or three of them) are a term
//     of the request when some tool has that term ("who am i" → whoami);
//   - a name word that no text of the index uses on its own, and that
//     splits into words the index does use, also says those words
//     ("keyvault" → key vault, "bestpractices" → best practices).

// maxJoin is how many adjacent request words may join into one term.
const maxJoin = 3

// minPiece is the shortest word a name word is split into: shorter
// pieces ("am", "db") split too much that was never joined.
const minPiece = 3

// lowerWords returns text's words in order, lower case, split on
// anything that is not a letter or a digit.
func lowerWords(text string) []string {
	return strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
}

// joinedTerms returns the terms made by joining two or three adjacent
// words of query that the index has and the query's own terms lack, each
// with the first of the words it joined.
func (ix *index) joinedTerms(query string, own map[string]float64) []joined {
	var out []joined
	for _, part := range clitics.Split(query, -1) {
		out = ix.joinWords(lowerWords(part), own, out)
	}
	out = append(out, ix.camelWholes(query, own)...)
	return append(out, ix.undoTerms(query, own)...)
}

// clitics are contractions' second halves ("I'm", "what's", "we're"):
// no word runs on through one, so "I'm on" joins into neither "im" nor
// "mon".
var clitics = regexp.MustCompile(`['’](?:s|m|re|ll|d|t|ve)\b`)

// joinWords appends to out the joins of adjacent words of ws.
func (ix *index) joinWords(ws []string, own map[string]float64, out []joined) []joined {
	for i := range ws {
		cat := ws[i]
		for j := i + 1; j < min(len(ws), i+maxJoin); j++ {
			cat += ws[j]
			t := stem(cat)
			if _, ok := ix.idf[t]; !ok || own[t] == 1 {
				continue
			}
			first := ""
			for _, w := range ws[i : j+1] {
				if ts := terms(w); len(ts) > 0 {
					first = ts[0]
					break
				}
			}
			out = append(out, joined{t, first})
		}
	}
	return out
}

// camelWholes returns the run-together forms of the request's camelCase
// words that the index has and the request's terms lack: "SignalR" is
// split into signal (and a lone r), "CoPilot" into co pilot, but a tool
// is named signalr, copilot. Each is joined with the word's first term.
func (ix *index) camelWholes(query string, own map[string]float64) []joined {
	var out []joined
	for f := range strings.FieldsSeq(query) {
		w := strings.Trim(f, ".,;:!?()[]\"'`")
		if !isLetters(w) {
			continue
		}
		parts := splitCamel(w)
		if len(parts) < 2 {
			continue
		}
		t := stem(strings.ToLower(w))
		if _, ok := ix.idf[t]; !ok || own[t] == 1 {
			continue
		}
		if ts := terms(w); len(ts) > 0 {
			out = append(out, joined{t, ts[0]})
		}
	}
	return out
}

// isLetters reports whether w is one or more letters and nothing else.
func isLetters(w string) bool {
	for _, r := range w {
		if !unicode.IsLetter(r) {
			return false
		}
	}
	return w != ""
}

type joined struct{ term, first string }

// splitCompound splits w into the fewest words of vocab, each at least
// minPiece long; nil if it does not split into two or more.
func splitCompound(w string, vocab map[string]bool) []string {
	return splitWords(w, func(p string) bool { return vocab[p] })
}

// splitWords is splitCompound against any vocabulary of stemmed words.
func splitWords(w string, vocab func(string) bool) []string {
	n := len(w)
	// best[i] is the fewest pieces w[:i] splits into, 0 if none. Words
	// are short: abbreviated checks a few per request word, so the
	// tables stay on the stack.
	var bestBuf, prevBuf [48]int
	best, prev := bestBuf[:0], prevBuf[:0]
	if n+1 > len(bestBuf) {
		best, prev = make([]int, 0, n+1), make([]int, 0, n+1)
	}
	best, prev = best[:n+1], prev[:n+1]
	for i := minPiece; i <= n; i++ {
		for j := 0; j <= i-minPiece; j++ {
			if (j > 0 && best[j] == 0) || !vocab(stem(w[j:i])) {
				continue
			}
			if c := best[j] + 1; best[i] == 0 || c < best[i] {
				best[i], prev[i] = c, j
			}
		}
	}
	if best[n] < 2 {
		return nil
	}
	var out []string
	for i := n; i > 0; i = prev[i] {
		out = append(out, w[prev[i]:i])
	}
	for l, r := 0, len(out)-1; l < r; l, r = l+1, r-1 {
		out[l], out[r] = out[r], out[l]
	}
	return out
}

// splitNames adds to each document's name field the words its
// run-together name words split into, against the words the index uses
// outside names.
func splitNames(entries []Doc, docs [][]field) {
	vocab := map[string]bool{}
	for _, fs := range docs {
		for f, fl := range fs {
			if f == 0 {
				continue
			}
			for _, t := range fl.terms {
				vocab[t] = true
			}
		}
	}
	for i, e := range entries {
		for _, w := range nameWords(e.Tool) {
			w = strings.ToLower(w)
			if len(w) < 2*minPiece || !isAlpha(w) || vocab[stem(w)] {
				continue
			}
			for _, p := range splitCompound(w, vocab) {
				if t := stem(p); !stopwords[p] {
					docs[i][0].terms = append(docs[i][0].terms, t)
				}
			}
		}
		docs[i][0].terms = uniq(docs[i][0].terms)
	}
}

// Abbreviations. A request may cut a word the tools spell out ("perms"
// for permissions, "docs" for documents, "ack" for acknowledge). A
// request term at least minAbbrev letters long stands for the longer
// index terms it begins, when there are at most maxAbbrev of them (more
// would be a guess): any such term no document has, and a short one
// (at most maxShort letters) even when some document has it, since
// short words are the ones cut. Like the rules above it checks only the
// index's own vocabulary.

const (
	minAbbrev = 3
	maxAbbrev = 3
	maxShort  = 5
)

// abbreviated returns the longer index terms that request term t
// abbreviates, nil if it abbreviates none or too many, or if it is a
// term of the index longer than maxShort.
func (ix *index) abbreviated(t string) []string {
	if len(t) < minAbbrev || !isAlpha(t) {
		return nil
	}
	if _, ok := ix.idf[t]; ok && len(t) > maxShort {
		return nil
	}
	i, found := slices.BinarySearch(ix.vocab, t)
	if found {
		i++
	}
	j := i
	for j < len(ix.vocab) && strings.HasPrefix(ix.vocab[j], t) {
		j++
	}
	if j == i || j-i > maxAbbrev {
		return nil
	}
	// A longer term that splits into words of the index is a compound
	// ("opensearch" is open + search), not the word spelled out: "open"
	// abbreviates nothing.
	var out []string
	for _, x := range ix.vocab[i:j] {
		part := func(p string) bool { return p != x && ix.has(p) }
		if splitWords(x, part) == nil {
			out = append(out, x)
		}
	}
	return out
}

// has reports whether some document has term t.
func (ix *index) has(t string) bool {
	_, ok := ix.idf[t]
	return ok
}
