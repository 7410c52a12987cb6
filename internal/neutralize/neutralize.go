package neutralize

import (
	"regexp"
	"strings"
)

// Go's regexp has no DFA: one alternation of every pattern, run over the
// whole text, costs about 1.5 µs per byte. Instead the text is scanned once
// by hand for cheap triggers (a word that starts a phrase, a line start, a
// "<", "[", "{" or a quoted key), and only then is the matching pattern
// run, anchored, on a short window after the trigger.

// window bounds what an anchored pattern may look at after its trigger.
const window = 256

// phrase patterns, keyed by the first word that must start them. Every
// pattern is case-insensitive and anchored at the trigger word.
var (
	ignoreRE = `^(?:ignore|disregard|forget|override|bypass|skip|drop)\s+(?:(?:all|any|the|your|my|of|these|those|everything|previous|prior|above|earlier|preceding|former|original|initial|system|safety)\s+){0,4}(?:instructions?|prompts?|rules|guidelines|directives|directions|guardrails|policies|context|messages)\b`
	newRE    = `^(?:new|updated|real|actual|revised)\s+(?:system\s+)?(?:instructions?|directives?|prompt)\s*:`
	youRE    = `^you\s+are\s+now\b`
	fromRE   = `^from\s+now\s+on,?\s+you\b`
	modeRE   = `^(?:developer|god|jailbreak|dan)\s+mode\b`
	doRE     = `^do\s+anything\s+now\b`
	revealRE = `^(?:reveal|print|show|repeat|output)\s+(?:me\s+)?(?:your|the)\s+(?:system\s+)?(?:prompt|instructions)\b`
	systemRE = `^system\s+(?:prompt|override|message)\s*:`
)

// Neutralizer defuses text. Its zero value is not usable; call New. It is
// immutable and safe for concurrent use.
type Neutralizer struct {
	words    map[string]*regexp.Regexp
	tag      *regexp.Regexp
	token    *regexp.Regexp
	jsonCall *regexp.Regexp
	jsonName *regexp.Regexp
	jsonType *regexp.Regexp
	jsonRole *regexp.Regexp
	header   *regexp.Regexp
	def      definitionRules
}

func ci(p string) *regexp.Regexp { return regexp.MustCompile(`(?i)` + p) }

// New compiles the patterns.
func New() *Neutralizer {
	n := &Neutralizer{
		words: map[string]*regexp.Regexp{},
		// Role and message tags: <system>, </tool_result>, <assistant name="x">.
		tag: ci(`^</?\s*(?:system|assistant|user|human|developer|tool|tool_result|tool_results|tool_output|tool_call|tool_calls|tool_use|function_results?|function_calls?|function|instructions?|invoke|parameter|message|im_start|im_end)\b[^<>\n]{0,80}>`),
		// Chat-template special tokens: <|im_start|>, <|eot_id|>, and Llama-2's <<SYS>>.
		token: ci(`^(?:<\|[A-Za-z0-9_]{1,32}\|>|<</?SYS>>)`),
		// Tool-call and turn JSON. Each pattern's group 1 is the string that
		// gets defused (see jsonMatch): a key or a value, never the
		// punctuation around it, so that JSON stays JSON.
		// {"tool_calls": …}
		jsonCall: ci(`^\{\s*"(tool_calls|function_call|tool_use|tool_call)"\s*:`),
		// {"name": "x", "arguments": …}
		jsonName: ci(`^\{\s*"(?:name|tool|function)"\s*:\s*"([^"\n]{1,100})"\s*,\s*"(?:arguments|parameters|input|args)"\s*:`),
		// "type": "tool_use"
		jsonType: ci(`^"type"\s*:\s*"(function|tool_use|tool_result)"`),
		// "role": "assistant", "content": …
		jsonRole: ci(`^"role"\s*:\s*"(system|assistant|user|human|developer|tool)"\s*,\s*"content"\s*:`),
		header:   ci(`^#{2,}[ \t]*(?:system|instructions?|assistant|response)\b`),
		def:      newDefinitionRules(),
	}
	add := func(p string, words ...string) {
		re := ci(p)
		for _, w := range words {
			n.words[w] = re
		}
	}
	add(ignoreRE, "ignore", "disregard", "forget", "override", "bypass", "skip", "drop")
	add(newRE, "new", "updated", "real", "actual", "revised")
	add(youRE, "you")
	add(fromRE, "from")
	add(modeRE, "developer", "god", "jailbreak", "dan")
	add(doRE, "do")
	add(revealRE, "reveal", "print", "show", "repeat", "output")
	add(systemRE, "system")
	return n
}

// tagWords are the first words (letters only) of the tag names.
var tagWords = map[string]bool{"system": true, "assistant": true, "user": true, "human": true, "developer": true, "tool": true,
	"function": true, "instruction": true, "instructions": true, "invoke": true, "parameter": true, "message": true, "im": true}

// roles are the speakers whose "Name:" at a line start reads as a new turn.
var roles = map[string]bool{"system": true, "assistant": true, "user": true, "human": true, "developer": true, "ai": true}

