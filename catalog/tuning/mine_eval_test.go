package tuning_test

import (
	"os"
	"slices"
	"testing"

	"github.com/mcpfleet/mcpfleet/catalog"
	"github.com/mcpfleet/mcpfleet/catalog/internal/catalogtest"
	"github.com/mcpfleet/mcpfleet/catalog/tuning"
)

// TestMineEval (MINEEVAL=1) reproduces docs/search.md's figures on mined
// aliases with today's weights:
//   - all queries, then each split, scored with the reviewed aliases
//     and with none (each with and without the reranker), and with the
//     hand-written ones only;
//   - leave-one-split-out over all queries: for each split, aliases mined
//     from the other splits (unreviewed, the hand-written aliases kept)
//     against the hand-written aliases alone, with and without the
//     reranker.
//
// The first runs in docs/search.md were scored with the weights of their day;
// these are today's, so the blind splits' rows differ from them by the
// refits since.
func TestMineEval(t *testing.T) {
	if os.Getenv("MINEEVAL") == "" {
		t.Skip("set MINEEVAL=1 to score mined aliases (about a minute)")
	}
	qs := catalogtest.Queries(t)
	bySplit := map[string][]tuning.Query{}
	for _, q := range qs {
		bySplit[q.Split] = append(bySplit[q.Split], q)
	}
	splits := make([]string, 0, len(bySplit))
	for s := range bySplit {
		splits = append(splits, s)
	}
	slices.Sort(splits)
	ctx := catalog.WithScopes(t.Context(), catalog.ScopeAll)
	fleet := catalogtest.Fleet(t)
	eval := func(cfg catalog.Config, rerank bool, qs []tuning.Query) tuning.Metrics {
		cfg.NoRerank = !rerank
		return tuning.Eval(ctx, catalog.Build(fleet, cfg), qs).Metrics
	}
	bySplit["all"] = qs
	for _, s := range append([]string{"all"}, splits...) {
		r, b := eval(catalogtest.FleetConfig(true), true, bySplit[s]), eval(catalogtest.FleetConfig(true), false, bySplit[s])
		h := eval(catalogtest.HandConfig(), true, bySplit[s])
		n, nb := eval(catalogtest.FleetConfig(false), true, bySplit[s]), eval(catalogtest.FleetConfig(false), false, bySplit[s])
		t.Logf("%-10s reviewed %.3f/%.3f (BM25 alone %.3f/%.3f)  hand only %.3f/%.3f  none %.3f/%.3f (BM25 alone %.3f/%.3f)",
			s, r.RecallAt1, r.RecallAt5, b.RecallAt1, b.RecallAt5, h.RecallAt1, h.RecallAt5,
			n.RecallAt1, n.RecallAt5, nb.RecallAt1, nb.RecallAt5)
	}
	for _, rerank := range []bool{true, false} {
		var base, mined [2]float64
		for _, s := range splits {
			var train []tuning.Query
			for _, q := range qs {
				if q.Split != s {
					train = append(train, q)
				}
			}
			hand := catalogtest.HandConfig()
			m := tuning.MineAliases(catalog.Build(fleet, hand), train, tuning.MineOptions{})
			b, x := eval(hand, rerank, bySplit[s]), eval(tuning.WithAliases(hand, m), rerank, bySplit[s])
			k := float64(len(bySplit[s]))
			base[0] += b.RecallAt1 * k
			base[1] += b.RecallAt5 * k
			mined[0] += x.RecallAt1 * k
			mined[1] += x.RecallAt5 * k
		}
		n := float64(len(qs))
		t.Logf("leave-one-split-out, reranker %v: hand aliases %.3f/%.3f, + mined from the other splits %.3f/%.3f",
			rerank, base[0]/n, base[1]/n, mined[0]/n, mined[1]/n)
	}
}
