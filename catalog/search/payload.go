package search

import (
	"strings"
	"unicode"
)

// A payload after a colon or on lines of its own. "comment on
// DEVOPS-431: rolled back to v2.14.3, monitoring error rates", "add a
// note to alert 4821: root cause is the expired IAM key", "turn this
// into DQL: error logs from namespace payments grouped by pod", "lint
// this config before I push it:\nversion: 2.1\njobs: …": what follows
// the colon is the value the ask gives (a comment's text, a note, a
// description to translate, a config), not what is asked; "error
// rates" there asks for no metrics, "pod" for no pod. So the words said
// only in the payload weigh identWeight, as a quote's do (quote.go),
// name no kind, and fire no lexicon entry.
//
// A colon opens a payload when the clause before it (from the last
// sentence end) starts with a verb that gives something: a change verb
// (requestVerbs) but one that runs it (runVerbs), or a verb that checks
// what it is given (checkVerbs),
// after "please", "can you" and the like; and what follows is not a
// question ("Start with SUP-3310: how long did it sit …" asks there).
// A colon after a topic ("jaeger: checkout traces with errors"), or
// after a read ("details for apply-x1: status, timestamps") opens none:
// what follows is the ask. Text on lines after the first is pasted
// (code and configs are pasted on their own lines) and a payload too.

// checkVerbs check, translate or explain what they are given.
var checkVerbs = map[string]bool{
	"check": true, "validate": true, "verify": true, "lint": true,
	"explain": true, "turn": true, "convert": true, "translate": true, "evaluate": true,
}

// runVerbs run what follows them: "run this against prometheus: p99
// of … over the last 6 hours at a 1m step" describes the query, and its
// window and step choose among the tools that run one; its code is read
// by querysyntax.go, pipedquery.go and expression.go.
var runVerbs = map[string]bool{"run": true, "execute": true, "exec": true}

// politeWords may come before a clause's verb: "please run", "can you
// add", "could you please post".
var politeWords = map[string]bool{
	"please": true, "pls": true, "can": true, "could": true, "would": true,
	"will": true, "you": true, "kindly": true, "just": true, "now": true,
}

// questionStarts begin a question: a payload is no question.
var questionStarts = map[string]bool{
	"how": true, "what": true, "when": true, "who": true, "why": true,
	"which": true, "where": true, "is": true, "are": true, "was": true,
	"were": true, "do": true, "does": true, "did": true, "can": true,
	"has": true, "have": true,
}

// payloadStart returns the byte offset at which query's payload
// begins, or -1 if it carries none.
func payloadStart(query string) int {
	start := -1
	if i := strings.IndexByte(query, '\n'); i >= 0 && len(strings.Fields(query[:i])) >= 2 &&
		strings.TrimSpace(query[i:]) != "" {
		start = i + 1
	}
	end := len(query)
	if start >= 0 {
		end = start
	}
	for i := 0; i < end; i++ {
		if query[i] != ':' || i+1 >= len(query) || query[i+1] != ' ' && query[i+1] != '\n' {
			continue
		}
		if givesAfterColon(query[:i], query[i+1:]) {
			return i + 1
		}
		break // only the first colon of the request's text
	}
	return start
}

// givesAfterColon reports whether the clause ending in before gives
// what follows the colon, after.
func givesAfterColon(before, after string) bool {
	clause := before
	for _, m := range []string{". ", "? ", "! ", "\n"} {
		if i := strings.LastIndex(clause, m); i >= 0 {
			clause = clause[i+len(m):]
		}
	}
	lower := func(s string) []string {
		return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && r != '\'' })
	}
	ws := lower(clause)
	for len(ws) > 0 && politeWords[ws[0]] {
		ws = ws[1:]
	}
	if len(ws) < 2 || requestVerbs[ws[0]] == 0 && !checkVerbs[ws[0]] || runVerbs[ws[0]] {
		return false
	}
	next := lower(after)
	return len(next) > 0 && !questionStarts[next[0]]
}

// payloadTerms returns the terms query says only in its payload; nil
// for most requests.
func payloadTerms(query string) map[string]bool {
	if !strings.ContainsAny(query, ":\n") {
		return nil
	}
	i := payloadStart(query)
	if i < 0 {
		return nil
	}
	outside := map[string]bool{}
	for _, t := range terms(query[:i]) {
		outside[t] = true
	}
	var out map[string]bool
	for _, t := range terms(query[i:]) {
		if !outside[t] {
			if out == nil {
				out = map[string]bool{}
			}
			out[t] = true
		}
	}
	return out
}
