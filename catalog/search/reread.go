package search

import (
	"slices"
	"strings"
	"unicode"
)

// Verbs that say "create" in other words. "Open a ticket", "file a bug",
// "log a bug" and "drop a note" make a new thing (intent.go reads them
// so), and the verb's own word means something else where tools use it:
// "open" is the state of an issue or a page to view, "file" a thing on
// disk, "log" lines, "drop" a deletion. Said so, the word is the
// request's verb, "create", and not a word of what it is about: a tool
// that names open issues or uploads files is not asked for.

// createVerbs are the words intent.go reads as "create" before "a",
// "an" or "new".
var createVerbs = map[string]bool{"open": true, "file": true, "log": true, "drop": true}

// createStems are createVerbs' terms: "opened" and "files" say the
// words otherwise.
var createStems = map[string]bool{stem("open"): true, stem("file"): true, stem("log"): true, stem("drop"): true}

// createTerm and addTerm are the terms the request's verb stands for:
// tools that make a thing say "create" or "add" ("add a comment").
var createTerm, addTerm = stem("create"), stem("add")

// readAsCreate replaces, in q, the terms of the words said only as
// "create" (createReads) with "create".
func readAsCreate(q *analyzed) {
	reread := createReads(q.query)
	if reread == nil {
		return
	}
	for i, slot := range q.slots {
		if reread[slot[0].t] {
			q.slots[i] = []alt{{createTerm, slot[0].w}, {addTerm, slot[0].w}}
			delete(q.weight, slot[0].t)
		}
	}
	q.weight[createTerm], q.weight[addTerm] = 1, 1
	var ts []string
	for _, t := range q.terms {
		if !reread[t] {
			ts = append(ts, t)
		}
	}
	for _, t := range []string{createTerm, addTerm} {
		if i, found := slices.BinarySearch(ts, t); !found {
			ts = slices.Insert(ts, i, t)
		}
	}
	q.terms = ts
}

// createReads returns the terms of the words that the request says only
// as "create" ("open a ticket"), or nil: a word it also says otherwise
// ("open a ticket for the open incidents") keeps its meaning.
func createReads(query string) map[string]bool {
	ws := strings.FieldsFunc(strings.ToLower(query), func(r rune) bool {
		return !unicode.IsLetter(r)
	})
	var reread, plain map[string]bool
	for i, w := range ws {
		t := stem(w)
		if !createStems[t] {
			continue
		}
		next := ""
		if i+1 < len(ws) {
			next = ws[i+1]
		}
		if createVerbs[w] && (next == "a" || next == "an" || next == "new") && asked(ws, i) {
			if reread == nil {
				reread = map[string]bool{}
			}
			reread[t] = true
			continue
		}
		if plain == nil {
			plain = map[string]bool{}
		}
		plain[t] = true
	}
	for t := range plain {
		delete(reread, t)
	}
	if len(reread) == 0 {
		return nil
	}
	return reread
}
