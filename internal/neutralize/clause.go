package neutralize

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// A definition is read clause by clause: the intent rules ask whether a
// clause addresses the reader (an imperative, "you", "the assistant") and
// what it asks for. This file splits text into clauses and words; the
// rules are in intent.go and their word lists in lexicon.go.

// token is one word of a clause: its lower-cased text and where it sits.
type token struct {
	w          string
	start, end int
}

// clause is a sentence or a part of one ended by ";" or ":", with its words.
type clause struct {
	start, end int
	words      []token
	// first is true for the clauses of the text's first sentence, which
	// says what the tool is: its subject.
	first bool
	// sentence numbers the sentences of the text from 0.
	sentence int
	// addressed is set by [readClauses]: the clause gives the reader an
	// order.
	addressed bool
	// ascii is true when the clause is all ASCII: no Chinese, Japanese
	// or Korean phrase can occur in it.
	ascii bool
	// headed is set by [readClauses]: the clause is, or follows, a
	// heading or a vocative addressed to the model.
	headed bool
}

// wordRune reports whether r continues a word: letters, digits, "_" (tool
// names are words) and apostrophes inside contractions.
func wordRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' || unicode.Is(unicode.Mn, r)
}

// clauses splits s at line breaks, at ";", and at ".", "!", "?", ":" or
// "。" followed by a space or the end, so that a path or a version
// number (".env", "2.0") does not end a sentence.
func clauses(s string) []clause {
	var out []clause
	start := 0
	sentence := 0
	emit := func(end int) {
		if end > start {
			words := tokens(s, start, end)
			if len(words) > 0 {
				out = append(out, clause{start: start, end: end, words: words, first: sentence == 0, sentence: sentence,
					ascii: isASCII(s[start:end])})
			}
		}
	}
	for i := 0; i < len(s); {
		r, w := utf8.DecodeRuneInString(s[i:])
		next := i + w
		cut, endsSentence := false, false
		switch r {
		case '\n':
			cut, endsSentence = true, true
		case ';':
			cut = true
		case '.', '!', '?', ':':
			if next >= len(s) || s[next] == ' ' || s[next] == '\n' || s[next] == '\t' || s[next] == '"' || s[next] == ')' {
				cut, endsSentence = true, r != ':'
			}
		case '。', '！', '？', '；':
			cut, endsSentence = true, r != '；'
		}
		if cut {
			emit(i)
			if endsSentence && len(out) > 0 && out[len(out)-1].sentence == sentence {
				sentence++
			}
			start = next
		}
		i = next
	}
	emit(len(s))
	return out
}

// tokens returns the words of s[start:end], lower-cased, with "do not",
// "does not", "must not", "should not" and "need not" joined into one
// negation word ("don't" …) and typographic apostrophes made plain.
func tokens(s string, start, end int) []token {
	var out []token
	for i := start; i < end; {
		r, w := utf8.DecodeRuneInString(s[i:end])
		if !wordRune(r) {
			i += w
			continue
		}
		j := i
		for j < end {
			r, w := utf8.DecodeRuneInString(s[j:end])
			if wordRune(r) {
				j += w
				continue
			}
			// An apostrophe between letters: don't, user's, l'utilisateur.
			if (r == '\'' || r == '’') && j+w < end {
				if r2, _ := utf8.DecodeRuneInString(s[j+w : end]); unicode.IsLetter(r2) {
					j += w
					continue
				}
			}
			break
		}
		word := strings.ToLower(strings.ReplaceAll(s[i:j], "’", "'"))
		if word == "not" && len(out) > 0 {
			if neg, ok := negated[out[len(out)-1].w]; ok {
				out[len(out)-1] = token{w: neg, start: out[len(out)-1].start, end: j}
				i = j
				continue
			}
		}
		out = append(out, token{w: word, start: i, end: j})
		i = j
	}
	return out
}

// negated joins an auxiliary with a following "not".
var negated = map[string]string{"do": "don't", "does": "doesn't", "must": "mustn't", "should": "shouldn't",
	"need": "needn't", "shall": "shan't", "may": "mayn't", "will": "won't", "can": "can't", "cannot": "can't", "is": "isn't", "are": "aren't"}

// set is a word list written as one space-separated string.
type set map[string]bool

func words(list string) set {
	out := set{}
	for _, w := range strings.Fields(list) {
		out[w] = true
	}
	return out
}

// has reports whether the clause holds a word of ws at or after word i,
// within n words, and returns its index.
func (c *clause) has(ws set, i, n int) (int, bool) {
	for k := i; k < len(c.words) && k < i+n; k++ {
		if ws[c.words[k].w] {
			return k, true
		}
	}
	return -1, false
}

// seq finds the words of steps in order, each within gap words of the
// one before it, and returns the index of the first and last word. The
// first step may be anywhere in the clause.
func (c *clause) seq(gap int, steps ...set) (int, int, bool) {
	for i, t := range c.words {
		if !steps[0][t.w] {
			continue
		}
		at := i
		ok := true
		for _, st := range steps[1:] {
			k, found := c.has(st, at+1, gap+1)
			if !found {
				ok = false
				break
			}
			at = k
		}
		if ok {
			return i, at, true
		}
	}
	return -1, -1, false
}

// span is the byte span from word i to word j of the clause.
func (c *clause) span(i, j int) (int, int) { return c.words[i].start, c.words[j].end }

// contains reports whether the clause text, lower-cased, holds one of
// the phrases; it returns the byte span of the first. It serves scripts
// without spaces between words (Chinese, Japanese) and fixed phrases.
func (c *clause) contains(lower string, phrases []string) (int, int, bool) {
	text := lower[c.start:c.end]
	for _, p := range phrases {
		if c.ascii && p[0] >= utf8.RuneSelf {
			continue // a phrase of another script
		}
		if k := strings.Index(text, p); k >= 0 {
			return c.start + k, c.start + k + len(p), true
		}
	}
	return 0, 0, false
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// lowerSameLen lower-cases s without changing any byte offset: only
// ASCII letters are folded, and non-ASCII runes whose lower case has the
// same UTF-8 length.
func lowerSameLen(s string) string {
	b := []byte(s)
	for i := 0; i < len(b); {
		r, w := utf8.DecodeRune(b[i:])
		if r < utf8.RuneSelf {
			if r >= 'A' && r <= 'Z' {
				b[i] += 'a' - 'A'
			}
			i++
			continue
		}
		if l := unicode.ToLower(r); l != r && utf8.RuneLen(l) == w {
			utf8.EncodeRune(b[i:], l)
		}
		i += w
	}
	return string(b)
}
