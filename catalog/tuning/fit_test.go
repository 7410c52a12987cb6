package tuning_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpfleet/mcpfleet/catalog"
	"github.com/mcpfleet/mcpfleet/catalog/internal/catalogtest"
	"github.com/mcpfleet/mcpfleet/catalog/search"
	"github.com/mcpfleet/mcpfleet/catalog/tuning"
	"github.com/mcpfleet/mcpfleet/kindgroups"
)

// fitSubset is a few of the labelled queries, every 25th: enough for the
// fit to have something to learn, few enough to keep the package fast.
func fitSubset(t *testing.T) []tuning.Query {
	t.Helper()
	var qs []tuning.Query
	for i, q := range catalogtest.Queries(t) {
		if i%25 == 0 {
			qs = append(qs, q)
		}
	}
	return qs
}

// TestFitRerank fits on a few queries and ranks them with the fit, the
// built-in weights read back from JSON, and BM25 with and without weights.
func TestFitRerank(t *testing.T) {
	servers := catalogtest.Fleet(t)
	c := catalog.Build(servers, catalogtest.FleetConfig(true))
	qs := fitSubset(t)
	opt := tuning.FitOptions{Steps: 150}
	w1, err := tuning.FitRerank(t.Context(), c, qs, opt)
	if err != nil {
		t.Fatal(err)
	}
	w2, err := tuning.FitRerank(t.Context(), c, qs, opt)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(w1, w2); diff != "" {
		t.Errorf("two fits differ (-first +second):\n%s", diff)
	}
	if err := w1.Validate(); err != nil {
		t.Fatalf("fitted weights do not validate: %v", err)
	}

	// In sample, the fit must rank at least as well as BM25 alone, which
	// is where it starts from.
	bm25 := catalogtest.FleetConfig(true)
	bm25.NoRerank = true
	fitted := catalogtest.FleetConfig(true)
	fitted.RerankWeights = w1
	before := tuning.Eval(t.Context(), catalog.Build(servers, bm25), qs)
	after := tuning.Eval(t.Context(), catalog.Build(servers, fitted), qs)
	if after.RecallAt1 < before.RecallAt1 {
		t.Errorf("in-sample recall@1: fitted %.3f < BM25 %.3f", after.RecallAt1, before.RecallAt1)
	}
	t.Logf("%d queries, in-sample recall@1: BM25 %.3f, fitted %.3f", len(qs), before.RecallAt1, after.RecallAt1)

	// The built-in weights, through a weights file, rank as they do
	// built in.
	data, err := json.Marshal(search.DefaultRerankWeights())
	if err != nil {
		t.Fatal(err)
	}
	var back search.RerankWeights
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(search.DefaultRerankWeights(), back); diff != "" {
		t.Errorf("JSON round trip (-want +got):\n%s", diff)
	}
	loaded := catalogtest.FleetConfig(true)
	loaded.RerankWeights = back
	if diff := cmp.Diff(tuning.Eval(t.Context(), c, qs), tuning.Eval(t.Context(), catalog.Build(servers, loaded), qs)); diff != "" {
		t.Errorf("default weights from JSON rank differently (-built-in +loaded):\n%s", diff)
	}

	// NoRerank wins over weights.
	bm25.RerankWeights = w1
	if diff := cmp.Diff(before, tuning.Eval(t.Context(), catalog.Build(servers, bm25), qs)); diff != "" {
		t.Errorf("NoRerank with weights ranks unlike NoRerank (-want +got):\n%s", diff)
	}
}

