package search

import (
	"slices"
	"strings"
	"unicode"
)

// Query-language syntax in requests. A request may quote an expression
// to run: `up{job="api"} == 0`, `sum(rate(x_total{code=~"5.."}[5m]))`,
// `avg:cpu{env:prod}`, `count(), by:{host}`. The expression's label keys
// (the words before `=`, `!=`, `=~`, `!~` or `:` inside braces) and its
// functions (a word right before `(`) are the language's grammar: "job"
// there names a label, not a CI job; "sum" a function, not a summary.
// They are dropped from the request's words unless the request also says
// them in prose. The expression's other words (metric names, label
// values) stay, at identWeight (identifierTerms), and the expression as
// a whole is read by the lexicon's structural cues.

// syntaxTerms returns the terms query says only as label keys or
// function names of a query expression; nil for most requests.
func syntaxTerms(query string) map[string]bool {
	if !strings.ContainsAny(query, "({") {
		return nil
	}
	var syntax []string
	said := map[string]bool{}
	rs := []rune(query)
	depth := 0 // of braces
	for i := 0; i < len(rs); {
		switch rs[i] {
		case '{':
			depth++
		case '}':
			depth = max(depth-1, 0)
		}
		if !unicode.IsLetter(rs[i]) {
			i++
			continue
		}
		j := i
		for j < len(rs) && (unicode.IsLetter(rs[j]) || unicode.IsDigit(rs[j]) || rs[j] == '_' || rs[j] == '.') {
			j++
		}
		w := string(rs[i:j])
		after := string(rs[j:min(j+2, len(rs))])
		isKey := depth > 0 && (strings.HasPrefix(after, "=") || strings.HasPrefix(after, "!=") ||
			strings.HasPrefix(after, "!~") || strings.HasPrefix(after, ":"))
		// "pod(s)" is prose: a plural in brackets calls nothing.
		rest := string(rs[j:min(j+5, len(rs))])
		isFunc := strings.HasPrefix(after, "(") && !strings.HasPrefix(rest, "(s)") && !strings.HasPrefix(rest, "(es)")
		ts := terms(w)
		if isKey || isFunc {
			syntax = append(syntax, ts...)
		} else {
			for _, t := range ts {
				said[t] = true
			}
		}
		i = j
	}
	var out map[string]bool
	for _, t := range syntax {
		if !said[t] {
			if out == nil {
				out = map[string]bool{}
			}
			out[t] = true
		}
	}
	return out
}

// withoutSyntax returns ts less the terms syntax holds.
func withoutSyntax(ts []string, syntax map[string]bool) []string {
	if syntax == nil {
		return ts
	}
	return slices.DeleteFunc(ts, func(t string) bool { return syntax[t] })
}
