// Package tuning is the catalog's offline work: it measures search on
// labelled requests, fits the reranker, mines aliases, lints catalog
// lines and reads telemetry logs back into a report. Only the command
// line (mcpfleet eval-search, fit-search, mine-aliases, search-report)
// and tests import it; nothing here runs while an agent searches.
//
// # Measuring
//
// [ReadQueries] reads labelled requests (JSON Lines of {"q", "expect"});
// [Eval] runs them through catalog.Catalog.Search and reports recall@1,
// recall@3, recall@5 and nDCG@5, overall and per split.
//
// # Fitting
//
// [FitRerank] fits the reranker's weights to a fleet's requests by
// pairwise logistic regression; [RerankSampleOf] and [FitSamples] do the
// same in two steps, so that one fit can mix catalogs or leave kinds out.
// catalog.Config.RerankWeights puts a fit to use.
//
// # Mining and linting
//
// [MineAliases] proposes aliases from requests the search misses, and
// [WithAliases] adds them to a catalog.Config. [Lint] lists tools with no
// hand-written line and lines that collide.
//
// # Telemetry
//
// [ReadLog] parses a log written by catalog.JSONLRecorder and
// [AnalyzeLog] turns it into a [SearchReport].
package tuning
