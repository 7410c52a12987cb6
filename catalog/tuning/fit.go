package tuning

import (
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/mcpfleet/mcpfleet/catalog"
	"github.com/mcpfleet/mcpfleet/catalog/search"
)

// Defaults of FitOptions' zero fields: the settings the built-in weights
// were fitted with, and the leave-one-kind-out figure refits with (see
// docs/search.md, "The reranker").
const (
	DefaultFitL2    = 0.3
	DefaultFitSteps = 600
)

// FitOptions tune FitRerank. The zero value fits as the built-in weights
// were.
type FitOptions struct {
	// L2 pulls the weights toward the engine's own order (base 1, the
	// rest 0); 0 means DefaultFitL2. Larger trusts the labelled requests
	// less. It must be finite and not negative.
	L2 float64
	// Steps of full-batch Adam; 0 means DefaultFitSteps.
	Steps int
	// FreeBase lets the base feature's weight (the engine's own score)
	// move with the others. By default it stays at 1, so every other
	// weight is measured against the engine's order and L2 pulls it
	// toward 0: a fit that departs from the engine only where the
	// requests agree. Free, the fit mostly sharpens the base (2.1 for
	// 1) and the rest follow its scale.
	FreeBase bool
}

// FitRerank fits reranker weights to labelled queries over c's tools, by
// pairwise logistic regression: for each query, every expected tool among
// its BM25 candidates should outscore every other candidate. A query whose
// expected tools are all outside the candidates, or whose candidates are
// all expected, contributes nothing. The fit is deterministic and stops
// with ctx.Err() when ctx is done. It ignores c's own weights: features
// do not depend on them.
//
// The result fits these queries; measure it on others (eval-search)
// before trusting it.
func FitRerank(ctx context.Context, c *catalog.Catalog, qs []Query, opt FitOptions) (search.RerankWeights, error) {
	samples := make([]RerankSample, 0, len(qs))
	for _, q := range qs {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		samples = append(samples, RerankSampleOf(c, q))
	}
	w, err := FitSamples(ctx, samples, opt)
	if err != nil {
		return nil, err
	}
	return search.NewRerankWeights(w), nil
}

// RerankSample is one query's reranker input: its BM25 candidates'
// features, best BM25 first, and which of them are expected.
type RerankSample struct {
	Feats [][]float64
	Pos   []bool
	// Weight scales the sample's share of the fit; 0 means 1. Giving
	// each kind's requests the same total keeps a kind with many
	// requests, in one house style, from setting the weights alone.
	Weight float64
}

// RerankSampleOf builds q's sample over c, as FitRerank does; samples of
// several catalogs (with aliases and without) may be fitted together.
func RerankSampleOf(c *catalog.Catalog, q Query) RerankSample {
	feats, docs := c.Index().Features(q.Q)
	entries := c.Entries()
	s := RerankSample{Feats: feats, Pos: make([]bool, len(docs))}
	for i, d := range docs {
		s.Pos[i] = slices.Contains(q.Expect, entries[d].Kind+":"+entries[d].Tool)
	}
	return s
}

// FitSamples fits linear weights, in the order of search.RerankFeatures,
// by pairwise logistic regression. Each
// query weighs the same whatever its number of pairs; L2 pulls toward the
// plain BM25 order. Full-batch Adam from that start, a fixed number of
// steps: deterministic.
func FitSamples(ctx context.Context, samples []RerankSample, opt FitOptions) ([]float64, error) {
	l2, steps := opt.L2, opt.Steps
	nf := len(search.RerankFeatures())
	if l2 == 0 {
		l2 = DefaultFitL2
	}
	if steps == 0 {
		steps = DefaultFitSteps
	}
	// NaN or +Inf would turn every weight into NaN, which Build refuses.
	if !(l2 >= 0) || math.IsInf(l2, 1) || steps < 0 {
		return nil, fmt.Errorf("catalog: fit: L2 must be a finite number and neither L2 nor Steps negative, got L2 %g, Steps %d", l2, steps)
	}
	// A query's pairs, as feature differences (right minus wrong),
	// computed once: the steps only need those.
	type query struct {
		diffs []float64 // pairs of nf differences, one after the other
		scale float64
	}
	var data []query
	for _, s := range samples {
		var ps, ns []int
		for i, p := range s.Pos {
			if p {
				ps = append(ps, i)
			} else {
				ns = append(ns, i)
			}
		}
		if len(ps) == 0 || len(ns) == 0 {
			continue
		}
		q := query{scale: 1 / float64(len(ps)*len(ns)), diffs: make([]float64, 0, len(ps)*len(ns)*nf)}
		if s.Weight > 0 {
			q.scale *= s.Weight
		}
		for _, p := range ps {
			for _, n := range ns {
				for j := range nf {
					q.diffs = append(q.diffs, s.Feats[p][j]-s.Feats[n][j])
				}
			}
		}
		data = append(data, q)
	}
	if len(data) == 0 {
		return nil, fmt.Errorf("catalog: fit: no query has both an expected tool and another among its %d BM25 candidates", search.Depth)
	}
	w := make([]float64, nf)
	w[slices.Index(search.RerankFeatures(), "base")] = 1
	prior := slices.Clone(w)
	m, v, g := make([]float64, nf), make([]float64, nf), make([]float64, nf)
	const lr, b1, b2, eps = 0.05, 0.9, 0.999, 1e-8
	fixed := slices.Index(search.RerankFeatures(), "base")
	if opt.FreeBase {
		fixed = -1
	}
	for step := 1; step <= steps; step++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		clear(g)
		for _, q := range data {
			for i := 0; i < len(q.diffs); i += nf {
				d := q.diffs[i : i+nf : i+nf]
				s := 0.0
				for j := range nf {
					s += w[j] * d[j]
				}
				// d/dw log(1+exp(-s)) = -sigmoid(-s) * d
				k := -q.scale / (1 + math.Exp(s))
				for j := range nf {
					g[j] += k * d[j]
				}
			}
		}
		for j := range nf {
			if j == fixed {
				continue
			}
			g[j] = g[j]/float64(len(data)) + l2*(w[j]-prior[j])
			m[j] = b1*m[j] + (1-b1)*g[j]
			v[j] = b2*v[j] + (1-b2)*g[j]*g[j]
			mh := m[j] / (1 - math.Pow(b1, float64(step)))
			vh := v[j] / (1 - math.Pow(b2, float64(step)))
			w[j] -= lr * mh / (math.Sqrt(vh) + eps)
		}
	}
	return w, nil
}
