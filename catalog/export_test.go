package catalog

// LexiconEntryForTest is a built-in lexicon entry as analyzed.
type LexiconEntryForTest struct {
	When [][]string
	Add  []string
}

// LexiconForTest exposes the analyzed built-in lexicon to lint it.
func LexiconForTest() []LexiconEntryForTest {
	var out []LexiconEntryForTest
	for _, e := range builtinLexicon() {
		out = append(out, LexiconEntryForTest{When: e.when, Add: e.add})
	}
	return out
}

// HashChannelForTest exposes the #channel sigil check.
func HashChannelForTest(q string) bool { return hashChannel(q) }

// RerankSampleForTest returns the reranker's features for query's BM25
// candidates, best BM25 first, with their "kind:tool" keys.
func (c *Catalog) RerankSampleForTest(query string) (feats [][]float64, keys []string) {
	ix := c.idx
	q := ix.analyze(query)
	req, main := requestIntents(query)
	cands := ix.candidates(q, req, func(int) bool { return true }, rerankDepth)
	fq := ix.featureQuery(q, query, req, main, cands)
	for _, cd := range cands {
		f := ix.features(fq, cd)
		feats = append(feats, f[:])
		e := c.entries[cd.doc]
		keys = append(keys, e.Kind+":"+e.Tool)
	}
	return feats, keys
}

// RerankWeightsForTest returns the committed weights and feature names.
func RerankWeightsForTest() (w []float64, names []string) {
	return rerankWeights[:], featureNames[:]
}

// SetRerankWeightsForTest replaces c's reranker weights; nil turns the
// reranker off.
func (c *Catalog) SetRerankWeightsForTest(w []float64) {
	if w == nil {
		c.idx.weights = nil
		return
	}
	var f features
	copy(f[:], w)
	c.idx.weights = &f
}
