package mcpfleet

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// placeholders are strings models send when they have no value. They are
// compared case-insensitively after trimming.
var placeholders = []string{"", "undefined", "null", "none", "<none>", "<unknown>", "nil", "n/a"}

// maxPlaceholderLen is the longest entry of placeholders, in bytes.
const maxPlaceholderLen = len("<unknown>")

func isPlaceholder(s string) bool {
	t := strings.TrimSpace(s)
	for i := 0; i < len(t); i++ {
		if t[i] >= utf8.RuneSelf {
			// Lowering may turn non-ASCII into ASCII (U+0130 to "i",
			// the Kelvin sign to "k"): compare exactly as documented.
			return slices.Contains(placeholders, strings.ToLower(t))
		}
	}
	// ASCII: no allocation, and nothing longer can match. EqualFold on
	// ASCII is ToLower's comparison.
	if len(t) > maxPlaceholderLen {
		return false
	}
	for _, p := range placeholders {
		if strings.EqualFold(t, p) {
			return true
		}
	}
	return false
}

// rejectPlaceholders walks args with the schema. Placeholder strings are
// problems at any depth. JSON null on an optional property is dropped, as
// absent; on a required one it is a problem. It returns the args with the
// dropped keys removed (copied only where something was dropped).
func rejectPlaceholders(schema map[string]any, args map[string]any) (map[string]any, []Problem) {
	// Nearly every call has nothing to report: a walk that allocates
	// nothing says so, and only the rest pay for sorted keys, pointers and
	// required sets.
	if !hasPlaceholderWork(args) {
		return args, nil
	}
	var problems []Problem
	out := walkPlaceholders(schema, args, "", &problems)
	return out.(map[string]any), problems
}

func walkPlaceholders(schema map[string]any, v any, path string, problems *[]Problem) any {
	switch x := v.(type) {
	case string:
		if isPlaceholder(x) {
			*problems = append(*problems, Problem{Path: path, Got: strconv.Quote(brief(x)),
				Want: "a real value" + describeWant(schema), Hint: "This looks like a placeholder."})
		}
		return x
	case []any:
		items, _ := schema["items"].(map[string]any)
		for i, e := range x {
			walkPlaceholders(items, e, path+"/"+strconv.Itoa(i), problems)
		}
		return x
	case map[string]any:
		props, _ := schema["properties"].(map[string]any)
		required := requiredSet(schema)
		var out map[string]any
		for _, k := range sortedKeys(x) {
			e := x[k]
			sub, _ := props[k].(map[string]any)
			p := path + "/" + escapePointer(k)
			if e == nil {
				if required[k] {
					*problems = append(*problems, Problem{Path: p, Got: "null", Want: "a value" + describeWant(sub),
						Hint: fmt.Sprintf("%q is required.", k)})
					continue
				}
				if out == nil {
					out = make(map[string]any, len(x))
					for kk, vv := range x {
						out[kk] = vv
					}
				}
				delete(out, k)
				continue
			}
			walkPlaceholders(sub, e, p, problems)
		}
		if out != nil {
			return out
		}
		return x
	}
	return v
}

// hasPlaceholderWork reports whether walkPlaceholders would find anything
// in v: a placeholder string at any depth, or a JSON null property, which it
// either drops or reports.
func hasPlaceholderWork(v any) bool {
	switch x := v.(type) {
	case string:
		return isPlaceholder(x)
	case []any:
		for _, e := range x {
			if hasPlaceholderWork(e) {
				return true
			}
		}
	case map[string]any:
		for _, e := range x {
			if e == nil || hasPlaceholderWork(e) {
				return true
			}
		}
	}
	return false
}

func describeWant(schema map[string]any) string {
	if schema == nil {
		return ""
	}
	var parts []string
	if t, ok := schema["type"].(string); ok {
		parts = append(parts, t)
	}
	if d, ok := schema["description"].(string); ok && d != "" {
		parts = append(parts, brief(d))
	}
	if len(parts) == 0 {
		return ""
	}
	return " (" + strings.Join(parts, ": ") + ")"
}

func requiredSet(schema map[string]any) map[string]bool {
	req := map[string]bool{}
	if r, ok := schema["required"].([]any); ok {
		for _, n := range r {
			if s, ok := n.(string); ok {
				req[s] = true
			}
		}
	}
	return req
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func escapePointer(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}
