package search

import (
	"strings"
	"unicode"
)

// A change asked for in general words. "change the helm values file of
// the app", "set the viewport to 375x812": the request asks to change
// something and says nothing of how; a tool whose name says a change of
// its own (sync_application, browser_close, merge_merge_request) does
// a particular change of the same class, which the request did not ask
// for. Such a tool scores as one doing another change (otherChange), and
// its verb is not said in other words (cover); tools named with the
// general verbs (update_application, edit_page, set_labels) keep the
// boost.

// genericVerbs are the verbs that ask for, or name, a change in general.
var genericVerbs = map[string]bool{
	"update": true, "edit": true, "change": true, "modify": true, "set": true,
	"patch": true, "manage": true, "write": true, "alter": true, "adjust": true,
}

// imperativeBefore are the words after which a verb is an imperative
// ("please update", "can you change", "I want to set").
var imperativeBefore = map[string]bool{
	"please": true, "pls": true, "you": true, "just": true, "then": true, "and": true, "to": true, "also": true,
}

// genericChange reports whether every update the request asks for is
// said with a general verb, and it asks for one.
func genericChange(query string) bool {
	ws := strings.FieldsFunc(strings.ToLower(query), func(r rune) bool { return !unicode.IsLetter(r) })
	generic := false
	for i, w := range ws {
		if requestVerbs[w]&intentUpdate == 0 || !asked(ws, i) {
			continue
		}
		next := ""
		if i+1 < len(ws) {
			next = ws[i+1]
		}
		if next == "a" || next == "an" || w == "set" && next == "up" {
			continue // requestIntents reads these as making a thing
		}
		if !genericVerbs[w] {
			return false
		}
		// "the configmap change", "a policy set": said after a noun the
		// word may be one; only a verb said as an imperative counts.
		generic = generic || i == 0 || imperativeBefore[ws[i-1]]
	}
	return generic
}

// particularChange reports whether tool d's name says an update of its
// own, not in general words.
func (ix *index) particularChange(d int) bool {
	c := ix.docChange[d]
	return c != "" && ix.docIntent[d]&intentUpdate != 0 && !genericStems[c]
}

// genericStems are the stems of genericVerbs.
var genericStems = func() map[string]bool {
	m := map[string]bool{}
	for v := range genericVerbs {
		m[stem(v)] = true
	}
	return m
}()
