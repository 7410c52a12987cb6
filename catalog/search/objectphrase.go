package search

import "slices"

// Object phrases. A tool name says a verb and an object, and the object
// is often a compound noun: update_alert_group acts on an alert group,
// get_service_dependencies reads service dependencies. In a compound the
// last word is the thing and the words before it say which kind of
// thing: an alert group is a group, not an alert. A request that says a
// name's object as written ("ack alert group 42") uses its first words
// inside that phrase, so a tool whose own object is one of those words
// acts on another thing: acknowledge_alert acts on an alert, and is not
// asked for, however well its verb matches. Its score is scaled by
// boundMiss. Words the request also says on their own stay free ("the
// alert and its alert group").

// objectPhrase is a tool name's object of two words or more, numbered
// by index.names: its terms, and the slot of its last word (head).
type objectPhrase struct {
	terms []string
	head  int32
}

// objectPhrases returns the name objects of the tools, by first term:
// each tool's distinguishing name words (index.nameTerms) without a
// leading verb, when two or more are left. A phrase several tools share
// is kept once.
func objectPhrases(names [][]string, nw nameVocab) map[string][]objectPhrase {
	out := map[string][]objectPhrase{}
	for _, ts := range names {
		if len(ts) > 0 && (stemIntent[ts[0]] != 0 || readVerb(ts[0])) {
			ts = ts[1:]
		}
		// A head that is a verb ("variable set", "pipeline run") is as
		// often the request's verb: "the variables set on workspace X".
		if len(ts) < 2 || stemIntent[ts[len(ts)-1]] != 0 || readVerb(ts[len(ts)-1]) {
			continue
		}
		p := objectPhrase{terms: ts, head: nw.slot[ts[len(ts)-1]]}
		dup := false
		for _, o := range out[ts[0]] {
			dup = dup || slices.Equal(o.terms, ts)
		}
		if !dup {
			out[ts[0]] = append(out[ts[0]], p)
		}
	}
	return out
}

// boundWords returns, for the name words that the request says only
// inside name objects it says as written, the slots of those objects'
// heads, keyed by term; nil for most requests.
func (ix *index) boundWords(raw []string) map[string][]int32 {
	// Most requests say no object: nothing is allocated for them.
	var found []objectPhrase
	var inside []bool
	for i, t := range raw {
		for _, p := range ix.objects[t] {
			n := len(p.terms)
			if i+n <= len(raw) && slices.Equal(raw[i:i+n], p.terms) {
				if inside == nil {
					inside = make([]bool, len(raw))
				}
				found = append(found, p)
				for j := i; j < i+n-1; j++ {
					inside[j] = true
				}
			}
		}
	}
	if found == nil {
		return nil
	}
	// A word also said on its own is not bound: "the alert and its
	// alert group" asks about an alert too.
	free := map[string]bool{}
	for i, t := range raw {
		if !inside[i] {
			free[t] = true
		}
	}
	var out map[string][]int32
	for _, p := range found {
		for _, m := range p.terms[:len(p.terms)-1] {
			if free[m] {
				continue
			}
			if out == nil {
				out = map[string][]int32{}
			}
			out[m] = append(out[m], p.head)
		}
	}
	return out
}

// boundMiss multiplies the lexical score of a tool whose name's object
// is a word the request binds into another object: acknowledge_alert
// acts on an alert, and "ack alert group 42" asks about a group.
const boundMiss = 0.5

// nameHeads returns each tool's name head: the last word of its name,
// stemmed ("alert" of opsgenie_acknowledge_alert), or "" for a name of
// one word.
func nameHeads(entries []Doc) []string {
	out := make([]string, len(entries))
	for i, e := range entries {
		if ts := terms(e.Tool); len(ts) > 1 {
			out[i] = ts[len(ts)-1]
		}
	}
	return out
}

// headBound reports whether tool d's name head is a word the request
// binds into an object whose head d's name does not say.
func (ix *index) headBound(bound map[string][]int32, d int) bool {
	heads, ok := bound[ix.heads[d]]
	if !ok {
		return false
	}
	return !slices.ContainsFunc(ix.names.docs[d], func(w nameWord) bool { return slices.Contains(heads, w.slot) })
}
