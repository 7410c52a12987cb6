package search

import (
	"slices"
	"strings"
)

// Undoing. APIs name the undoing of a change with "un": unacknowledge,
// unprotect, unmount. Requests say it in other words ("undo the
// acknowledge", "remove my acknowledgment", "lift the protection") or
// with an un- word no tool has ("unmount the old engine" where the
// tool is delete_mount). Three rules, each checked against the index's
// own vocabulary, meet them, and a request that undoes so asks for an
// update, though it says no change verb (undoes):
//
//   - a verb of undoing before a thing says "un" + that thing, when
//     some tool has that word: "lift the protection" says unprotect;
//   - "take … back" is such a verb: "take my approval back" says
//     unapprove;
//   - an un- word no tool has also says the word it negates, when some
//     tool has that: "unmount" says mount.

// undoVerbs are the English verbs that undo what their object did;
// "take … back" is one too (takeBack).
var undoVerbs = map[string]bool{
	"undo": true, "revert": true, "reverse": true, "remove": true,
	"lift": true, "retract": true, "withdraw": true,
}

// undoTerms returns the "un" words the request says in other words,
// and the words its un- words negate, each with the request term whose
// alternative it is.
func (ix *index) undoTerms(query string, own map[string]float64) []joined {
	ws := lowerWords(query)
	var out []joined
	add := func(t, first string) {
		if ix.has(t) && own[t] != 1 {
			out = append(out, joined{t, first})
		}
	}
	for i, w := range ws {
		if strings.HasPrefix(w, "un") && len(w) > 4 && !ix.has(stem(w)) {
			add(stem(w[2:]), stem(w))
		}
		if !undoVerbs[w] && !takeBack(ws, i) {
			continue
		}
		// The thing undone: the first word after the verb that is not
		// a function word ("remove my acknowledgment").
		for _, x := range ws[i+1 : min(len(ws), i+4)] {
			if stopwords[x] || x == "his" || x == "her" || x == "their" {
				continue
			}
			first := stem(x)
			add(stem("un"+x), first)
			// The stemmer strips one suffix: "acknowledgement" undone
			// is unacknowledge only once its stem is stemmed again.
			add(stem("un"+first), first)
			// "protection" undone is unprotect.
			if base, ok := strings.CutSuffix(x, "ion"); ok {
				add(stem("un"+base), first)
			}
			break
		}
	}
	return out
}

// takeBack reports whether ws[i] is the "take" of "take … back" with an
// object of at most three words between: "take my approval back".
func takeBack(ws []string, i int) bool {
	if ws[i] != "take" {
		return false
	}
	for _, x := range ws[i+2 : min(len(ws), i+5)] {
		if x == "back" {
			return true
		}
	}
	return false
}

// undoes reports whether the request undoes something in other words
// that some tool's un- word names: it asks for that change, an update,
// though it says no change verb ("undo the acknowledgement", "take my
// approval back").
func (ix *index) undoes(query string) bool {
	ws := lowerWords(query)
	return slices.ContainsFunc(ws, func(w string) bool { return undoVerbs[w] || w == "take" }) && len(ix.undoTerms(query, nil)) > 0
}
