package search

import "slices"

// Which words name a kind (see index.nameKinds), two limits.
//
// Most tools of a paging server may be named opsgenie_…_alert, so
// "alert" is one of the words its tools share, and until now it named
// that kind: "ack alert group 42" doubled every tool of it. Other kinds
// name their tools for alerts too (getAlerts, list_alert_groups): there
// the word is the domain's object, not one server's name. So a word
// that names a kind only because most of its tools share it names none
// when a tool of another kind is named with it. A kind's own name and
// its servers' names still name it.
//
// And a kind's name said only inside an identifier or a quote names
// nothing: "save it to trace.json" is about a file, "by:{k8s.pod.name}"
// about a field of a query.

// dropObjectNames removes from ix.kindNames the words that name a kind
// only as its tools' shared name word (common) when a tool name of
// another kind says them too. nameFields are each document's name
// field terms (compound parts included).
func (ix *index) dropObjectNames(entries []Doc, common map[string]map[string]bool, nameFields [][]string) {
	kindOf := make([]string, ix.nKinds)
	for d, e := range entries {
		kindOf[ix.docKind[d]] = e.Kind
	}
	users := map[string]map[int32]bool{}
	for d, ts := range nameFields {
		for _, t := range ts {
			if _, ok := ix.kindNames[t]; !ok {
				continue
			}
			if users[t] == nil {
				users[t] = map[int32]bool{}
			}
			users[t][ix.docKind[d]] = true
		}
	}
	for t, k := range ix.kindNames {
		if !common[kindOf[k]][t] || slices.Contains(terms(kindOf[k]), t) {
			continue
		}
		for u := range users[t] {
			if u != k {
				delete(ix.kindNames, t)
				break
			}
		}
	}
}

// nameFields returns each document's name field terms.
func nameFields(docs [][]field) [][]string {
	out := make([][]string, len(docs))
	for i, fs := range docs {
		out[i] = fs[0].terms
	}
	return out
}

// sayTerms returns q's terms that it says outside identifiers and
// quotes: the words that may name a kind.
func (q *analyzed) sayTerms() []string {
	if q.ident == nil {
		return q.terms
	}
	out := make([]string, 0, len(q.terms))
	for _, t := range q.terms {
		if !q.ident[t] {
			out = append(out, t)
		}
	}
	return out
}
