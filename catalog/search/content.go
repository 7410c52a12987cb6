package search

import (
	"strings"
	"unicode"
)

// What a new thing will say. "Open a ticket for the expired cert", "file
// a bug about the checkout 502s", "start a page for yesterday's outage":
// the words after "for" or "about" say what the ticket, bug or page is
// about, its title or its body, not which tool makes it. The thing
// made is said before them. So in a request to create, the words said
// only in such a phrase weigh contextWeight, as the words of a story
// around the ask do (clause.go): a certificate tool is not asked for by
// a ticket about a certificate.

// contentOpeners open what a new thing is about.
var contentOpeners = map[string]bool{"for": true, "about": true, "regarding": true}

// contentEnds end that phrase: a conjunction opens the next ask ("for
// the outage and assign it to me"), and "as", "under", "into" say again
// what is made and where ("for the outage as a new page under Incident
// Reviews").
var contentEnds = map[string]bool{
	"and": true, "then": true, "but": true, "so": true,
	"as": true, "under": true, "into": true,
}

// contentTerms returns the terms a request to create says only in what
// the new thing is about ("for the expired cert"), or nil.
func contentTerms(query string, req intent) map[string]bool {
	if req&intentCreate == 0 {
		return nil
	}
	words := strings.Fields(query)
	var inside, outside []string
	in, made := false, false
	for _, w := range words {
		bare := strings.ToLower(strings.TrimFunc(w, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }))
		switch {
		case !made && (requestVerbs[bare] == intentCreate || createVerbs[bare]):
			// Only after the verb that makes the thing: "the fix for
			// the bug needs a branch" says what the branch is for.
			made = true
		case made && contentOpeners[bare]:
			in = true
			continue
		case contentEnds[bare]:
			in = false
		}
		if in {
			inside = append(inside, w)
		} else {
			outside = append(outside, w)
		}
		// A clause ends at its punctuation.
		if strings.ContainsAny(w[len(w)-1:], ",.;:!?") {
			in = false
		}
	}
	if len(inside) == 0 {
		return nil
	}
	said := map[string]bool{}
	for _, t := range terms(strings.Join(outside, " ")) {
		said[t] = true
	}
	var out map[string]bool
	for _, t := range terms(strings.Join(inside, " ")) {
		if !said[t] {
			if out == nil {
				out = map[string]bool{}
			}
			out[t] = true
		}
	}
	return out
}