func isLetter(b byte) bool { return b|0x20 >= 'a' && b|0x20 <= 'z' }

func isWord(b byte) bool { return isLetter(b) || b >= '0' && b <= '9' || b == '_' }

// lowerWord reads the ASCII word at s[i:], lower-cased into buf, and
// returns it and its end; words longer than buf are not keys of interest.
func lowerWord(s string, i int, buf *[12]byte) (string, int) {
	j := i
	for j < len(s) && isLetter(s[j]) {
		j++
	}
	if j-i > len(buf) {
		return "", j
	}
	for k := i; k < j; k++ {
		buf[k-i] = s[k] | 0x20
	}
	return string(buf[:j-i]), j
}

// hit is a suspicious span [start, end) found at a trigger. quoted means
// the span is the inside of a JSON string (a key or a value), which the
// decoded pass must check before it defuses it (see find).
type hit struct {
	start, end int
	quoted     bool
}

var miss = hit{start: -1, end: -1}

// match returns the suspicious span that starts at, or right after, the
// trigger s[i], or miss.
func (n *Neutralizer) match(s string, i int, lineStart bool, buf *[12]byte) hit {
	win := s[i:min(len(s), i+window)]
	switch c := s[i]; {
	case lineStart:
		// Role turns: optional "> # *" decoration, a role, optional
		// blanks, then ":".
		j := i
		for j < len(s) && (s[j] == ' ' || s[j] == '\t' || s[j] == '>' || s[j] == '#' || s[j] == '*') {
			j++
		}
		if j < len(s) && isLetter(s[j]) {
			w, k := lowerWord(s, j, buf)
			if roles[w] {
				for k < len(s) && (s[k] == ' ' || s[k] == '\t') {
					k++
				}
				if k < len(s) && s[k] == ':' {
					return hit{start: i, end: k + 1}
				}
			}
		}
		if s[i] == '#' {
			return at(i, n.header.FindStringIndex(s[i:min(len(s), i+64)]))
		}
	case c == '<':
		if len(win) > 1 && (win[1] == '|' || win[1] == '<') {
			return at(i, n.token.FindStringIndex(win))
		}
		// Most "<" in output open HTML or compare numbers: only a known
		// tag name is worth the regexp.
		j := 1
		if j < len(win) && win[j] == '/' {
			j++
		}
		for j < len(win) && (isSpace(win[j]) || win[j] == '\f') { // the tag pattern's \s*
			j++
		}
		if w, _ := lowerWord(win, j, buf); !tagWords[w] {
			return miss
		}
		return at(i, n.tag.FindStringIndex(win))
	case c == '[':
		if hasPrefixFold(win, "[INST]") {
			return hit{start: i, end: i + 6}
		}
		if hasPrefixFold(win, "[/INST]") {
			return hit{start: i, end: i + 7}
		}
	case c == '{':
		j := 1
		for j < len(win) && (win[j] == ' ' || win[j] == '\n' || win[j] == '\t' || win[j] == '\r') {
			j++
		}
		if j < len(win) && win[j] == '"' {
			// Only a few first keys can start a tool call; most JSON
			// objects are dismissed here without a regexp.
			key, _, _ := strings.Cut(win[j+1:], `"`)
			switch strings.ToLower(key) {
			case "tool_calls", "function_call", "tool_use", "tool_call":
				return jsonMatch(n.jsonCall, win, i)
			case "name", "tool", "function":
				return jsonMatch(n.jsonName, win, i)
			}
		}
	case c == '"':
		switch {
		case hasPrefixFold(win, `"type"`):
			return jsonMatch(n.jsonType, win, i)
		case hasPrefixFold(win, `"role"`):
			return jsonMatch(n.jsonRole, win, i)
		}
	case isLetter(c) && (i == 0 || !isWord(s[i-1])):
		w, _ := lowerWord(s, i, buf)
		if re := n.words[w]; re != nil {
			return at(i, re.FindStringIndex(win))
		}
	}
	return miss
}

// at is the hit of an anchored pattern's match loc at trigger i.
func at(i int, loc []int) hit {
	if loc == nil {
		return miss
	}
	return hit{start: i, end: i + loc[1]}
}

// jsonMatch runs a tool-call pattern and returns its group 1, the string
// that makes the JSON read as a call: defusing inside the quotes keeps
// valid JSON valid, where wrapping `{"tool_calls":` would break it.
func jsonMatch(re *regexp.Regexp, win string, i int) hit {
	// Most objects that start with such a key are no call; tracking the
	// group costs more than matching, so it waits for a match.
	if re.FindStringIndex(win) == nil {
		return miss
	}
	loc := re.FindStringSubmatchIndex(win)
	if loc == nil {
		return miss
	}
	return hit{start: i + loc[2], end: i + loc[3], quoted: true}
}

func hasPrefixFold(s, p string) bool { return len(s) >= len(p) && strings.EqualFold(s[:len(p)], p) }

