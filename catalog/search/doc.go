// Package search ranks tools for a request: the catalog's search engine.
// It knows no server and no kind by name; everything it knows of a fleet
// comes in through the [Doc] values given to [New]. What it carries of
// its own is language-general: tokenization (camelCase, run-together
// names split against the index's own vocabulary), stemming, English
// function words, field weights, a small lexicon and the reranker's
// fitted weights.
//
// # Usage
//
//	ix := search.New(docs, search.Options{})
//	for _, r := range ix.Search(ctx, "who am i", allowAll, 5) {
//		fmt.Println(docs[r.Doc].Tool, r.Score)
//	}
//
// [Index.Search] is BM25F over the documents' fields, a second BM25 over
// one document per kind (the kind signal), the lexicon's and structural
// cues' expansions, and a linear reranker over BM25's best 30 ([Depth]).
// With an [Embedder], embedding similarity is fused in by reciprocal rank
// fusion; the endpoint never stalls a search (see [Options] and
// catalog.Config). [Index.Features] exposes the reranker's inputs so that
// catalog/tuning can fit [RerankWeights].
//
// How the ranking works in detail, its constants and how they were fitted
// are in docs/search.md.
package search
