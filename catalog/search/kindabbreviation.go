package search

import (
	"slices"
	"strings"
)

// A short form said with the name of the kind it belongs to. "<kind>
// app checkout-prod" names a kind whose tools say "application" and
// never "app" but inside a compound ("AppProject"): in that kind's
// requests "app" is the word its tool names spell out. Across the whole
// index "app" begins too many words (a cloud's "App Service", "AppLens")
// to be read as any one of them, and read as "application" everywhere it
// pulls "the app logs" of a search engine to a deployer (docs/search.md,
// "The small kinds' rank-1 misses, by class"). Within the named kind's
// tool names it begins at most a few, and those are what it stands for
// there.
//
// A request word of minAbbrev to maxShort letters stands for the longer
// words of the named kinds' tool names it begins, when there are at most
// maxAbbrev of them and none is a compound of other index words
// ("appproject" is app + project, not "app" spelled out). They are
// weaker alternatives of the word, as abbreviated's are.

// kindNameWords returns, per kind position, the stemmed words of its
// tools' names, sorted and unique.
func kindNameWords(entries []Doc, docKind []int32, nKinds int) [][]string {
	out := make([][]string, nKinds)
	for i, e := range entries {
		k := docKind[i]
		for _, t := range terms(e.Tool) {
			if p, found := slices.BinarySearch(out[k], t); !found {
				out[k] = slices.Insert(out[k], p, t)
			}
		}
	}
	return out
}

// kindAbbreviated returns the words of the named kinds' tool names that
// request term t abbreviates, nil if none or too many.
func (ix *index) kindAbbreviated(t string, named []bool) []string {
	if len(t) < minAbbrev || len(t) > maxShort || !isAlpha(t) {
		return nil
	}
	var out []string
	for k, ok := range named {
		if !ok {
			continue
		}
		ws := ix.kindWords[k]
		i, found := slices.BinarySearch(ws, t)
		if found {
			i++
		}
		for ; i < len(ws) && strings.HasPrefix(ws[i], t); i++ {
			x := ws[i]
			part := func(p string) bool { return p != x && ix.has(p) }
			if !slices.Contains(out, x) && splitWords(x, part) == nil {
				out = append(out, x)
			}
		}
	}
	if len(out) > maxAbbrev {
		return nil
	}
	return out
}

// expandKindAbbreviations adds, to each slot of q whose word abbreviates
// words of the kinds q names, those words as weaker alternatives.
func (ix *index) expandKindAbbreviations(q *analyzed) {
	named := ix.namedKinds(q.query, q.sayTerms())
	if named == nil {
		return
	}
	for i, slot := range q.slots {
		for _, x := range ix.kindAbbreviated(slot[0].t, named) {
			if q.weight[x] == 0 {
				q.weight[x] = expandWeight
				q.slots[i] = append(q.slots[i], alt{x, slot[0].w * expandWeight})
			}
		}
	}
}
