package catalog

import "github.com/mcpfleet/mcpfleet/catalog/search"

// SetRerankWeightsForTest rebuilds c's index with reranker weights w, in
// the order of search.RerankFeatures; nil turns the reranker off.
func (c *Catalog) SetRerankWeightsForTest(w []float64) {
	opt := c.searchOpt
	opt.NoRerank = w == nil
	opt.RerankWeights = nil
	if w != nil {
		opt.RerankWeights = search.NewRerankWeights(w)
	}
	c.idx = search.New(docsOf(c.entries), opt)
}
