package search

// A change asked for in general words. "change the helm values file of
// the app", "set the viewport to 375x812", "create a notebook with the
// queries we used": the request asks to change or make something and
// says nothing of how; a tool whose name says a change of its own
// (sync_application, browser_close, execute_query) does a particular
// change of the same class, which the request did not ask for. Such a
// tool scores as one doing another change (otherChange), and its verb
// is not said in other words (cover); tools named with the general verbs
// (update_application, edit_page, create_notebook) keep the boost.
//
// Deleting is left out: "remove the unused index" asks for drop_index,
// whose verb is particular only in spelling (docs/search.md).

// genericVerbs are the verbs that ask for, or name, a change in general.
var genericVerbs = map[string]bool{
	"update": true, "edit": true, "change": true, "modify": true, "set": true,
	"patch": true, "manage": true, "write": true, "alter": true, "adjust": true,
	"create": true, "add": true, "new": true, "make": true, "post": true, "insert": true,
}

// imperativeBefore are the words after which a verb is an imperative
// ("please update", "can you change", "I want to set").
var imperativeBefore = map[string]bool{
	"please": true, "pls": true, "you": true, "just": true, "then": true, "and": true, "to": true, "also": true,
}

// genericChanges returns the change classes the request asks for only
// in general words, each said as an imperative.
func genericChanges(query string) intent {
	ws := verbWords(query)
	var generic, particular intent
	for i, w := range ws {
		v := requestVerbs[w]
		if v == 0 || !asked(ws, i) {
			continue
		}
		next := ""
		if i+1 < len(ws) {
			next = ws[i+1]
		}
		if w == "set" && next == "up" || v == intentUpdate && (next == "a" || next == "an") {
			v = intentCreate // as requestIntents reads them
		}
		switch {
		case !genericVerbs[w]:
			particular |= v
		case i == 0 || imperativeBefore[ws[i-1]]:
			// "the configmap change", "a policy set": said after a
			// noun the word may be one.
			generic |= v
		}
	}
	return generic &^ particular
}

// particularChange reports whether tool d's name says a change of its
// own, not in general words.
func (ix *index) particularChange(d int) bool {
	c := ix.docChange[d]
	return c != "" && !genericStems[c]
}

// genericStems are the stems of genericVerbs.
var genericStems = func() map[string]bool {
	m := map[string]bool{}
	for v := range genericVerbs {
		m[stem(v)] = true
	}
	return m
}()
