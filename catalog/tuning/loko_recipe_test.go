package tuning_test

import (
	"fmt"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/mcpfleet/mcpfleet/catalog/internal/catalogtest"
	"github.com/mcpfleet/mcpfleet/catalog/search"
	"github.com/mcpfleet/mcpfleet/catalog/tuning"
)

// recipe is one way of fitting the reranker, judged under
// leave-one-kind-out by TestRerankRecipesLOKO.
type recipe struct {
	name    string
	opt     tuning.FitOptions
	balance bool
	drop    []string // features held at 0
	off     bool     // no fit: the engine's own order
}

// TestRerankRecipesLOKO (LOKO_RECIPES=1) fits the reranker each way of
// recipes once per kind K without K's requests, as TestEvalSearchLOKO
// does, and scores K's requests by their samples in K's catalog: the
// reranker's reordering of BM25's candidates, without building a
// catalog per fit. It prints mean recall@1 and @5 over kinds, the house
// and new kinds apart, and the worst kind.
func TestRerankRecipesLOKO(t *testing.T) {
	if os.Getenv("LOKO_RECIPES") == "" {
		t.Skip("set LOKO_RECIPES=1 to compare reranker fits under leave-one-kind-out")
	}
	d := newLOKOData(t, catalogtest.WideFleet(t), false)
	house := map[string]bool{}
	for _, q := range catalogtest.Queries(t) {
		house[primaryKind(q)] = true
	}
	steps := int(envFloat("STEPS", 600))
	var rs []recipe
	rs = append(rs, recipe{name: "off", off: true})
	for _, spec := range strings.Split(os.Getenv("LOKO_RECIPES"), ";") {
		r, err := parseRecipe(spec, steps)
		if err != nil {
			t.Fatal(err)
		}
		if r.name != "" {
			rs = append(rs, r)
		}
	}
	names := search.RerankFeatures()
	type job struct{ r, k int }
	scores := make([][]figures, len(rs))
	fitted := make([][][]float64, len(rs))
	for i := range scores {
		scores[i] = make([]figures, len(d.kinds))
		fitted[i] = make([][]float64, len(d.kinds))
	}
	// score ranks kind's requests by their samples in kind's catalog.
	score := func(kind string, w []float64) figures {
		eval := d.samples(true, kind)
		var f figures
		for j, q := range d.qs {
			if primaryKind(q) == kind {
				f.addRank(rankOf(eval[j], w))
			}
		}
		return f
	}
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	for ri, r := range rs {
		var wg sync.WaitGroup
		for ki, kind := range d.kinds {
			wg.Go(func() {
				sem <- struct{}{}
				defer func() { <-sem }()
				w := make([]float64, len(names))
				w[0] = 1
				if !r.off {
					train := d.train(kind, r.balance)
					if len(r.drop) > 0 {
						train = dropFeatures(train, r.drop, names)
					}
					var err error
					if w, err = tuning.FitSamples(t.Context(), train, r.opt); err != nil {
						t.Error(err)
						return
					}
				}
				scores[ri][ki] = score(kind, w)
				fitted[ri][ki] = w
			})
		}
		wg.Wait()
		// Each recipe's line as soon as it is done, for long runs.
		var r1, r5 float64
		for _, f := range scores[ri] {
			r1, r5 = r1+f.r1/float64(len(d.kinds)), r5+f.r5/float64(len(d.kinds))
		}
		fmt.Fprintf(os.Stderr, "recipe %-40s mean r@1 %.3f r@5 %.3f\n", r.name, r1, r5)
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "%-40s | %-11s | %-11s | %-11s | %s\n", "recipe (samples, LOKO)", "all r@1 r@5", "house", "new", "worst r@5")
	for ri, r := range rs {
		var all, h, n [2]float64
		var nh, nn int
		worst := -1
		for ki, kind := range d.kinds {
			f := scores[ri][ki]
			all[0], all[1] = all[0]+f.r1, all[1]+f.r5
			if house[kind] {
				h[0], h[1], nh = h[0]+f.r1, h[1]+f.r5, nh+1
			} else {
				n[0], n[1], nn = n[0]+f.r1, n[1]+f.r5, nn+1
			}
			if worst < 0 || f.r5 < scores[ri][worst].r5 {
				worst = ki
			}
		}
		k := float64(len(d.kinds))
		fmt.Fprintf(&sb, "%-40s | %.3f %.3f | %.3f %.3f | %.3f %.3f | %s %.3f\n", r.name, all[0]/k, all[1]/k,
			h[0]/float64(max(nh, 1)), h[1]/float64(max(nh, 1)), n[0]/float64(max(nn, 1)), n[1]/float64(max(nn, 1)),
			d.kinds[worst], scores[ri][worst].r5)
	}
	if os.Getenv("LOKO_RECIPES_KINDS") != "" {
		for ki, kind := range d.kinds {
			fmt.Fprintf(&sb, "%-20s", kind)
			for ri := range rs {
				fmt.Fprintf(&sb, " %.3f/%.3f", scores[ri][ki].r1, scores[ri][ki].r5)
			}
			sb.WriteString("\n")
		}
	}
	// LOKO_ABLATE=1: each fitted recipe's weights with one feature set
	// to 0, not refitted: what that feature, as fitted, does to the kinds
	// the fit never saw (house and new kinds apart).
	if os.Getenv("LOKO_ABLATE") != "" {
		for ri, r := range rs {
			if r.off {
				continue
			}
			fmt.Fprintf(&sb, "%s: feature set to 0 after the fit, change of mean r@1 r@5 (all | house | new)\n", r.name)
			for fi, name := range names {
				var dAll, dH, dN [2]float64
				var nh, nn float64
				for ki, kind := range d.kinds {
					w := slices.Clone(fitted[ri][ki])
					w[fi] = 0
					f, b := score(kind, w), scores[ri][ki]
					d1, d5 := f.r1-b.r1, f.r5-b.r5
					dAll[0], dAll[1] = dAll[0]+d1, dAll[1]+d5
					if house[kind] {
						dH[0], dH[1], nh = dH[0]+d1, dH[1]+d5, nh+1
					} else {
						dN[0], dN[1], nn = dN[0]+d1, dN[1]+d5, nn+1
					}
				}
				k := float64(len(d.kinds))
				fmt.Fprintf(&sb, "  %-16s %+.4f %+.4f | %+.4f %+.4f | %+.4f %+.4f\n", name, dAll[0]/k, dAll[1]/k,
					dH[0]/max(nh, 1), dH[1]/max(nh, 1), dN[0]/max(nn, 1), dN[1]/max(nn, 1))
			}
		}
	}
	t.Log("\n" + sb.String())
}

