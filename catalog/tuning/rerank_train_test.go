package tuning_test

import (
	"fmt"
	"maps"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/mcpfleet/mcpfleet/catalog"
	"github.com/mcpfleet/mcpfleet/catalog/internal/catalogtest"
	"github.com/mcpfleet/mcpfleet/catalog/search"
	"github.com/mcpfleet/mcpfleet/catalog/tuning"
)

// sample is one query's reranker input with where it came from.
type sample struct {
	tuning.RerankSample
	split string
	bare  bool // built without aliases
}

func rerankSamples(c *catalog.Catalog, qs []tuning.Query) []sample {
	var out []sample
	for _, q := range qs {
		out = append(out, sample{RerankSample: tuning.RerankSampleOf(c, q), split: q.Split})
	}
	return out
}

// rankOf returns the 1-based rank of the first right candidate under w, 0
// if none is among them. Ties go to the earlier (better BM25) candidate.
func rankOf(s sample, w []float64) int {
	type c struct {
		i     int
		score float64
	}
	cs := make([]c, len(s.Feats))
	for i, f := range s.Feats {
		for j := range w {
			cs[i].score += w[j] * f[j]
		}
		cs[i].i = i
	}
	slices.SortStableFunc(cs, func(a, b c) int {
		switch {
		case a.score > b.score:
			return -1
		case a.score < b.score:
			return 1
		}
		return 0
	})
	for r, x := range cs {
		if s.Pos[x.i] {
			return r + 1
		}
	}
	return 0
}

func recalls(samples []sample, w []float64) (r1, r5 float64) {
	for _, s := range samples {
		r := rankOf(s, w)
		if r == 1 {
			r1++
		}
		if r >= 1 && r <= 5 {
			r5++
		}
	}
	n := float64(max(len(samples), 1))
	return r1 / n, r5 / n
}

// blind are the splits no tuning has seen yet; training never reads them.
var blind = map[string]bool{}

// TestRerankTrain fits the reranker's weights (TRAIN=1) and reports
// leave-one-split-out figures: each seen split scored by weights fitted
// on the others. TRAIN_FINAL=1 skips those and prints the weights only.
func TestRerankTrain(t *testing.T) {
	if os.Getenv("TRAIN") == "" {
		t.Skip("set TRAIN=1 to fit the reranker weights")
	}
	var seen []tuning.Query
	for _, q := range catalogtest.Queries(t) {
		if !blind[q.Split] {
			seen = append(seen, q)
		}
	}
	// Both configurations train it: the operator's aliases, and none, as
	// a fleet starts out.
	samples := rerankSamples(catalogtest.BuildFleet(t), seen)
	for _, s := range rerankSamples(catalog.Build(catalogtest.Fleet(t), catalogtest.FleetConfig(false)), seen) {
		s.bare = true
		samples = append(samples, s)
	}
	names := search.RerankFeatures()
	nf := len(names)
	// The defaults are FitRerank's, which the built-in weights were fitted with.
	l2, steps := envFloat("L2", tuning.DefaultFitL2), int(envFloat("STEPS", tuning.DefaultFitSteps))
	base := make([]float64, nf)
	base[0] = 1
	splits := map[string]bool{}
	for _, s := range samples {
		splits[s.split] = true
	}
	// Each split's fit is independent: fit them side by side, and the
	// final one with them.
	splitNames := slices.Sorted(maps.Keys(splits))
	if os.Getenv("TRAIN_FINAL") != "" {
		// Only the final fit, on every split: the weights, quickly.
		splitNames = nil
	}
	ws := make([][]float64, len(splitNames)+1)
	var wg sync.WaitGroup
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	for i := range ws {
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			var train []tuning.RerankSample
			for _, s := range samples {
				if i == len(splitNames) || s.split != splitNames[i] {
					train = append(train, s.RerankSample)
				}
			}
			w, err := tuning.FitSamples(t.Context(), train, tuning.FitOptions{L2: l2, Steps: steps})
			if err != nil {
				t.Error(err)
			}
			ws[i] = w
		})
	}
	wg.Wait()
	var sb strings.Builder
	var sum1, sum5, bsum1, bsum5 float64
	for i, sp := range splitNames {
		var test, withAliases []sample
		for _, s := range samples {
			if s.split == sp {
				test = append(test, s)
				if !s.bare {
					withAliases = append(withAliases, s)
				}
			}
		}
		w := ws[i]
		r1, r5 := recalls(withAliases, w)
		b1, b5 := recalls(withAliases, base)
		sum1, sum5, bsum1, bsum5 = sum1+r1, sum5+r5, bsum1+b1, bsum5+b5
		a1, a5 := recalls(test, w)
		fmt.Fprintf(&sb, "%-9s aliases: bm25 %.3f/%.3f  rerank %.3f/%.3f   both configs: rerank %.3f/%.3f\n", sp, b1, b5, r1, r5, a1, a5)
	}
	n := float64(max(len(splitNames), 1))
	fmt.Fprintf(&sb, "mean      aliases: bm25 %.3f/%.3f  rerank %.3f/%.3f\n", bsum1/n, bsum5/n, sum1/n, sum5/n)
	w := ws[len(splitNames)]
	sb.WriteString("weights:")
	for j := range nf {
		fmt.Fprintf(&sb, " %s=%.3f", names[j], w[j])
	}
	t.Log("\n" + sb.String())
}

func envFloat(k string, def float64) float64 {
	var v float64
	if _, err := fmt.Sscan(os.Getenv(k), &v); err != nil {
		return def
	}
	return v
}
