package catalog

import "context"

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

// RerankSample is one query's reranker input, as FitRerank builds it.
type RerankSample = rerankSample

// RerankSampleOf builds q's sample over c, as FitRerank does.
func (c *Catalog) RerankSampleOf(q Query) RerankSample { return c.rerankSample(q) }

// FitSamplesForTest is FitRerank's optimiser over samples already built,
// so that one fit can mix catalogs (with aliases and without) and leave
// splits out.
func FitSamplesForTest(ctx context.Context, samples []RerankSample, opt FitOptions) ([]float64, error) {
	return fitSamples(ctx, samples, opt)
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
