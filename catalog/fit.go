package catalog

import (
	"context"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/mcpfleet/mcpfleet/internal/textdist"
)

// RerankWeights are the reranker's linear weights keyed by feature name
// (see RerankFeatures), so a weights file says what each number weighs and
// survives features being reordered. A valid set has every feature once
// and nothing else; see Validate.
type RerankWeights map[string]float64

// RerankFeatures returns the reranker's feature names in their fixed
// order.
func RerankFeatures() []string { return slices.Clone(featureNames[:]) }

// DefaultRerankWeights returns the built-in weights, fitted to this
// project's fixture fleet and labelled queries.
func DefaultRerankWeights() RerankWeights { return weightsOf(rerankWeights[:]) }

func weightsOf(w []float64) RerankWeights {
	out := make(RerankWeights, nFeatures)
	for i, name := range featureNames {
		out[name] = w[i]
	}
	return out
}

// UnknownFeature is a weight whose name is no feature.
type UnknownFeature struct {
	Name string `json:"name"`
	// Nearest is the feature the name is probably a typo of, or "".
	Nearest string `json:"nearest,omitempty"`
}

// RerankWeightsError lists everything wrong with a RerankWeights.
type RerankWeightsError struct {
	Unknown   []UnknownFeature `json:"unknown,omitempty"`
	Missing   []string         `json:"missing,omitempty"`
	NotFinite []string         `json:"not_finite,omitempty"` // NaN or ±Inf
}

func (e *RerankWeightsError) Error() string {
	var parts []string
	for _, u := range e.Unknown {
		p := fmt.Sprintf("unknown feature %q", u.Name)
		if u.Nearest != "" {
			p += fmt.Sprintf(" (did you mean %q?)", u.Nearest)
		}
		parts = append(parts, p)
	}
	if len(e.Missing) > 0 {
		parts = append(parts, "missing "+strings.Join(e.Missing, ", "))
	}
	if len(e.NotFinite) > 0 {
		parts = append(parts, "not a finite number: "+strings.Join(e.NotFinite, ", "))
	}
	want := "want one finite number for each of " + strings.Join(featureNames[:], ", ")
	if len(parts) == 0 {
		// Validate never returns a zero error, but a caller can build one;
		// it should still read as a sentence.
		return "catalog: invalid rerank weights: " + want
	}
	return "catalog: rerank weights: " + strings.Join(parts, "; ") + "; " + want
}

// Validate returns a *RerankWeightsError naming every unknown feature
// (with the nearest valid name), every missing one and every weight that
// is not a finite number, or nil.
func (w RerankWeights) Validate() error {
	var e RerankWeightsError
	for _, name := range slices.Sorted(maps.Keys(w)) {
		if !slices.Contains(featureNames[:], name) {
			e.Unknown = append(e.Unknown, UnknownFeature{name, textdist.Nearest(name, featureNames[:])})
		} else if v := w[name]; math.IsNaN(v) || math.IsInf(v, 0) {
			e.NotFinite = append(e.NotFinite, name)
		}
	}
	for _, name := range featureNames {
		if _, ok := w[name]; !ok {
			e.Missing = append(e.Missing, name)
		}
	}
	if e.Unknown == nil && e.Missing == nil && e.NotFinite == nil {
		return nil
	}
	return &e
}

// features lays valid weights out in the order the index scores them.
func (w RerankWeights) features() features {
	var f features
	for i, name := range featureNames {
		f[i] = w[name]
	}
	return f
}

// Defaults of FitOptions' zero fields: the settings the built-in weights
// were fitted with.
const (
	DefaultFitL2    = 1e-4
	DefaultFitSteps = 3000
)

// FitOptions tune FitRerank. The zero value fits as the built-in weights
// were.
type FitOptions struct {
	// L2 pulls the weights toward the plain BM25 order (base 1, the rest
	// 0); 0 means DefaultFitL2. Larger trusts few queries less. It must
	// be finite and not negative.
	L2 float64
	// Steps of full-batch Adam; 0 means DefaultFitSteps.
	Steps int
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
func FitRerank(ctx context.Context, c *Catalog, qs []Query, opt FitOptions) (RerankWeights, error) {
	samples := make([]rerankSample, 0, len(qs))
	for _, q := range qs {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		samples = append(samples, c.rerankSample(q))
	}
	w, err := fitSamples(ctx, samples, opt)
	if err != nil {
		return nil, err
	}
	return weightsOf(w), nil
}

// rerankSample is one query's reranker input: its BM25 candidates'
// features, best BM25 first, and which of them are expected.
type rerankSample struct {
	Feats [][]float64
	Pos   []bool
}

func (c *Catalog) rerankSample(q Query) rerankSample {
	feats, keys := c.rerankFeatures(q.Q)
	s := rerankSample{Feats: feats, Pos: make([]bool, len(keys))}
	for i, k := range keys {
		s.Pos[i] = slices.Contains(q.Expect, k)
	}
	return s
}

// rerankFeatures returns the reranker's features for query's BM25
// candidates, best BM25 first, with their "kind:tool" keys.
func (c *Catalog) rerankFeatures(query string) (feats [][]float64, keys []string) {
	ix := c.idx
	q := ix.analyze(query)
	req, main := requestIntents(query)
	cands := ix.candidates(q, req, func(int) bool { return true }, rerankDepth)
	fq := ix.featureQuery(q, query, req, main, cands)
	for _, cd := range cands {
		f := ix.features(fq, cd)
		feats = append(feats, f[:])
		e := c.entries[cd.doc]
		keys = append(keys, e.Kind+":"+e.Tool)
	}
	return feats, keys
}

// fitSamples fits linear weights by pairwise logistic regression. Each
// query weighs the same whatever its number of pairs; L2 pulls toward the
// plain BM25 order. Full-batch Adam from that start, a fixed number of
// steps: deterministic.
func fitSamples(ctx context.Context, samples []rerankSample, opt FitOptions) ([]float64, error) {
	l2, steps := opt.L2, opt.Steps
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
		diffs [][]float64
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
		q := query{scale: 1 / float64(len(ps)*len(ns))}
		for _, p := range ps {
			for _, n := range ns {
				d := make([]float64, nFeatures)
				for j := range d {
					d[j] = s.Feats[p][j] - s.Feats[n][j]
				}
				q.diffs = append(q.diffs, d)
			}
		}
		data = append(data, q)
	}
	if len(data) == 0 {
		return nil, fmt.Errorf("catalog: fit: no query has both an expected tool and another among its %d BM25 candidates", rerankDepth)
	}
	const nf = nFeatures
	w := make([]float64, nf)
	w[fBase] = 1
	prior := slices.Clone(w)
	m, v, g := make([]float64, nf), make([]float64, nf), make([]float64, nf)
	const lr, b1, b2, eps = 0.05, 0.9, 0.999, 1e-8
	for step := 1; step <= steps; step++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		clear(g)
		for _, q := range data {
			for _, d := range q.diffs {
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
