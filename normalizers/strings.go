package normalizers

import (
	"context"
	"regexp"
	"strings"
)

// joinArrays turns an array of strings into one string where the schema
// wants a string and not an array. An empty array becomes an absent key,
// never "": an empty string would read as a placeholder downstream.
func joinArrays(ctx context.Context, call Call) (map[string]any, error) {
	sep := call.Separator
	if sep == "" {
		sep = " "
	}
	w := newWalker(call.Schema, nil, func(sv schemaView, node map[string]any, key string, v any) (any, action, error) {
		arr, ok := v.([]any)
		if !ok {
			return nil, keep, nil
		}
		t := sv.types(node)
		if !t["string"] || t["array"] {
			return nil, keep, nil
		}
		parts := make([]string, 0, len(arr))
		for _, e := range arr {
			s, ok := e.(string)
			if !ok {
				return nil, keep, nil
			}
			parts = append(parts, s)
		}
		if len(parts) == 0 {
			return nil, remove, nil
		}
		return strings.Join(parts, sep), replace, nil
	})
	return w.run(call.Args)
}

// defaultSplit is what splitStrings splits on when Call.Separator is "".
var defaultSplit = regexp.MustCompile(`[,\s]+`)

// splitStrings turns "a,b c" into ["a","b","c"] where the schema wants an
// array of strings and not a string. A string with nothing but separators
// is left alone, so that a placeholder such as "" or " " stays visible to
// the placeholder check instead of becoming an empty array.
func splitStrings(ctx context.Context, call Call) (map[string]any, error) {
	w := newWalker(call.Schema, nil, func(sv schemaView, node map[string]any, key string, v any) (any, action, error) {
		s, ok := v.(string)
		if !ok {
			return nil, keep, nil
		}
		t := sv.types(node)
		if !t["array"] || t["string"] {
			return nil, keep, nil
		}
		if it := sv.types(sv.items(node)); len(it) > 0 && !it["string"] {
			return nil, keep, nil
		}
		if looksJSON(s, '[') {
			return nil, keep, nil // a JSON-encoded array is coerceTypes' business
		}
		var raw []string
		if call.Separator == "" {
			raw = defaultSplit.Split(s, -1)
		} else {
			raw = strings.Split(s, call.Separator)
		}
		out := make([]any, 0, len(raw))
		for _, p := range raw {
			if p = strings.TrimSpace(p); p != "" {
				out = append(out, p)
			}
		}
		if len(out) == 0 {
			return nil, keep, nil
		}
		return out, replace, nil
	})
	return w.run(call.Args)
}