// parseRecipe reads "l2=0.1,steps=600,freebase,balance,drop=a+b"; "default"
// is FitOptions' zero value.
func parseRecipe(spec string, steps int) (recipe, error) {
	spec = strings.TrimSpace(spec)
	r := recipe{name: spec, opt: tuning.FitOptions{Steps: steps}}
	if spec == "" {
		return recipe{}, nil
	}
	for _, part := range strings.Split(spec, ",") {
		k, v, _ := strings.Cut(part, "=")
		switch k {
		case "l2":
			fmt.Sscan(v, &r.opt.L2)
		case "steps":
			fmt.Sscan(v, &r.opt.Steps)
		case "freebase":
			r.opt.FreeBase = true
		case "balance":
			r.balance = true
		case "drop":
			r.drop = strings.Split(v, "+")
		case "default":
		default:
			return recipe{}, fmt.Errorf("recipe %q: unknown %q", spec, k)
		}
	}
	return r, nil
}

// dropFeatures returns copies of samples with the named features at 0.
func dropFeatures(samples []tuning.RerankSample, drop, names []string) []tuning.RerankSample {
	out := make([]tuning.RerankSample, len(samples))
	for i, s := range samples {
		s.Feats = slices.Clone(s.Feats)
		for j, f := range s.Feats {
			f = slices.Clone(f)
			for _, n := range drop {
				f[slices.Index(names, n)] = 0
			}
			s.Feats[j] = f
		}
		out[i] = s
	}
	return out
}

// addRank counts one request whose first expected tool ranks rank (0:
// none among the candidates).
func (f *figures) addRank(rank int) {
	f.n++
	if rank == 1 {
		f.hits1++
	}
	if rank >= 1 && rank <= 5 {
		f.hits5++
	}
	f.r1, f.r5 = float64(f.hits1)/float64(f.n), float64(f.hits5)/float64(f.n)
}
