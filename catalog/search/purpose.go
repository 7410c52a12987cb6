package search

import "strings"

// A verb said as a purpose. "hit Escape on the keyboard to close the
// modal", "the az cli command to enable diagnostic settings": the verb
// after "to" says what the asked-for thing is for; the request asks to
// press a key and for a command, not to close or enable anything. The
// words before "to" tell a purpose from an ask: "I want to close it",
// "I need you to push it", "we agreed to change the page" ask for the
// change. Such a verb asks for no change (asked), and said nowhere else
// its word weighs contextWeight, as a story's words do.

// purposeAsks are the words before "to" that make the verb after it the
// one asked for.
var purposeAsks = map[string]bool{
	"need": true, "needs": true, "want": true, "wants": true, "wanted": true,
	"you": true, "agreed": true, "has": true, "have": true, "had": true, "going": true, "gonna": true,
	"trying": true, "try": true, "like": true, "wanna": true, "please": true, "decided": true, "time": true,
}

// purpose reports whether the word ws[i] follows "to" as a purpose. A
// permission ("allowed to push") is no purpose: its verb is what the
// request asks about.
func purpose(ws []string, i int) bool {
	return i >= 2 && ws[i-1] == "to" && !purposeAsks[ws[i-2]] && !ability[ws[i-2]]
}

// purposeTerms returns the stems of the change verbs query says only as
// purposes, negated or in a question of fact (unsaid); nil for most
// requests. Such a verb names no tool either: its word neither says a
// tool name in full nor covers one (index.go, namecover.go).
func purposeTerms(query string) map[string]bool {
	lower := strings.ToLower(query)
	if !strings.Contains(lower, " to ") && !mayNegate(lower) {
		return nil
	}
	ws := verbWords(query)
	var out map[string]bool
	other := map[string]bool{}
	for i, w := range ws {
		if requestVerbs[w] == 0 {
			continue
		}
		// A negated verb and one in a question of fact are said as
		// little (negation.go, yesnoquestion.go).
		if !purpose(ws, i) && !unsaid(ws, i) {
			other[stem(w)] = true
			continue
		}
		if out == nil {
			out = map[string]bool{}
		}
		out[stem(w)] = true
	}
	for t := range out {
		if other[t] {
			delete(out, t)
		}
	}
	return out
}
