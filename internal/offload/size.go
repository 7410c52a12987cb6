package offload

import (
	"encoding/json"
	"math"
	"strconv"
	"unicode/utf8"
)

// JSONSize returns the length in bytes of v's compact JSON as
// encoding/json writes it with HTML escaping off, or a number over limit
// as soon as the length passes limit. It returns -1 when it cannot tell
// without encoding: a Go type other than those mcp-go decodes JSON into
// (map[string]any, []any, string, float64, bool, nil, json.Number), or a
// value that does not encode (NaN, ±Inf).
//
// It exists so that the offload decision for a result with a small
// structuredContent costs a walk, not an encoding, and so that a huge one
// is found over the threshold after reading only its first limit bytes.
func JSONSize(v any, limit int) int {
	w := sizer{limit: limit}
	w.value(v)
	if w.unknown {
		return -1
	}
	return w.n
}

type sizer struct {
	n, limit int
	unknown  bool
}

// over reports whether the walk can stop: the length passed limit, or the
// value needs encoding to be measured.
func (w *sizer) over() bool { return w.unknown || w.n > w.limit }

func (w *sizer) value(v any) {
	if w.over() {
		return
	}
	switch x := v.(type) {
	case nil:
		w.n += 4
	case bool:
		if x {
			w.n += 4
		} else {
			w.n += 5
		}
	case string:
		w.n += StringJSONSize(x)
	case float64:
		n := floatSize(x)
		if n < 0 {
			w.unknown = true
			return
		}
		w.n += n
	case int:
		w.n += len(strconv.AppendInt(make([]byte, 0, 24), int64(x), 10))
	case int64:
		w.n += len(strconv.AppendInt(make([]byte, 0, 24), x, 10))
	case json.Number:
		if x == "" {
			w.n++ // encoded as 0
		} else {
			w.n += len(x)
		}
	case map[string]any:
		if x == nil {
			w.n += 4
			return
		}
		w.n += 2 // {}
		first := true
		for k, e := range x {
			if !first {
				w.n++ // ,
			}
			first = false
			w.n += StringJSONSize(k) + 1 // "k":
			w.value(e)
			if w.over() {
				return
			}
		}
	case []any:
		if x == nil {
			w.n += 4
			return
		}
		w.n += 2 // []
		for i, e := range x {
			if i > 0 {
				w.n++
			}
			w.value(e)
			if w.over() {
				return
			}
		}
	default:
		w.unknown = true
	}
}

// floatSize is the length of f as encoding/json formats a float64, or -1
// for a value JSON cannot hold.
func floatSize(f float64) int {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return -1
	}
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	var buf [32]byte
	b := strconv.AppendFloat(buf[:0], f, format, -1, 64)
	if format == 'e' {
		// encoding/json writes e-07 as e-7.
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			return n - 1
		}
	}
	return len(b)
}

// StringJSONSize is the length of s as a JSON string, quotes included,
// escaped as encoding/json escapes it with HTML escaping off.
func StringJSONSize(s string) int {
	n := 2
	for i := 0; i < len(s); {
		b := s[i]
		if b < utf8.RuneSelf {
			switch {
			case b == '"' || b == '\\' || b == '\b' || b == '\f' || b == '\n' || b == '\r' || b == '\t':
				n += 2
			case b < 0x20:
				n += 6 // \u00XX
			default:
				n++
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 || r == '\u2028' || r == '\u2029' {
			n += 6 // \ufffd, \u2028, \u2029
		} else {
			n += size
		}
		i += size
	}
	return n
}
