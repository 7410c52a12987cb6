package search

import (
	"slices"
	"strings"
	"unicode"
)

// Intent matching: near-twin tools of one kind differ mostly in their verb
// (jira_get_sprint_issues, jira_update_sprint, jira_create_sprint), and
// BM25 cannot tell them apart because the object words are the same. The
// request's verb can: "what's in the sprint" asks to read, "start a
// sprint" to create. A request that says no change verb prefers the tools
// that change nothing; one that says a change verb prefers the tools whose
// name says the same kind of change.

// An intent is a set of change classes, one bit each.
type intent uint8

const (
	intentCreate intent = 1 << iota
	intentUpdate
	intentDelete
)

const (
	// readPenalty multiplies the lexical score of a tool whose name says
	// a change when the request says none: asking "what's in the sprint"
	// must not start one.
	readPenalty = 0.55
	// verbBoost multiplies the lexical score of a tool whose name says
	// the change the request asks for.
	verbBoost = 1.4
	// otherChange multiplies the lexical score of a tool whose name says
	// a change of another class than the request asks for.
	otherChange = 0.8
)

// nameVerbs are the verbs tool names use for a change, by class. Names
// are the server's own vocabulary, so the list is of API verbs.
var nameVerbs = map[string]intent{
	"create": intentCreate, "add": intentCreate, "new": intentCreate,
	"post": intentCreate, "fork": intentCreate, "push": intentCreate,
	"upload": intentCreate, "install": intentCreate, "run": intentCreate,
	"publish": intentCreate, "copy": intentCreate,
	"update": intentUpdate, "edit": intentUpdate, "set": intentUpdate,
	"transition": intentUpdate, "assign": intentUpdate, "move": intentUpdate,
	"mark": intentUpdate, "merge": intentUpdate, "approve": intentUpdate,
	"unapprove": intentUpdate, "protect": intentUpdate, "unprotect": intentUpdate,
	"resolve": intentUpdate, "scale": intentUpdate, "manage": intentUpdate,
	"patch": intentUpdate, "exec": intentUpdate, "reply": intentCreate,
	// GitHub's server names one tool per object for creating and
	// updating it: issue_write, pull_request_review_write.
	"write":  intentCreate | intentUpdate,
	"delete": intentDelete, "remove": intentDelete,
	// API verbs of the 2026-12 fixture kinds' domains (secrets, CI,
	// deploys, alerting, databases): English, not any one server's.
	"enable": intentCreate, "mount": intentCreate, "trigger": intentCreate,
	"rerun": intentCreate, "deploy": intentCreate, "insert": intentCreate,
	"send": intentCreate, "invite": intentCreate, "import": intentCreate,
	"execute": intentCreate, "start": intentCreate,
	"snooze": intentUpdate, "acknowledge": intentUpdate, "unacknowledge": intentUpdate,
	"close": intentUpdate, "sync": intentUpdate, "mute": intentUpdate, "unmute": intentUpdate,
	"rollback": intentUpdate, "attach": intentUpdate, "detach": intentUpdate,
	"cancel": intentUpdate, "pause": intentUpdate, "resume": intentUpdate,
	"rotate": intentUpdate, "rename": intentUpdate, "replace": intentUpdate,
	"upgrade": intentUpdate, "reset": intentUpdate, "toggle": intentUpdate,
	"tag":     intentUpdate,
	"disable": intentDelete, "unmount": intentDelete, "revoke": intentDelete,
	"drop": intentDelete, "destroy": intentDelete, "terminate": intentDelete,
	"stop": intentDelete, "expire": intentDelete,
}

