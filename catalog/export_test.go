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

// LexiconFiresForTest returns the built-in lexicon entries one of whose
// triggers the query says as written.
func LexiconFiresForTest(query string) []int {
	raw := rawTerms(query)
	var out []int
	for i, e := range builtinLexicon() {
		for _, w := range e.when {
			if containsRun(raw, w) {
				out = append(out, i)
				break
			}
		}
	}
	return out
}

// SkipLexiconForTest rebuilds c's lexicon without the built-in entries
// in skip (the caller's synonyms stay); c must have been built with the
// built-in lexicon. It mutates c: no search may run on c meanwhile.
func (c *Catalog) SkipLexiconForTest(skip map[int]bool) {
	old := c.idx.lexicon
	lx := &lexiconIndex{byFirst: map[string][]trigger{}}
	builtin := builtinLexicon()
	for i, e := range old.entries {
		if i < len(builtin) {
			e = builtin[i]
		}
		if i < len(builtin) && skip[i] {
			// Keep positions: an entry with no trigger never fires.
			e = compiledEntry{add: e.add}
		}
		lx.entries = append(lx.entries, e)
	}
	for i, e := range lx.entries {
		for j, w := range e.when {
			lx.byFirst[w[0]] = append(lx.byFirst[w[0]], trigger{i, j})
		}
	}
	c.idx.lexicon = lx
}
