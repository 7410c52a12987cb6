package search

import "strings"

// Running a query reads. A tool named for running something is a change
// (run_pipeline starts a pipeline, pods_exec runs a command in a pod),
// except when what it runs is a question put to a store: execute_query,
// run_search and run_report answer and change nothing. A request that
// says no change verb ("5xx rate on checkout right now?") asks for
// exactly what they do, so they must not score down as changes.

// runVerbs are the name verbs that say "run this": their object decides
// whether the tool changes anything.
var runVerbs = map[string]bool{"execute": true, "run": true}

// questionNouns are the software words for a question put to a store:
// running one reads.
var questionNouns = map[string]bool{
	"query": true, "queries": true, "search": true, "searches": true,
	"report": true, "lookup": true, "sql": true,
}

// runsQuestion reports whether name words ws say a run verb at i whose
// object is a question: "execute_query", "run_range_query".
func runsQuestion(ws []string, i int) bool {
	if !runVerbs[strings.ToLower(ws[i])] {
		return false
	}
	// The object is the rest of the name; a question among it is what
	// is run.
	for _, w := range ws[i+1:] {
		if questionNouns[strings.ToLower(w)] {
			return true
		}
	}
	return false
}
