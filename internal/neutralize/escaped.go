package neutralize

import "strings"

// Tool output is often JSON, and JSON may spell a character as an escape:
// Go's encoder writes "<" as \u003c, and a newline inside a string is \n.
// A model reads such a text decoded, so "\u003csystem\u003e" is <system>
// to it, and "ok\nUser: …" starts a turn, though neither matches a pattern
// as written. find therefore scans a decoded copy of any text that holds
// an escape, and maps each span it finds back onto the text as written, so
// the output is that text, byte for byte, except for the defused spans.

// find appends the suspicious spans of s to dst, in s's coordinates.
func (n *Neutralizer) find(s string, dst []span) []span {
	first := firstEscape(s)
	if first < 0 {
		return n.scan(s, dst)
	}
	d := decode(s, first)
	spans := n.scan(d, dst)
	w := walker{s: s}
	out := spans[:0]
	for _, sp := range spans {
		trigger := w.to(sp.trigger)
		if sp.quoted {
			// Defusing inside a pair of quotes keeps JSON valid only if
			// they delimit a string of the text as written. A \" opens
			// nested JSON's string, inside the outer one; a plain quote
			// does so for sure only when the match up to it has no escape
			// (as in the plain scan, where a "{" or "\"type\"" before it
			// proves it opens). Otherwise the decoded quotes may straddle
			// two strings of the text, and the span is left alone.
			q := w.to(sp.start - 1)
			if s[q] != '\\' && q-trigger != sp.start-1-sp.trigger {
				continue
			}
		}
		start := w.to(sp.start)
		out = append(out, span{trigger: trigger, start: start, end: w.to(sp.end), quoted: sp.quoted})
	}
	return out
}

// unescape reads the character at s[i]: a JSON escape decoded, with its
// width, or the byte itself with width 1 (a backslash that starts no valid
// escape included). A \u escape of a non-ASCII character reads as 0x80,
// which no pattern matches and which is no word character, as the first
// byte of that character written in UTF-8 would be.
func unescape(s string, i int) (byte, int) {
	if s[i] != '\\' || i+1 >= len(s) {
		return s[i], 1
	}
	switch s[i+1] {
	case '"', '\\', '/':
		return s[i+1], 2
	case 'b':
		return '\b', 2
	case 'f':
		return '\f', 2
	case 'n':
		return '\n', 2
	case 'r':
		return '\r', 2
	case 't':
		return '\t', 2
	case 'u':
		if i+6 > len(s) {
			return '\\', 1
		}
		r := 0
		for _, h := range []byte(s[i+2 : i+6]) {
			switch {
			case h >= '0' && h <= '9':
				r = r<<4 | int(h-'0')
			case h|0x20 >= 'a' && h|0x20 <= 'f':
				r = r<<4 | int(h|0x20-'a'+10)
			default:
				return '\\', 1
			}
		}
		if r >= 0x80 {
			return 0x80, 6
		}
		return byte(r), 6
	}
	return '\\', 1
}

// firstEscape returns the index of the first valid JSON escape in s, or -1.
func firstEscape(s string) int {
	for i := 0; ; {
		j := strings.IndexByte(s[i:], '\\')
		if j < 0 {
			return -1
		}
		i += j
		if _, w := unescape(s, i); w > 1 {
			return i
		}
		i++
	}
}

// decode returns s with its JSON escapes decoded, one byte for each,
// starting at first, the first escape.
func decode(s string, first int) string {
	var b strings.Builder
	b.Grow(len(s))
	b.WriteString(s[:first])
	for i := first; i < len(s); {
		if s[i] != '\\' {
			j := strings.IndexByte(s[i:], '\\')
			if j < 0 {
				j = len(s) - i
			}
			b.WriteString(s[i : i+j])
			i += j
			continue
		}
		c, w := unescape(s, i)
		b.WriteByte(c)
		i += w
	}
	return b.String()
}

// walker maps offsets of decode's output back to the text it decoded. It
// moves forward only, which is all find needs: spans come in order.
type walker struct {
	s        string
	raw, dec int
}

// to returns the offset in s of decoded offset d.
func (w *walker) to(d int) int {
	for w.dec < d {
		_, n := unescape(w.s, w.raw)
		w.raw += n
		w.dec++
	}
	return w.raw
}
