package search

import "strings"

// A change verb in a question about its object. "which regions can I
// deploy an Atlas cluster in?", "what branches can we push to?": the
// request asks which things allow the change, not for the change. A
// question that opens with "which" or "what" and a noun before the modal
// ("which regions can I …") asks for those things; "what can I restart"
// or "can we restart it" ask for the change itself.

// whObject reports whether the modal ws[m] closes a question opening
// with "which" or "what" and at least one word more: "which regions can".
func whObject(ws []string, m int) bool {
	return m >= 2 && (ws[0] == "which" || ws[0] == "what")
}

// A change verb as the predicate of a question's subject. "which
// branches start with hotfix/?", "which policy sets apply to workspace
// X?", "what image tag is it on?": after "which" or "what" and the nouns
// of the subject, the verb says what the things asked about do. Between
// the question word and the verb stand only words that are no modal, no
// auxiliary, no pronoun and no past form ("what happened, restart it"
// asks to restart: the words carry no punctuation).

// clauseBreakers are the words that end a question's subject.
var clauseBreakers = map[string]bool{
	"do": true, "does": true, "did": true, "you": true, "i": true, "we": true, "they": true,
	"please": true, "and": true, "or": true, "then": true, "so": true, "if": true, "it": true,
}

// whSubject reports whether the change verb ws[i] follows "which" or
// "what" (the request's first word, or the first after "and", "or" or
// "but") and at most four words of its subject.
func whSubject(ws []string, i int) bool {
	for k := i - 2; k >= 0 && k >= i-5; k-- {
		w := ws[k]
		if w != "which" && w != "what" {
			continue
		}
		// The question opens the request or a clause joined to it:
		// "who approves it, and which rules apply?"
		if k > 0 && ws[k-1] != "and" && ws[k-1] != "or" && ws[k-1] != "but" {
			return false
		}
		for _, w := range ws[k+1 : i] {
			if clauseBreakers[w] || modals[w] || speakers[w] || strings.HasSuffix(w, "ed") || requestVerbs[w] != 0 {
				return false
			}
		}
		return true
	}
	return false
}

// obligations are the words before "to" that say who must or wants to
// do the verb after it: "who still needs to approve !311?".
var obligations = map[string]bool{
	"need": true, "needs": true, "has": true, "have": true, "want": true, "wants": true,
	"ought": true, "got": true, "still": true, "yet": true,
}

// whoMust reports whether ws[j] is the "to" of "who [still] needs to":
// the verb's subject is the one asked about.
func whoMust(ws []string, j int) bool {
	if ws[j] != "to" {
		return false
	}
	k := j - 1
	for k > 0 && (obligations[ws[k]] || adverbs[ws[k]]) {
		k--
	}
	return k < j-1 && ws[k] == "who"
}
