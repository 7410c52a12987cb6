package search

import "strings"

// A pasted piped query. Log and event query languages chain stages with
// "|": "fetch logs | filter loglevel == \"ERROR\" | summarize count()",
// "source=app-logs | where status >= 500 | stats count() by host". A
// request that pastes one asks about it ("check this query for syntax
// errors:", "what does this do?"); the stages' words are the query's
// (its source, fields and commands), not the request's: "fetch logs"
// there asks for no logs. Words said only inside the pasted query weigh
// identWeight, as an identifier's do.
//
// The query's first stage begins after the last colon, question mark,
// full stop or dash (each followed by a space) before the first " | ";
// it ends at a dash after its last stage ("… | limit 20 — execute
// that") or with the request. A query with no such mark before it is
// not told from prose, and nothing is read as pasted.

// pipedTerms returns the terms query says only inside a pasted piped
// query; nil for most requests.
func pipedTerms(query string) map[string]bool {
	bar := strings.Index(query, " | ")
	if bar < 0 {
		return nil
	}
	start := -1
	for _, m := range []string{": ", "? ", ". ", "— ", " - "} {
		if i := strings.LastIndex(query[:bar], m); i >= 0 {
			start = max(start, i+len(m))
		}
	}
	if start < 0 {
		return nil
	}
	end := len(query)
	last := strings.LastIndex(query, " | ")
	for _, m := range []string{" — ", " - "} {
		if i := strings.Index(query[last:], m); i >= 0 {
			end = min(end, last+i)
		}
	}
	prose, piped := query[:start]+" "+query[end:], query[start:end]
	outside := map[string]bool{}
	for _, t := range terms(prose) {
		outside[t] = true
	}
	var out map[string]bool
	for _, t := range terms(piped) {
		if !outside[t] {
			if out == nil {
				out = map[string]bool{}
			}
			out[t] = true
		}
	}
	return out
}