func TestFitRerankErrors(t *testing.T) {
	c := catalog.Build([]kindgroups.Server{{Name: "k8s", Tools: []mcp.Tool{
		catalogtest.Tool("pods_restart", "Restart a pod", false), catalogtest.Tool("pods_list", "List pods", true)}}}, catalog.Config{})
	some := []tuning.Query{{Q: "restart the pod", Expect: []string{"k8s:pods_restart"}}}
	cancelled, cancel := context.WithCancel(t.Context())
	cancel()
	tests := []struct {
		name string
		ctx  context.Context
		qs   []tuning.Query
		l2   float64
		want func(error) bool
	}{
		{"cancelled", cancelled, some, 0, func(err error) bool { return errors.Is(err, context.Canceled) }},
		// No expected tool is a candidate: nothing to learn from.
		{"no pairs", t.Context(), []tuning.Query{{Q: "restart the pod", Expect: []string{"nosuch:tool"}}}, 0,
			func(err error) bool { return err != nil && strings.Contains(err.Error(), "no query") }},
		// A non-finite L2 would make every weight NaN, which Build then
		// panics on: the fit must refuse it, naming the option.
		{"NaN L2", t.Context(), some, math.NaN(), func(err error) bool { return err != nil && strings.Contains(err.Error(), "L2") }},
		{"infinite L2", t.Context(), some, math.Inf(1), func(err error) bool { return err != nil && strings.Contains(err.Error(), "L2") }},
		{"negative L2", t.Context(), some, -1, func(err error) bool { return err != nil && strings.Contains(err.Error(), "L2") }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w, err := tuning.FitRerank(tt.ctx, c, tt.qs, tuning.FitOptions{Steps: 5, L2: tt.l2})
			if !tt.want(err) || w != nil {
				t.Errorf("FitRerank = %v, %v", w, err)
			}
		})
	}
}

func TestRerankWeightsValidate(t *testing.T) {
	with := func(edit func(search.RerankWeights)) search.RerankWeights {
		w := search.DefaultRerankWeights()
		edit(w)
		return w
	}
	tests := []struct {
		name string
		w    search.RerankWeights
		want *search.RerankWeightsError // nil: valid
		text []string                   // substrings of the error
	}{
		{"default", search.DefaultRerankWeights(), nil, nil},
		{"typo", with(func(w search.RerankWeights) { w["nmae"] = w["name"]; delete(w, "name") }),
			&search.RerankWeightsError{Unknown: []search.UnknownFeature{{Name: "nmae", Nearest: "name"}}, Missing: []string{"name"}},
			[]string{`unknown feature "nmae" (did you mean "name"?)`, "missing name", "want one finite number for each of base, name"}},
		{"far off", with(func(w search.RerankWeights) { w["colour"] = 1 }),
			&search.RerankWeightsError{Unknown: []search.UnknownFeature{{Name: "colour"}}},
			[]string{`unknown feature "colour"; want`}},
		{"missing", with(func(w search.RerankWeights) { delete(w, "inflected"); delete(w, "kind") }),
			&search.RerankWeightsError{Missing: []string{"kind", "inflected"}}, []string{"missing kind, inflected"}},
		{"empty", search.RerankWeights{}, &search.RerankWeightsError{Missing: search.RerankFeatures()}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.w.Validate()
			if tt.want == nil {
				if err != nil {
					t.Fatalf("Validate = %v, want nil", err)
				}
				return
			}
			var got *search.RerankWeightsError
			if !errors.As(err, &got) {
				t.Fatalf("Validate = %v, want a *RerankWeightsError", err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			for _, s := range tt.text {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("error %q lacks %q", err, s)
				}
			}
		})
	}
}

