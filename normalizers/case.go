package normalizers

import (
	"context"
	"maps"
	"slices"
	"strings"
	"unicode"
)

// caseTransformer builds camelCase or snakeCase. conv is the plain
// schema-less rename; isTarget says which declared names are in the
// transformer's target style.
func caseTransformer(name string, conv func(string) string, isTarget func(string) bool) Transformer {
	level := func(s schemaView, node, obj map[string]any, path string) (map[string]any, bool, error) {
		return renameLevel(name, s, node, obj, path, conv, isTarget)
	}
	return func(ctx context.Context, call Call) (map[string]any, error) {
		return newWalker(call.Schema, level, nil).run(call.Args)
	}
}

// renameLevel renames the keys of one object. A declared key is never
// renamed. An undeclared key in the source style becomes the declared key of
// the target style that differs from it only in case and separators, or
// else its plain conversion. Levels whose schema declares no properties
// (free-form maps) keep their keys; in schema-less mode every key in the
// source style is converted.
func renameLevel(name string, s schemaView, node, obj map[string]any, path string,
	conv func(string) string, isTarget func(string) bool) (map[string]any, bool, error) {
	// Most levels are already in the target style: skip the schema work.
	source := false
	for k := range obj {
		if conv(k) != k {
			source = true
			break
		}
	}
	if !source {
		return obj, false, nil
	}
	var targets map[string]string // fold -> declared target-style name; "" if ambiguous
	var declared map[string]bool
	if node != nil {
		declared = s.declared(node)
		targets = map[string]string{}
		for p := range declared {
			if !isTarget(p) {
				continue
			}
			f := fold(p)
			if _, dup := targets[f]; dup {
				targets[f] = ""
			} else {
				targets[f] = p
			}
		}
	}
	renames := map[string]string{}
	for k := range obj {
		var t string
		switch {
		case node == nil:
			t = conv(k)
		case declared[k], len(declared) == 0:
			// Declared keys are the server's own spelling; a level that
			// declares nothing is a free-form map whose keys are data
			// (Grafana's "var-env", Jaeger's "http.status_code").
			continue
		case conv(k) != k: // k is in the source style
			// The declared spelling wins ("api_version" -> "apiVersion");
			// an undeclared key still gets the plain conversion, so that
			// the output speaks one style and field maps can be written in
			// it ({"resourceType": "kind"} catches "resource_type").
			if t = targets[fold(k)]; t == "" {
				t = conv(k)
			}
		}
		if t != "" && t != k {
			renames[k] = t
		}
	}
	if len(renames) == 0 {
		return obj, false, nil
	}
	out := make(map[string]any, len(obj))
	from := map[string]string{} // target -> source key that produced it
	for _, k := range slices.Sorted(maps.Keys(obj)) {
		if _, ok := renames[k]; !ok {
			out[k], from[k] = obj[k], k
		}
	}
	for _, k := range slices.Sorted(maps.Keys(renames)) {
		t := renames[k]
		if prev, ok := from[t]; ok {
			return nil, false, &Error{Transformer: name, Path: path + "/" + escape(k), Msg: msgBothGiven(k, prev, t)}
		}
		out[t], from[t] = obj[k], k
	}
	return out, true, nil
}

// fold lowercases and drops separators: "resource_type", "resource-type"
// and "resourceType" all fold to "resourcetype".
func fold(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '_' || r == '-' {
			return -1
		}
		return unicode.ToLower(r)
	}, s)
}

// words reports whether s is alphanumeric words joined by single '_' or '-',
// with no leading or trailing separator ("__typename" is not converted).
func words(s string) bool {
	if s == "" {
		return false
	}
	prevSep := true
	for _, r := range s {
		sep := r == '_' || r == '-'
		if sep && prevSep {
			return false
		}
		if !sep && !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			return false
		}
		prevSep = sep
	}
	return !prevSep
}

// toCamel converts snake_case or kebab-case to camelCase; other keys are
// returned unchanged.
func toCamel(s string) string {
	if !words(s) || !strings.ContainsAny(s, "_-") {
		return s
	}
	parts := strings.FieldsFunc(s, func(r rune) bool { return r == '_' || r == '-' })
	var b strings.Builder
	b.WriteString(parts[0])
	for _, p := range parts[1:] {
		r := []rune(p)
		r[0] = unicode.ToUpper(r[0])
		b.WriteString(string(r))
	}
	return b.String()
}

// toSnake converts camelCase, PascalCase or kebab-case to snake_case;
// other keys are returned unchanged. Acronyms stay one word:
// "HTTPRoute" -> "http_route".
func toSnake(s string) string {
	if !words(s) || !strings.ContainsFunc(s, func(r rune) bool { return r == '-' || unicode.IsUpper(r) }) {
		return s
	}
	r := []rune(s)
	var b strings.Builder
	for i, c := range r {
		if c == '-' {
			b.WriteByte('_')
			continue
		}
		if unicode.IsUpper(c) && i > 0 && r[i-1] != '_' && r[i-1] != '-' {
			prevLower := unicode.IsLower(r[i-1]) || unicode.IsDigit(r[i-1])
			nextLower := i+1 < len(r) && unicode.IsLower(r[i+1])
			if prevLower || (unicode.IsUpper(r[i-1]) && nextLower) {
				b.WriteByte('_')
			}
		}
		b.WriteRune(unicode.ToLower(c))
	}
	return b.String()
}

func isCamelTarget(p string) bool { return !strings.ContainsAny(p, "_-") }

func isSnakeTarget(p string) bool {
	return !strings.ContainsFunc(p, func(r rune) bool { return r == '-' || unicode.IsUpper(r) })
}