// requestVerbs are the words an engineer uses to ask for a change, by
// class. Only base forms count: "who changed the priority" asks about a
// past change (a read of history), "change the priority" asks for one.
// Words that also read ("open the page", "file contents", "log lines")
// are left out.
var requestVerbs = map[string]intent{
	"create": intentCreate, "add": intentCreate, "new": intentCreate,
	"post": intentCreate, "leave": intentCreate, "write": intentCreate,
	"start": intentCreate, "draft": intentCreate, "declare": intentCreate,
	"raise": intentCreate, "cut": intentCreate, "fork": intentCreate,
	"push": intentCreate, "upload": intentCreate, "install": intentCreate,
	"run": intentCreate, "publish": intentCreate, "reply": intentCreate,
	"copy": intentCreate, "link": intentCreate, "comment": intentCreate,
	"update": intentUpdate, "edit": intentUpdate, "change": intentUpdate,
	"modify": intentUpdate, "set": intentUpdate, "rename": intentUpdate,
	"move": intentUpdate, "mark": intentUpdate, "assign": intentUpdate,
	"transition": intentUpdate, "close": intentUpdate, "resolve": intentUpdate,
	"reopen": intentUpdate, "ack": intentUpdate, "acknowledge": intentUpdate,
	"bump": intentUpdate, "scale": intentUpdate, "apply": intentUpdate,
	"patch": intentUpdate, "merge": intentUpdate, "approve": intentUpdate,
	"protect": intentUpdate, "unprotect": intentUpdate, "silence": intentUpdate,
	"mute": intentUpdate, "exec": intentUpdate,
	"delete": intentDelete, "remove": intentDelete, "kill": intentDelete,
	"drop": intentDelete, "rid": intentDelete, "restart": intentDelete, "bounce": intentDelete,
	"purge": intentDelete, "unlink": intentDelete, "nuke": intentDelete, "wipe": intentDelete,
	// Chat-ops verbs: "ship !4102", "flip OPS-412 to done", "hand it
	// over to Priya", "kick off a pipeline".
	"ship": intentUpdate, "land": intentUpdate, "stamp": intentUpdate,
	"flip": intentUpdate, "swap": intentUpdate, "hand": intentUpdate,
	"put": intentUpdate, "lgtm": intentUpdate, "promote": intentUpdate,
	"pause": intentUpdate, "resume": intentUpdate, "cordon": intentUpdate,
	"drain": intentUpdate, "rotate": intentUpdate,
	"wire": intentCreate, "spin": intentCreate, "kick": intentCreate,
	"trigger": intentCreate, "rerun": intentCreate, "retry": intentCreate,
	"store": intentCreate, "enable": intentCreate, "mount": intentCreate,
	"insert": intentCreate, "send": intentCreate, "invite": intentCreate,
	"import": intentCreate, "execute": intentCreate, "deploy": intentCreate,
	"snooze": intentUpdate, "unacknowledge": intentUpdate, "unack": intentUpdate,
	"sync": intentUpdate, "rollback": intentUpdate, "attach": intentUpdate,
	"detach": intentUpdate, "cancel": intentUpdate, "replace": intentUpdate,
	"upgrade": intentUpdate, "reset": intentUpdate, "toggle": intentUpdate,
	"unmute": intentUpdate, "tag": intentUpdate,
	// Everyday verbs of a change that API names spell otherwise:
	// "hook the set up to X", "fire an alert", "submit the drafts",
	// "serve variation B", "jot a note", "quiet the alert". Words that
	// are as often nouns ("queue", "lock", "switch") are left out.
	"hook": intentUpdate, "dismiss": intentUpdate, "unlock": intentUpdate,
	"serve": intentUpdate, "quiet": intentUpdate, "fire": intentCreate,
	"submit": intentCreate, "jot": intentCreate,
	"unmount": intentDelete, "disable": intentDelete, "expire": intentDelete,
	"revoke": intentDelete, "destroy": intentDelete, "terminate": intentDelete,
}

// nameReadVerbs are the verbs tool names use for a read. They matter
// only as the name's first verb: get_merge_request_approval_state reads,
// although "merge" is a change verb elsewhere.
var nameReadVerbs = map[string]bool{
	"get": true, "list": true, "search": true, "fetch": true, "read": true,
	"query": true, "find": true, "check": true, "count": true, "describe": true,
	"validate": true, "verify": true, "download": true, "explain": true,
}

// nameIntent returns the change classes a tool name says. The name's
// first verb decides (later words are mostly its object: the "merge" of
// create_merge_request); "X_or_Y" says both.
func nameIntent(tool string) intent {
	in, _ := nameChange(tool)
	return in
}

