package search

import (
	"strings"
	"unicode"
)

// A pasted expression. "sum(rate(http_requests_total{code=~\"5..\"}[5m]))",
// "avg:system.cpu.user{env:prod} by {host}", "db.inventory.find({sku:
// 'AB-1203'})", "document.querySelectorAll('img:not([alt])')": a request
// that carries code or a query expression gives it to a tool that runs,
// checks or explains it, and such a tool takes it in a parameter named
// for it (query, expr, function, script, pipeline, a "…ql" language).
// Its words (metric names, labels, fields) pull the tools that list or
// describe those things instead. So an expression is a value type
// (value.go): the tools of a kind that take an expression are the ones
// such a request asks for, and their twins that take none score down.
//
// Two shapes count, both written with no space where prose has one: a
// call, a name right before "(" with an argument before ")" (not "()",
// which prose writes of functions it names: "an alert() is blocking",
// and not a plural "(s)"); and a selector, a name right before "{" whose
// braces hold a key and a value (":" or "="). A quoted JSON object or a
// filter of bare braces is a document or a payload as often, and is not
// read as an expression.

// exprMiss multiplies the lexical score of a tool that takes no
// expression, of a kind whose tools take one, when the request carries
// one. It is stronger than valueMiss: the words of an expression name
// the things it reads (metrics, fields), so the tools that list those
// things match them all.
const exprMiss = 0.3

// exprParams are the head words of parameters that take an expression.
var exprParams = map[string]bool{
	"query": true, "expr": true, "expression": true, "function": true,
	"script": true, "code": true, "pipeline": true, "statement": true,
}

// exprParam reports whether a parameter's head word (the last word of
// its name, lower case) takes an expression: one of exprParams, or the
// name of a query language ("jql", "logql", "dql": a word ending "ql").
func exprParam(head string) bool {
	return exprParams[head] || len(head) >= 3 && len(head) <= 6 && strings.HasSuffix(head, "ql") && isAlpha(head)
}

// carriesExpression reports whether query holds a call or a selector.
func carriesExpression(query string) bool {
	if !strings.ContainsAny(query, "({") {
		return false
	}
	rs := []rune(query)
	for i := 1; i < len(rs)-1; i++ {
		if rs[i] != '(' && rs[i] != '{' || !nameRune(rs[i-1]) {
			continue
		}
		closer := ')'
		if rs[i] == '{' {
			closer = '}'
		}
		end := closeOf(rs, i, rs[i], closer)
		if end < 0 {
			continue
		}
		inner := string(rs[i+1 : end])
		switch {
		case strings.TrimSpace(inner) == "":
		case rs[i] == '(' && (inner == "s" || inner == "es"):
		case rs[i] == '(':
			return true
		case strings.ContainsAny(inner, ":="):
			return true
		}
	}
	return false
}

// nameRune reports whether r can end a function's or a metric's name.
func nameRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' || r == '.' || r == '$'
}

// closeOf returns the index of the bracket closing the one at open, or
// -1 if it is never closed.
func closeOf(rs []rune, open int, opener, closer rune) int {
	depth := 0
	for j := open; j < len(rs); j++ {
		switch rs[j] {
		case opener:
			depth++
		case closer:
			depth--
			if depth == 0 {
				return j
			}
		}
	}
	return -1
}
