package normalizers

import (
	"context"
	"encoding/json"
	"math"
	"regexp"
	"strconv"
	"strings"
)

// jsonNumber is the JSON number grammar: coerceTypes converts only strings
// that are exactly a number, so "0x10", "1_000", " 5", "NaN" and "Inf" stay
// strings.
var jsonNumber = regexp.MustCompile(`^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$`)

// coerceTypes converts a value to the JSON type the schema wants, when the
// value's own type is not allowed there and the conversion is exact:
//   - "5" -> 5 (integer/number), "true"/"false" -> bool (case-insensitive);
//   - 5 -> "5" where only a string is allowed (ids such as GitLab's
//     project_id are strings that models send as numbers);
//   - a JSON-encoded object (or array) string -> the object (or array);
//   - any other single value -> [value] where an array is wanted.
//
// Integers become int64 (exact beyond 2^53); other numbers float64.
func coerceTypes(ctx context.Context, call Call) (map[string]any, error) {
	return newWalker(call.Schema, nil, coerceValue).run(call.Args)
}

func coerceValue(sv schemaView, node map[string]any, key string, v any) (any, action, error) {
	t := sv.types(node)
	if len(t) == 0 || v == nil || allows(t, v) {
		return nil, keep, nil
	}
	if s, ok := v.(string); ok {
		if out, ok := fromString(t, s); ok {
			return out, replace, nil
		}
	}
	if n, ok := numberText(v); ok && t["string"] {
		return n, replace, nil
	}
	if t["array"] {
		if _, isArr := v.([]any); !isArr {
			it := sv.types(sv.items(node))
			if len(it) == 0 || allows(it, v) {
				return []any{v}, replace, nil
			}
			if s, ok := v.(string); ok {
				if e, ok := fromString(it, s); ok && allows(it, e) {
					return []any{e}, replace, nil
				}
			}
		}
	}
	return nil, keep, nil
}

// fromString converts s to a type in t, exactly, or reports false.
func fromString(t map[string]bool, s string) (any, bool) {
	if t["object"] && looksJSON(s, '{') {
		var m map[string]any
		if json.Unmarshal([]byte(s), &m) == nil && m != nil {
			return m, true
		}
	}
	if t["array"] && looksJSON(s, '[') {
		var a []any
		if json.Unmarshal([]byte(s), &a) == nil && a != nil {
			return a, true
		}
	}
	if (t["integer"] || t["number"]) && jsonNumber.MatchString(s) {
		if i, err := strconv.ParseInt(s, 10, 64); err == nil {
			return i, true
		}
		f, err := strconv.ParseFloat(s, 64)
		if err == nil && !math.IsInf(f, 0) {
			if t["number"] {
				return f, true
			}
			// An integer schema accepts 5.0 but not 5.5; beyond 2^53 a float
			// no longer says which integer was meant.
			if f == math.Trunc(f) && math.Abs(f) <= 1<<53 {
				return f, true
			}
		}
	}
	if t["boolean"] {
		switch strings.ToLower(s) {
		case "true":
			return true, true
		case "false":
			return false, true
		}
	}
	return nil, false
}

// numberText formats a JSON number as the text a user would have typed.
func numberText(v any) (string, bool) {
	switch n := v.(type) {
	case float64:
		if math.IsInf(n, 0) || math.IsNaN(n) {
			return "", false
		}
		return strconv.FormatFloat(n, 'f', -1, 64), true
	case int64:
		return strconv.FormatInt(n, 10), true
	case int:
		return strconv.Itoa(n), true
	case json.Number:
		return n.String(), true
	}
	return "", false
}

// looksJSON reports whether s, trimmed, opens with open and closes with the
// matching bracket.
func looksJSON(s string, open byte) bool {
	s = strings.TrimSpace(s)
	closeB := byte('}')
	if open == '[' {
		closeB = ']'
	}
	return len(s) >= 2 && s[0] == open && s[len(s)-1] == closeB
}

// allows reports whether a value of v's JSON type is allowed by t.
func allows(t map[string]bool, v any) bool {
	switch x := v.(type) {
	case nil:
		return t["null"]
	case string:
		return t["string"]
	case bool:
		return t["boolean"]
	case float64:
		return t["number"] || (t["integer"] && x == math.Trunc(x))
	case int64, int:
		return t["number"] || t["integer"]
	case json.Number:
		if _, err := x.Int64(); err == nil {
			return t["number"] || t["integer"]
		}
		return t["number"]
	case map[string]any:
		return t["object"]
	case []any:
		return t["array"]
	}
	return false
}