// scan appends to dst the suspicious spans of s, leading whitespace
// trimmed so that the text's layout stays outside the markers.
func (n *Neutralizer) scan(s string, dst []span) []span {
	var buf [12]byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		lineStart := i == 0 || s[i-1] == '\n'
		if !lineStart && c != '<' && c != '[' && c != '{' && c != '"' && !isLetter(c) {
			continue
		}
		h := n.match(s, i, lineStart, &buf)
		if h.end < 0 && lineStart && (c == '<' || c == '[' || c == '{' || c == '"' || isLetter(c)) {
			h = n.match(s, i, false, &buf)
		}
		if h.end < 0 {
			if isLetter(c) { // skip the rest of the word: triggers start words
				for i+1 < len(s) && isWord(s[i+1]) {
					i++
				}
			}
			continue
		}
		start := h.start
		for start < h.end && isSpace(s[start]) {
			start++
		}
		dst = append(dst, span{trigger: i, start: start, end: h.end, quoted: h.quoted})
		i = h.end - 1
	}
	return dst
}

func isSpace(b byte) bool { return b == ' ' || b == '\t' || b == '\r' || b == '\n' }

// span is a suspicious span [start, end) of a text, found at trigger.
type span struct {
	trigger, start, end int
	quoted              bool
}

// Defuse returns s with every suspicious span escaped, and how many spans
// it escaped. A text with nothing to defuse is returned as is, without
// allocating.
//
// A text that holds JSON string escapes (\u003c, \n, \") or HTML entities
// (&lt;, &#60;) is also read decoded, so that "\u003csystem\u003e",
// "&lt;system&gt;" or "ok\nUser:" is caught; the spans found there are defused in the text as written,
// escapes and all, and the rest of the text keeps its bytes.
func (n *Neutralizer) Defuse(s string) (string, int) {
	var arr [8]span
	spans := n.find(s, arr[:0])
	if len(spans) == 0 {
		return s, 0
	}
	var b strings.Builder
	b.Grow(len(s) + 16*len(spans))
	last := 0
	for _, sp := range spans {
		b.WriteString(s[last:sp.start])
		b.WriteString("[defused: ") // as Escape: spans start past whitespace
		escapeMarkup(&b, s[sp.start:sp.end])
		b.WriteByte(']')
		last = sp.end
	}
	b.WriteString(s[last:])
	return b.String(), len(spans)
}

// Escape wraps one span as "[defused: …]", keeping leading whitespace and
// newlines outside so the text's layout survives. Inside, the characters
// that make a span act as markup become look-alikes that read the same to
// a person and do not parse as markup: < > | as ‹ › ¦, and their JSON
// escapes (\u003c) and HTML entities (&lt;, &#60;) as the escapes and
// entities of the look-alikes, so that a span still decodes to no markup.
func Escape(span string) string {
	trimmed := strings.TrimLeft(span, " \t\r\n")
	var b strings.Builder
	b.Grow(len(span) + 16)
	b.WriteString(span[:len(span)-len(trimmed)])
	b.WriteString("[defused: ")
	escapeMarkup(&b, trimmed)
	b.WriteByte(']')
	return b.String()
}

// escapeMarkup writes s to b with its markup characters, and their JSON
// escapes and HTML entities, turned into look-alikes.
func escapeMarkup(b *strings.Builder, s string) {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '<':
			b.WriteString("‹")
		case '>':
			b.WriteString("›")
		case '|':
			b.WriteString("¦")
		case '\\', '&':
			r, w := unescape(s, i)
			switch {
			case w > 1 && c == '&' && isMarkup(r):
				b.WriteString(lookalikeEntity(r))
			case w == 6 && isMarkup(r):
				b.WriteString(lookalikeEscape(r))
			case w > 1 && (r == '\\' || r == '&'):
				// An escaped "\" or "&" may start, with the text after
				// it, markup one level down: \\u003c, \u0026lt;, &amp;lt;.
				r2, w2 := unescape(string(r)+s[i+w:min(len(s), i+w+maxEntity)], 0)
				switch {
				case r == '&' && w2 > 1 && isMarkup(r2):
					b.WriteString(s[i : i+w])
					b.WriteString(lookalikeEntity(r2)[1:])
				case r == '\\' && w2 == 6 && isMarkup(r2):
					b.WriteString(s[i : i+w])
					b.WriteString(lookalikeEscape(r2)[1:])
				default:
					w2 = 1
					b.WriteString(s[i : i+w]) // an escaped backslash stays a pair
				}
				w += w2 - 1
			default:
				b.WriteString(s[i : i+w])
			}
			i += w - 1
		default:
			b.WriteByte(c)
		}
	}
}

func isMarkup(c byte) bool { return c == '<' || c == '>' || c == '|' }

// lookalikeEntity is the HTML entity of the look-alike of '<', '>' or '|'.
func lookalikeEntity(c byte) string {
	switch c {
	case '<':
		return "&#8249;"
	case '>':
		return "&#8250;"
	}
	return "&#166;"
}

// lookalikeEscape is the JSON escape of the look-alike of '<', '>' or '|'.
func lookalikeEscape(c byte) string {
	switch c {
	case '<':
		return `\u2039`
	case '>':
		return `\u203a`
	}
	return `\u00a6`
}
