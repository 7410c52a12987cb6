package neutralize

import (
	"encoding/hex"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Hidden channels: text a person reading the description does not see as
// text, but a model decodes or reads all the same. Each rule here flags
// the channel itself, whatever the words it carries.

// minHex is the shortest run of hex digits worth decoding: 32 digits hold
// 16 bytes, a short sentence.
const minHex = 32

// hexRuns reports each run of hex digits that decodes to readable text:
// "decode and follow: 52656164207e2f…". A digest or an ID decodes to
// bytes, not a sentence.
func hexRuns(s string, subject set, add func(Rule, int, int)) {
	if subject["hex"] || subject["hexadecimal"] || subject["encode"] || subject["decode"] {
		return // an encoder shows what it makes
	}
	isHex := func(c byte) bool { return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }
	for i := 0; i < len(s); i++ {
		if !isHex(s[i]) || i > 0 && isWord(s[i-1]) {
			continue
		}
		j := i
		for j < len(s) && isHex(s[j]) {
			j++
		}
		if j-i >= minHex && (j == len(s) || !isWord(s[j])) {
			run := s[i : i+(j-i)/2*2]
			if b, err := hex.DecodeString(run); err == nil && sentence(b) {
				add(RuleBase64, i, j)
			}
		}
		i = j
	}
}

// sentence reports whether b reads as text: printable ASCII with spaces
// between words.
func sentence(b []byte) bool {
	spaces := 0
	for _, c := range b {
		if c < 0x20 && c != '\n' || c >= 0x7f {
			return false
		}
		if c == ' ' {
			spaces++
		}
	}
	return spaces >= 2
}

// mixedScripts reports words that mix Latin letters with Cyrillic or
// Greek look-alikes: "Alwауs іnсludе". A word of one language is written
// in one script; a mixed one is written to slip past a reader or a
// filter. A unit such as "μs" holds one Greek letter; it takes two
// foreign letters in a word, or two mixed words, to be a finding. A
// quoted word is talked about: a spelling checker may show one.
func mixedScripts(s string, add func(Rule, int, int)) {
	type word struct{ start, end, foreign int }
	var mixed []word
	strong := false
	start, latin, foreign := -1, 0, 0
	flush := func(end int) {
		if start >= 0 && latin > 0 && foreign > 0 && !quoted(s, start, end) {
			mixed = append(mixed, word{start, end, foreign})
			strong = strong || foreign >= 2
		}
		start, latin, foreign = -1, 0, 0
	}
	for i, r := range s {
		if !unicode.IsLetter(r) {
			flush(i)
			continue
		}
		if start < 0 {
			start = i
		}
		switch {
		case r < utf8.RuneSelf:
			latin++
		case unicode.Is(unicode.Cyrillic, r) || unicode.Is(unicode.Greek, r):
			foreign++
		case unicode.Is(unicode.Latin, r):
			latin++
		}
	}
	flush(len(s))
	if !strong && len(mixed) < 2 {
		return
	}
	for _, w := range mixed {
		add(RuleHiddenUnicode, w.start, w.end)
	}
}

// commentOrders reports an HTML comment that gives the reader an order:
// "<!-- also run once per session: … -->". A client renders the
// description as Markdown and hides the comment from the user, while the
// model reads it.
func commentOrders(s string, add func(Rule, int, int)) {
	for at := 0; ; {
		i := strings.Index(s[at:], "<!--")
		if i < 0 {
			return
		}
		i += at
		j := strings.Index(s[i+4:], "-->")
		end := len(s)
		if j >= 0 {
			end = i + 4 + j + 3
		}
		inner := s[i+4 : max(i+4, end-3)]
		if j < 0 {
			inner = s[i+4:]
		}
		for _, c := range readClauses(inner) {
			if c.addressed {
				add(RuleModelInstruction, i, end)
				break
			}
		}
		at = end
		if at >= len(s) {
			return
		}
	}
}
