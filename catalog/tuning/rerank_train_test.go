package tuning_test

import (
	"fmt"
	"math"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/mcpfleet/mcpfleet/catalog/internal/catalogtest"
	"github.com/mcpfleet/mcpfleet/catalog/search"
	"github.com/mcpfleet/mcpfleet/catalog/tuning"
)

// rankOf returns the 1-based rank of the first right candidate under w, 0
// if none is among them. Ties go to the earlier (better BM25) candidate.
func rankOf(s tuning.RerankSample, w []float64) int {
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

// TestRerankTrain fits the built-in weights (TRAIN=1) exactly as
// TestEvalSearchLOKO refits them per kind, on every kind's requests
// instead of all but one: the same requests (the house set and the
// unseen-kind set) over the same fleet, with the operator's aliases and
// without, with FitOptions' defaults. So the certifying figure describes
// the weights that ship. It prints them as Go, and fails when
// rerankWeights differ from the fit: paste the printed line into
// catalog/search/rerank.go after changing a feature or the fit.
func TestRerankTrain(t *testing.T) {
	if os.Getenv("TRAIN") == "" {
		t.Skip("set TRAIN=1 to fit the reranker weights")
	}
	d := newLOKOData(t, catalogtest.WideFleet(t), false)
	// No kind is left out: "" names none.
	w, err := tuning.FitSamples(t.Context(), d.train("", false), tuning.FitOptions{})
	if err != nil {
		t.Fatal(err)
	}
	names := search.RerankFeatures()
	var sb strings.Builder
	builtin := search.DefaultRerankWeights()
	differ := false
	for j, v := range w {
		if j%11 == 0 {
			sb.WriteString("\n\t")
		} else {
			sb.WriteString(" ")
		}
		fmt.Fprintf(&sb, "%.3f,", v)
		differ = differ || math.Abs(builtin[names[j]]-v) > 5e-4
	}
	t.Logf("fitted on %d samples:\nvar rerankWeights = features{%s\n}", len(d.qs)*2, sb.String())
	if differ {
		t.Errorf("the built-in weights are not this fit: paste the line above into catalog/search/rerank.go")
	}
}

func envFloat(k string, def float64) float64 {
	var v float64
	if _, err := fmt.Sscan(os.Getenv(k), &v); err != nil {
		return def
	}
	return v
}
