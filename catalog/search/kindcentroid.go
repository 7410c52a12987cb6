package search

// The kind signal reads one document per kind (buildKinds). Its tools'
// part is their centroid: each term weighs the mean, over the kind's
// tools, of its weight in each tool. A word says a kind when a large
// share of the kind's tools use it ("index" of a search engine's nine
// tools), not when a large kind has it somewhere among a hundred tools
// ("many" of one update_many tool). A sum, as the documents were
// before, lets every large kind saturate on every everyday word, so the
// kind signal favoured large kinds whatever the request said. This is
// the cluster centroid of cluster-based retrieval.
//
// The kind's own words (its name, its servers' names and their
// instructions) are added whole: they say the kind once, however many
// tools it has.

const (
	// kindBLen is BM25's length normalization over kind documents. A
	// centroid is as long as one average tool of its kind, whatever
	// the kind's size, so the lengths say nothing to normalize.
	kindBLen = 0.0
)

// centroid adds to doc the mean over a kind's tools of their term
// weights, given the kind's summed term weights and its number of tools.
func centroid(doc, sum map[string]float64, tools int) {
	if tools == 0 {
		return
	}
	for t, v := range sum {
		doc[t] += v / float64(tools)
	}
}

// kindFactor is what a tool's score is multiplied by for its kind's share
// of the kind signal (1 for the strongest kind). The share is squared, so
// the kind the request points at stands out from kinds it only brushes
// against: a kind at half the strongest's signal gets a quarter of its
// boost.
func kindFactor(share float64) float64 {
	return 1 + kindBoost*share*share
}
