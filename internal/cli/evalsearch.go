package cli

import (
	"context"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/mcpfleet/mcpfleet/catalog"
	"github.com/mcpfleet/mcpfleet/catalog/tuning"
)

func runEvalSearch(ctx context.Context, env []string, stdin io.Reader, stdout, stderr io.Writer, args []string) error {
	fs, c := newFlagSet("eval-search", "--config FILE --queries FILE [--scopes read,write] [--json] [--k 5]", env, stderr)
	asJSON := fs.Bool("json", false, "print the figures and the misses as JSON")
	queries := fs.String("queries", "", "JSON Lines `file` of {\"q\", \"expect\": [\"kind:tool\"]} (- reads stdin)")
	k := fs.Int("k", 5, "hits shown per miss in text output (the figures always score the top 5)")
	scopes := fs.String("scopes", "", "comma-separated `scopes` to search as (default: all)")
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageErrorf("eval-search takes no arguments, got %q", fs.Args())
	}
	if *queries == "" {
		return usageErrorf("eval-search needs --queries FILE")
	}
	if *k < 1 {
		return usageErrorf("--k must be at least 1, got %d", *k)
	}
	qs, mx, err := labelledFleet(ctx, c, *queries, stdin, stderr)
	if err != nil {
		return err
	}
	defer mx.Close()
	cat, err := searchCatalog(mx, c, stderr)
	if err != nil {
		return err
	}
	res := tuning.Eval(catalog.WithScopes(ctx, scopesOf(*scopes)...), cat, qs)
	return emit(stdout, *asJSON, res, func(w io.Writer) { writeEval(w, res, *k) })
}

func writeEval(w io.Writer, r tuning.EvalResult, k int) {
	metrics := func(name string, m tuning.Metrics) {
		fmt.Fprintf(w, "%-8s %4d queries  recall@1 %.3f  recall@3 %.3f  recall@5 %.3f  nDCG@5 %.3f\n",
			name, m.Queries, m.RecallAt1, m.RecallAt3, m.RecallAt5, m.NDCGAt5)
	}
	metrics("all", r.Metrics)
	splits := make([]string, 0, len(r.Splits))
	for s := range r.Splits {
		splits = append(splits, s)
	}
	sort.Strings(splits)
	for _, s := range splits {
		metrics(s, r.Splits[s])
	}
	if len(r.Misses) == 0 {
		return
	}
	fmt.Fprintf(w, "\n%d misses (first hit not expected):\n", len(r.Misses))
	for _, m := range r.Misses {
		rank := "not in top 5"
		if m.Rank > 0 {
			rank = fmt.Sprintf("rank %d", m.Rank)
		}
		got := m.Got[:min(k, len(m.Got))]
		fmt.Fprintf(w, "- %q: want %s, %s; got %s\n", m.Query, strings.Join(m.Expected, " | "), rank, strings.Join(got, ", "))
	}
}