func TestRerankWeightsErrorText(t *testing.T) {
	want := "want one finite number for each of " + strings.Join(search.RerankFeatures(), ", ")
	tests := []struct {
		name string
		err  *search.RerankWeightsError
		want string
	}{
		// A zero error names nothing wrong; it must not print an empty
		// list after a colon.
		{"zero", &search.RerankWeightsError{}, "catalog: invalid rerank weights: " + want},
		{"not finite", &search.RerankWeightsError{NotFinite: []string{"base"}},
			"catalog: rerank weights: not a finite number: base; " + want},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.err.Error(); got != tt.want {
				t.Errorf("Error() = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestBuildRejectsBadWeights(t *testing.T) {
	defer func() {
		var e *search.RerankWeightsError
		if err, _ := recover().(error); !errors.As(err, &e) {
			t.Errorf("Build recovered %v, want a *RerankWeightsError", err)
		}
	}()
	catalog.Build(nil, catalog.Config{RerankWeights: search.RerankWeights{"base": 1}})
}

// ExampleFitRerank refits the reranker on a fleet's own labelled queries
// and searches with the fit. A real fit wants hundreds of queries, and
// its score on queries it never saw (Eval) before it is used.
func ExampleFitRerank() {
	ro := func(name, desc string) mcp.Tool {
		return mcp.Tool{Name: name, Description: desc, RawInputSchema: []byte(`{"type":"object"}`),
			Annotations: mcp.ToolAnnotation{ReadOnlyHint: mcp.ToBoolPtr(true)}}
	}
	servers := []kindgroups.Server{{Name: "ci", Tools: []mcp.Tool{
		ro("pipelines_list", "List pipelines of a project."),
		ro("pipeline_jobs", "List the jobs of a pipeline."),
		ro("job_log", "Get the log of a job."),
	}}}
	c := catalog.Build(servers, catalog.Config{})
	qs := []tuning.Query{
		{Q: "log of the failed job 17", Expect: []string{"ci:job_log"}},
		{Q: "pipelines of the shop project", Expect: []string{"ci:pipelines_list"}},
		{Q: "which jobs ran in pipeline 4411", Expect: []string{"ci:pipeline_jobs"}},
		{Q: "recent pipelines", Expect: []string{"ci:pipelines_list"}},
	}
	w, err := tuning.FitRerank(context.Background(), c, qs, tuning.FitOptions{Steps: 200})
	if err != nil {
		panic(err)
	}
	fmt.Println(len(w), "weights, valid:", w.Validate() == nil)
	// A weights file is this map as JSON; config's search.rerank_weights
	// reads one into Config.RerankWeights.
	fitted := catalog.Build(servers, catalog.Config{RerankWeights: w})
	for _, h := range fitted.Search(context.Background(), "which jobs ran in pipeline 4411", 1) {
		fmt.Println(h.Tool)
	}
	// Output:
	// 22 weights, valid: true
	// pipeline_jobs
}

// A sample's Weight scales its share of the fit: two samples that pull
// one feature opposite ways leave it where the heavier one pulls, and a
// zero Weight counts as 1.
func TestFitSamplesWeight(t *testing.T) {
	nf := len(search.RerankFeatures())
	j := slices.Index(search.RerankFeatures(), "name")
	// sample returns a query whose right tool has feature j at v and
	// its wrong one at -v.
	sample := func(v, weight float64) tuning.RerankSample {
		right, wrong := make([]float64, nf), make([]float64, nf)
		right[j], wrong[j] = v, -v
		return tuning.RerankSample{Feats: [][]float64{right, wrong}, Pos: []bool{true, false}, Weight: weight}
	}
	fit := func(s ...tuning.RerankSample) float64 {
		w, err := tuning.FitSamples(t.Context(), s, tuning.FitOptions{Steps: 300})
		if err != nil {
			t.Fatal(err)
		}
		return w[j]
	}
	if up := fit(sample(1, 3), sample(-1, 1)); up <= 0 {
		t.Errorf("heavier sample pulls up: weight %.3f, want > 0", up)
	}
	if down := fit(sample(1, 1), sample(-1, 3)); down >= 0 {
		t.Errorf("heavier sample pulls down: weight %.3f, want < 0", down)
	}
	if a, b := fit(sample(1, 0), sample(-1, 2)), fit(sample(1, 1), sample(-1, 2)); a != b {
		t.Errorf("Weight 0 fits %.6f, Weight 1 %.6f; want the same", a, b)
	}
}

// The base feature's weight stays at 1 unless FreeBase lets it move: on
// requests the engine already ranks right, a free fit sharpens the base.
func TestFitSamplesBase(t *testing.T) {
	names := search.RerankFeatures()
	base, name := slices.Index(names, "base"), slices.Index(names, "name")
	right, wrong := make([]float64, len(names)), make([]float64, len(names))
	right[base], wrong[base] = 0, -1
	right[name], wrong[name] = 1, 0
	s := []tuning.RerankSample{{Feats: [][]float64{right, wrong}, Pos: []bool{true, false}}}
	for _, tc := range []struct {
		free     bool
		wantBase func(float64) bool
	}{
		{false, func(w float64) bool { return w == 1 }},
		{true, func(w float64) bool { return w > 1 }},
	} {
		w, err := tuning.FitSamples(t.Context(), s, tuning.FitOptions{Steps: 200, FreeBase: tc.free})
		if err != nil {
			t.Fatal(err)
		}
		if !tc.wantBase(w[base]) {
			t.Errorf("FreeBase %v: base weight %.3f", tc.free, w[base])
		}
		if w[name] <= 0 {
			t.Errorf("FreeBase %v: name weight %.3f, want > 0", tc.free, w[name])
		}
	}
}
