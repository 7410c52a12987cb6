package search

import "strings"

// A change verb said negated. "I don't want to enable a duplicate",
// "do not revert anything", "it won't start until the DB is back": the
// request says what is not to happen, or what did not, and asks for no
// change. A negation counts when only modals, adverbs and the words that
// lead to an asked verb ("want to", "need to") stand between it and the
// verb; "don't just look, restart it" still asks to restart.

// negators are the words that negate the verb after them. verbWords
// splits "don't" into "don" and "t".
var negators = map[string]bool{"not": true, "never": true, "t": true, "dont": true, "cannot": true, "nor": true}

// unsaid reports whether the change verb ws[i] is negated, asked about
// as a fact (yesnoquestion.go), the predicate of a question's subject
// (whquestion.go), or joined to such a verb: "did apply X
// add, change and destroy anything" asks for none of the three.
func unsaid(ws []string, i int) bool {
	if negated(ws, i) || factQuestion(ws, i) || whSubject(ws, i) {
		return true
	}
	k := i - 1
	if k >= 0 && (ws[k] == "and" || ws[k] == "or" || ws[k] == "nor") {
		k--
	}
	return k >= 0 && requestVerbs[ws[k]] != 0 && unsaid(ws, k)
}

// negated reports whether the change verb ws[i] is negated.
func negated(ws []string, i int) bool {
	for j := i - 1; j >= 0 && j >= i-4; j-- {
		w := ws[j]
		switch {
		case negators[w]:
			// "t" is a negation after "don", "can", "won" and the like.
			return w != "t" || j > 0 && strings.HasSuffix(ws[j-1], "n")
		case w == "to" || modals[w] || adverbs[w] || purposeAsks[w] && w != "you" && w != "please":
			continue
		default:
			return false
		}
	}
	return false
}

// mayNegate reports whether lower (a request in lower case) has a word
// that negation.go or yesnoquestion.go reads: most requests have none.
func mayNegate(lower string) bool {
	for _, w := range []string{"not", "n't", "n’t", "never", "dont", "nor", "did", "does"} {
		if strings.Contains(lower, w) {
			return true
		}
	}
	return false
}
