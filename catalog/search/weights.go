package search

import (
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

// NewRerankWeights names weights given in the order of RerankFeatures.
func NewRerankWeights(w []float64) RerankWeights { return weightsOf(w) }

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
