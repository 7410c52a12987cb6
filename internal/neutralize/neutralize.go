package neutralize

import (
	"regexp"
	"strings"
)

// Go's regexp has no DFA: one alternation of every pattern, run over the
// whole text, costs about 1.5 µs per byte. Instead the text is scanned once
// by hand for cheap triggers (a word that starts a phrase, a line start, a
// "<", "[", "{" or "\"type\""), and only then is the matching pattern run,
// anchored, on a short window after the trigger.

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
	header   *regexp.Regexp
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
		// Tool-call JSON: {"tool_calls": …}, {"name": "x", "arguments": …}.
		jsonCall: ci(`^\{\s*"(?:tool_calls|function_call|tool_use|tool_call)"\s*:`),
		jsonName: ci(`^\{\s*"(?:name|tool|function)"\s*:\s*"[^"\n]{1,100}"\s*,\s*"(?:arguments|parameters|input|args)"\s*:`),
		jsonType: ci(`^"type"\s*:\s*"(?:function|tool_use)"`),
		header:   ci(`^#{2,}[ \t]*(?:system|instructions?|assistant|response)\b`),
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

// match returns the end of the suspicious span starting at i, or -1.
func (n *Neutralizer) match(s string, i int, lineStart bool, buf *[12]byte) int {
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
					return k + 1
				}
			}
		}
		if s[i] == '#' {
			if loc := n.header.FindStringIndex(s[i:min(len(s), i+64)]); loc != nil {
				return i + loc[1]
			}
		}
		return -1
	case c == '<':
		if len(win) > 1 && (win[1] == '|' || win[1] == '<') {
			if loc := n.token.FindStringIndex(win); loc != nil {
				return i + loc[1]
			}
			return -1
		}
		if loc := n.tag.FindStringIndex(win); loc != nil {
			return i + loc[1]
		}
	case c == '[':
		if hasPrefixFold(win, "[INST]") {
			return i + 6
		}
		if hasPrefixFold(win, "[/INST]") {
			return i + 7
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
				if loc := n.jsonCall.FindStringIndex(win); loc != nil {
					return i + loc[1]
				}
			case "name", "tool", "function":
				if loc := n.jsonName.FindStringIndex(win); loc != nil {
					return i + loc[1]
				}
			}
		}
	case c == '"':
		if hasPrefixFold(win, `"type"`) {
			if loc := n.jsonType.FindStringIndex(win); loc != nil {
				return i + loc[1]
			}
		}
	case isLetter(c) && (i == 0 || !isWord(s[i-1])):
		w, _ := lowerWord(s, i, buf)
		if re := n.words[w]; re != nil {
			if loc := re.FindStringIndex(win); loc != nil {
				return i + loc[1]
			}
		}
	}
	return -1
}

func hasPrefixFold(s, p string) bool { return len(s) >= len(p) && strings.EqualFold(s[:len(p)], p) }

// Defuse returns s with every suspicious span escaped, and how many spans
// it escaped. A text with nothing to defuse is returned as is, without
// allocating.
func (n *Neutralizer) Defuse(s string) (string, int) {
	var b *strings.Builder
	var buf [12]byte
	last, count := 0, 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		lineStart := i == 0 || s[i-1] == '\n'
		if !lineStart && c != '<' && c != '[' && c != '{' && c != '"' && !isLetter(c) {
			continue
		}
		end := n.match(s, i, lineStart, &buf)
		if end < 0 && lineStart && (c == '<' || c == '[' || c == '{' || c == '"' || isLetter(c)) {
			end = n.match(s, i, false, &buf)
		}
		if end < 0 {
			if isLetter(c) { // skip the rest of the word: triggers start words
				for i+1 < len(s) && isWord(s[i+1]) {
					i++
				}
			}
			continue
		}
		if b == nil {
			b = &strings.Builder{}
			b.Grow(len(s) + 64)
		}
		b.WriteString(s[last:i])
		b.WriteString(Escape(s[i:end]))
		last, count = end, count+1
		i = end - 1
	}
	if b == nil {
		return s, 0
	}
	b.WriteString(s[last:])
	return b.String(), count
}

// escaper turns the characters that make a span act as markup into
// look-alikes that read the same to a person and do not parse as markup.
var escaper = strings.NewReplacer("<", "‹", ">", "›", "|", "¦")

// Escape wraps one span as "[defused: …]", keeping leading whitespace and
// newlines outside so the text's layout survives.
func Escape(span string) string {
	trimmed := strings.TrimLeft(span, " \t\r\n")
	lead := span[:len(span)-len(trimmed)]
	return lead + "[defused: " + escaper.Replace(trimmed) + "]"
}