// nameChange returns nameIntent(tool) and the verb that says it, lower
// case ("" for a read).
func nameChange(tool string) (intent, string) {
	ws := nameWords(tool)
	for i, w := range ws {
		w = strings.ToLower(w)
		if nameReadVerbs[w] {
			return 0, ""
		}
		in, ok := nameVerbs[w]
		if !ok {
			continue
		}
		for j := i + 1; j+1 < len(ws) && strings.EqualFold(ws[j], "or"); j += 2 {
			in |= nameVerbs[strings.ToLower(ws[j+1])]
		}
		return in, w
	}
	return 0, ""
}

// inflectedOnly returns the stems of the change verbs a request says only
// inflected: "merge requests merged yesterday", "which pods are running",
// "tickets assigned to me" describe what to find; a tool whose name does
// that change (merge_merge_request, pods_run) matches them by stem alone.
func inflectedOnly(query string) map[string]bool {
	ws := strings.FieldsFunc(strings.ToLower(query), func(r rune) bool { return !unicode.IsLetter(r) })
	// Most requests inflect no change verb: spare them the maps.
	if !slices.ContainsFunc(ws, func(w string) bool {
		return (strings.HasSuffix(w, "ed") || strings.HasSuffix(w, "ing")) && changeStems[stem(w)]
	}) {
		return nil
	}
	inflected, base := map[string]bool{}, map[string]bool{}
	for i, w := range ws {
		switch {
		case strings.HasSuffix(w, "ed") || strings.HasSuffix(w, "ing"):
			inflected[stem(w)] = true
		case asked(ws, i):
			// "merge requests merged yesterday" says no merge.
			base[stem(w)] = true
		}
	}
	var out map[string]bool
	for s := range inflected {
		if !base[s] && changeStems[s] {
			if out == nil {
				out = map[string]bool{}
			}
			out[s] = true
		}
	}
	return out
}

// stemIntent maps the stems of nameVerbs to the change they say.
var stemIntent = func() map[string]intent {
	m := map[string]intent{}
	for v, in := range nameVerbs {
		m[stem(v)] |= in
	}
	return m
}()

// changeStems are the stems of nameVerbs.
var changeStems = func() map[string]bool {
	m := map[string]bool{}
	for v := range nameVerbs {
		m[stem(v)] = true
	}
	return m
}()

// requestIntent returns the change classes a request's words say. It
// looks at the words as written, before stemming, so that tense counts.
func requestIntent(query string) intent {
	all, _ := requestIntents(query)
	return all
}

// requestIntents returns the change classes a request's words say, and
// the class of the first change verb: "open a ticket and assign it to me"
// asks to create; the assignment comes after.
func requestIntents(query string) (all, first intent) {
	var in intent
	ws := verbWords(query)
	for i, w := range ws {
		// Each word says its own change; a neighbour may change what
		// that is, never what other words said.
		v := requestVerbs[w]
		next := ""
		if i+1 < len(ws) {
			next = ws[i+1]
		}
		if v != 0 && !asked(ws, i) {
			continue
		}
		switch {
		case w == "set" && next == "up":
			// "set up a group" makes one.
			v = intentCreate
		case (w == "turn" && (next == "on" || next == "off") || w == "roll" && (next == "out" || next == "back")) && asked(ws, i):
			// "turn off the flag", "roll out variation B".
			v = intentUpdate
		case w == "kick" && next != "off":
			// "kick the pod" restarts it; "kick off a pipeline" starts one.
			v = intentDelete
		case (w == "open" || w == "file" || w == "log" || w == "drop") && (next == "a" || next == "an" || next == "new"):
			// "open a ticket" makes one, "open the page" reads it; "file a
			// bug", not "the file"; "drop a note" adds one, "drop the
			// index" deletes.
			v = intentCreate
		case w == "log" && (duration(next) || number(next)):
			// "log 2h on OPS-77" adds a worklog.
			v = intentCreate
		case v == intentUpdate && (next == "a" || next == "an"):
			// A change to a thing the request introduces makes it:
			// "put a marker on the dashboard", "set a silence", "mark
			// a config change" add one; "put the ticket on me" changes
			// one that is there.
			v = intentCreate
		}
		if first == 0 {
			first = v
		}
		in |= v
	}
	return in, first
}

