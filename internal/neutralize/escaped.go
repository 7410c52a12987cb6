package neutralize

import "strings"

// Tool output is often JSON, and JSON may spell a character as an escape:
// Go's encoder writes "<" as \u003c, and a newline inside a string is \n.
// A model reads such a text decoded, so "\u003csystem\u003e" is <system>
// to it, and "ok\nUser: …" starts a turn, though neither matches a pattern
// as written. find therefore scans a decoded copy of any text that holds
// an escape, and maps each span it finds back onto the text as written, so
// the output is that text, byte for byte, except for the defused spans.
//
// HTML entities hide markup the same way: a web page, Confluence storage
// format or Jira HTML writes <system> as &lt;system&gt;, which a model
// reads as the tag. The decoded copy therefore decodes the common entity
// spellings too (&lt; &gt; &amp; &quot; &apos;, &#NN; and &#xHH;), on the
// same level as JSON escapes: a JSON string that holds &lt; is read as <.
// A decoded copy that still holds an escape or entity (\\u003c, JSON in a
// JSON string, or \u0026lt;) is decoded once more, and scanned instead:
// two levels, no more.

// find appends the suspicious spans of s to dst, in s's coordinates.
func (n *Neutralizer) find(s string, dst []span) []span {
	first := firstEscape(s)
	if first < 0 {
		return n.scan(s, dst)
	}
	d := decode(s, first)
	w := walker{s: s}
	var w2 *walker
	if second := firstEscape(d); second >= 0 {
		// JSON inside a JSON string (\\u003c) or an escaped entity
		// (\u0026lt;): the model reads one level further down.
		w2 = &walker{s: d}
		d = decode(d, second)
	}
	to := func(x int) int {
		if w2 != nil {
			x = w2.to(x)
		}
		return w.to(x)
	}
	spans := n.scan(d, dst)
	out := spans[:0]
	for _, sp := range spans {
		trigger := to(sp.trigger)
		if sp.quoted {
			// Defusing inside a pair of quotes keeps JSON valid only if
			// they delimit a string of the text as written. A \" opens
			// nested JSON's string, inside the outer one; a plain quote
			// does so for sure only when the match up to it has no escape
			// (as in the plain scan, where a "{" or "\"type\"" before it
			// proves it opens). Otherwise the decoded quotes may straddle
			// two strings of the text, and the span is left alone.
			// An entity (&quot;) is no JSON delimiter either: in valid
			// JSON a "&" is inside a string.
			q := to(sp.start - 1)
			if s[q] != '\\' && s[q] != '&' && q-trigger != sp.start-1-sp.trigger {
				continue
			}
		}
		start := to(sp.start)
		out = append(out, span{trigger: trigger, start: start, end: to(sp.end), quoted: sp.quoted})
	}
	return out
}

// unescape reads the character at s[i]: a JSON escape or an HTML entity
// decoded, with its width, or the byte itself with width 1 (a backslash or
// ampersand that starts no valid escape included).
func unescape(s string, i int) (byte, int) {
	switch s[i] {
	case '\\':
		return unescapeJSON(s, i)
	case '&':
		return unescapeEntity(s, i)
	}
	return s[i], 1
}

// unescapeJSON reads the JSON escape at s[i], a backslash. A \u escape of
// a non-ASCII character reads as 0x80, which no pattern matches and which
// is no word character, as the first byte of that character written in
// UTF-8 would be.
func unescapeJSON(s string, i int) (byte, int) {
	if i+1 >= len(s) {
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

// maxEntity is the width of the longest entity unescapeEntity reads,
// "&#x0000003c;" or "&#0000000060;": longer ones are not worth a search
// for their ";".
const maxEntity = 12

// unescapeEntity reads the HTML entity at s[i], an ampersand: &lt; &gt;
// &amp; &quot; &apos; (the first four in upper case too, as HTML allows),
// &#NN; or &#xHH;. As in unescapeJSON, a non-ASCII character reads as
// 0x80. The ";" is required: without it, "&lt" is as likely a query
// parameter as an entity.
func unescapeEntity(s string, i int) (byte, int) {
	rest := s[i+1 : min(len(s), i+maxEntity)]
	semi := strings.IndexByte(rest, ';')
	if semi < 2 {
		return '&', 1
	}
	name, w := rest[:semi], semi+2
	switch name {
	case "lt", "LT":
		return '<', w
	case "gt", "GT":
		return '>', w
	case "amp", "AMP":
		return '&', w
	case "quot", "QUOT":
		return '"', w
	case "apos":
		return '\'', w
	}
	if name[0] != '#' {
		return '&', 1
	}
	digits, base := name[1:], 10
	if digits[0]|0x20 == 'x' {
		digits, base = digits[1:], 16
	}
	if digits == "" {
		return '&', 1
	}
	r := 0 // at most 9 digits: no overflow
	for _, h := range []byte(digits) {
		switch {
		case h >= '0' && h <= '9':
			r = r*base + int(h-'0')
		case base == 16 && h|0x20 >= 'a' && h|0x20 <= 'f':
			r = r*base + int(h|0x20-'a'+10)
		default:
			return '&', 1
		}
	}
	if r >= 0x80 {
		return 0x80, w
	}
	return byte(r), w
}

// firstEscape returns the index of the first valid JSON escape or HTML
// entity in s, or -1.
func firstEscape(s string) int {
	first := -1
	for _, c := range [...]byte{'\\', '&'} {
		for i := 0; ; i++ {
			j := strings.IndexByte(s[i:], c)
			if j < 0 || first >= 0 && i+j >= first {
				break
			}
			i += j
			if _, w := unescape(s, i); w > 1 {
				first = i
				break
			}
		}
	}
	return first
}

// decode returns s with its JSON escapes and HTML entities decoded, one
// byte for each, starting at first, the first of them.
func decode(s string, first int) string {
	var b strings.Builder
	b.Grow(len(s))
	b.WriteString(s[:first])
	// The next "\\" and "&" at or after i, each searched for again only
	// once i has passed it, so that a text with many of one and none of
	// the other is not searched to its end at every escape.
	nextSlash, nextAmp := -1, -1
	for i := first; i < len(s); {
		if nextSlash < i {
			nextSlash = indexFrom(s, i, '\\')
		}
		if nextAmp < i {
			nextAmp = indexFrom(s, i, '&')
		}
		if j := min(nextSlash, nextAmp); j > i {
			b.WriteString(s[i:j])
			i = j
			continue
		}
		c, w := unescape(s, i)
		b.WriteByte(c)
		i += w
	}
	return b.String()
}

// indexFrom is the index of the first c in s at or after i, or len(s).
func indexFrom(s string, i int, c byte) int {
	if j := strings.IndexByte(s[i:], c); j >= 0 {
		return i + j
	}
	return len(s)
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
