package search

// nameVocab is name coverage's, the name phrases' and the required
// values' view of the tools (see coverage, candidates and required.go):
// each tool's distinguishing name words with their idf and the change
// they say, each name phrase's words and each required value's words,
// numbered once at build, so that scoring a tool the request touches
// looks up no word in a map.
type nameVocab struct {
	// slot numbers every distinct name word: its place in a request's
	// said weights.
	slot map[string]int32
	// change is the change each slot's word says as a name verb
	// (stemIntent), for name phrases said with another verb.
	change []intent
	docs   [][]nameWord
	// all is each tool's summed name-word idf, in name order.
	all []float64
}

type nameWord struct {
	slot   int32
	idf    float64
	intent intent // stemIntent of the word
}

// newNameVocab numbers the name words of every tool, and sets the ids of
// each name phrase and each required value (required.go).
func newNameVocab(names [][]string, phrases map[string][]phrase, required [][]reqValue, idf map[string]float64) nameVocab {
	nw := nameVocab{slot: map[string]int32{}, docs: make([][]nameWord, len(names)), all: make([]float64, len(names))}
	number := func(t string) int32 {
		s, ok := nw.slot[t]
		if !ok {
			s = int32(len(nw.slot))
			nw.slot[t] = s
			nw.change = append(nw.change, stemIntent[t])
		}
		return s
	}
	for d, ts := range names {
		ws := make([]nameWord, len(ts))
		var all float64
		for i, t := range ts {
			ws[i] = nameWord{slot: number(t), idf: idf[t], intent: stemIntent[t]}
			all += ws[i].idf
		}
		nw.docs[d], nw.all[d] = ws, all
	}
	for _, ps := range phrases {
		for i, p := range ps {
			ps[i].ids = make([]int32, len(p.terms))
			for j, t := range p.terms {
				ps[i].ids[j] = number(t)
			}
		}
	}
	for _, ps := range required {
		for i, p := range ps {
			ps[i].ids = make([]int32, len(p.terms))
			for j, t := range p.terms {
				ps[i].ids[j] = number(t)
			}
		}
	}
	return nw
}

// said returns the request's weight of every name word by slot, made
// from q.weight on first use.
func (nw *nameVocab) said(q *analyzed) []float64 {
	if q.said == nil {
		q.said = make([]float64, len(nw.slot))
		for t, w := range q.weight {
			if s, ok := nw.slot[t]; ok {
				// A change verb said unasked names no change
				// (purpose.go).
				if q.unasked[t] {
					w = 0
				}
				q.said[s] = w
			}
		}
	}
	return q.said
}

// says reports whether the request says every name word of ids itself
// (q.terms, not an expansion), by number.
func (nw *nameVocab) says(q *analyzed, ids []int32) bool {
	if q.own == nil {
		q.own = make([]bool, len(nw.slot))
		for _, t := range q.terms {
			if s, ok := nw.slot[t]; ok {
				q.own[s] = true
			}
		}
	}
	own, verb := 0, false
	for _, s := range ids {
		switch {
		case q.own[s]:
			own++
		case !verb && nw.changeSaid(q, s):
			verb = true
		default:
			return false
		}
	}
	// A name verb said in other words completes a phrase whose object
	// the request says in two words or more (namephrase.go).
	return !verb || own >= 2
}

// cover is coverage for tool d, given the request's word weights said
// and the change req it asks for.
func (nw *nameVocab) cover(said []float64, req intent, d int) float64 {
	all := nw.all[d]
	if all == 0 {
		return 0
	}
	var got float64
	for _, t := range nw.docs[d] {
		s := said[t.slot]
		got += t.idf * s
		// A change verb of the name is said, as an expansion is, when
		// the request asks for that change in its own words: "ack
		// alert group X" says the "update" of update_alert_group.
		if s == 0 && req != 0 && req&t.intent != 0 {
			got += t.idf * expandWeight
		}
	}
	return got / all
}