// nounBefore are the words after which a verb form is a noun or a state:
// "the last update", "a restart", "is it set". "a" and "an" are not
// here, because "open a", "file a" and "drop a" are handled as verbs.
var nounBefore = map[string]bool{
	"the": true, "this": true, "that": true, "these": true, "those": true,
	"my": true, "our": true, "your": true, "his": true, "her": true, "their": true,
	"its": true, "latest": true, "last": true, "recent": true, "each": true,
	"every": true, "is": true, "are": true, "was": true, "were": true, "be": true,
	"been": true, "being": true,
}

// speakers are the subjects whose verbs tell what the speaker will do,
// not what is asked: "before I push", "we'll tag the release ourselves".
var speakers = map[string]bool{"i": true, "we": true, "he": true, "she": true, "they": true}

// modals may stand between a speaker and the verb ("I'll write it up",
// "so we can merge"), and so may a few adverbs ("we then merge"); a modal
// before the speaker asks instead ("can we restart it", "can I just
// restart it").
var (
	modals = map[string]bool{
		"ll": true, "will": true, "can": true, "could": true, "would": true,
		"d": true, "should": true, "might": true, "may": true, "must": true,
	}
	adverbs = map[string]bool{"then": true, "just": true, "also": true}
	// ability are the words before "to" that make the verb after it a
	// permission or an ability asked about ("allowed to push").
	ability = map[string]bool{"allowed": true, "able": true, "permitted": true, "authorized": true, "authorised": true}
)

// asked reports whether the change verb ws[i] is asked for. It is not
// when it is part of a noun ("merge request", "the new", "the update"),
// or when its subject is the speaker or someone else ("so I can merge",
// "they push it").
func asked(ws []string, i int) bool {
	w := ws[i]
	if i+1 < len(ws) && (w == "merge" || w == "pull") && strings.HasPrefix(ws[i+1], "request") {
		return false
	}
	if i == 0 {
		return true
	}
	// "I don't want to enable it" (negation.go), "or did someone close
	// it?" (yesnoquestion.go), "which branches start with hotfix/?"
	// (whquestion.go).
	if unsaid(ws, i) {
		return false
	}
	// "-ing" before it makes a noun too: "working set", "rolling update";
	// so does a preposition: "the status of run 42" (verbnoun.go).
	if nounBefore[ws[i-1]] || strings.HasSuffix(ws[i-1], "ing") || prepositions[ws[i-1]] {
		return false
	}
	// "who is allowed to push", "are we able to merge": a question of
	// permission or ability asks who may change, not for the change.
	if i >= 2 && ws[i-1] == "to" && ability[ws[i-2]] {
		return false
	}
	// "hit Escape to close the modal" says what for (purpose.go).
	if purpose(ws, i) {
		return false
	}
	j := i - 1
	for j > 0 && (modals[ws[j]] || adverbs[ws[j]]) {
		j--
	}
	// "who can edit the page", "who merged it", "who still needs to
	// approve it": the verb's subject is the one asked about, so the
	// change is a fact to look up.
	if ws[j] == "who" || whoMust(ws, j) {
		return false
	}
	if !speakers[ws[j]] {
		return true
	}
	// "can we restart it" asks; "we can restart it" tells. A
	// contraction's "ll" or "d" belongs to the word before it.
	// "which regions can I deploy in?" asks for regions (whquestion.go).
	if j > 0 && modals[ws[j-1]] && whObject(ws, j-1) {
		return false
	}
	return j > 0 && modals[ws[j-1]] && ws[j-1] != "ll" && ws[j-1] != "d"
}

// intentFactor is the multiplier for a tool whose name says tool when
// the request says req.
func intentFactor(req, tool intent) float64 {
	switch {
	case tool == 0:
		return 1
	case req == 0:
		return readPenalty
	case req&tool != 0:
		return verbBoost
	}
	// A different change: "leave a comment on the MR" does not merge it.
	return otherChange
}
