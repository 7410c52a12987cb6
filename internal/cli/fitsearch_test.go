package cli_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpfleet/mcpfleet/catalog/search"
	"github.com/mcpfleet/mcpfleet/catalog/tuning"
	"github.com/mcpfleet/mcpfleet/internal/goldenfile"
)

const fitQueries = "testdata/fit_queries.jsonl"

// fitted is the part of fit-search's JSON report the tests read.
type fitted struct {
	Queries  int                  `json:"queries"`
	InSample bool                 `json:"in_sample"`
	Current  tuning.Metrics       `json:"current"`
	Fitted   tuning.Metrics       `json:"fitted"`
	Weights  search.RerankWeights `json:"weights"`
}

// TestFitSearchGolden pins the text report, whose figures are rounded, so
// that it holds on any machine; the weights go to a file.
func TestFitSearchGolden(t *testing.T) {
	cfg := writeFleet(t, stdFleet, "")
	dir := filepath.Dir(cfg)
	args := []string{"fit-search", "--config", cfg, "--queries", fitQueries, "--steps", "100", "-o", filepath.Join(dir, "weights.json")}
	r := run(t, nil, "", args...)
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	goldenfile.CheckNamed(t, "fit_search", strings.ReplaceAll(transcript(cfg, args, r), dir, "$DIR"))
}

// TestFitSearchRoundTrip: the weights fit-search writes are what
// search.rerank_weights loads, and eval-search then scores the queries as
// fit-search's report said; the built-in weights written to a file change
// nothing.
func TestFitSearchRoundTrip(t *testing.T) {
	// Without presets: the round trip needs none. Whether a fit helps is
	// not this test's question (a 100-step fit on 40 queries, pulled
	// toward plain BM25 by its L2, may score them below the built-in
	// weights fitted on thousands); catalog/tuning's tests ask it.
	plain := writeFleet(t, stdFleet, "presets: false\n")
	dir := filepath.Dir(plain)
	weights := filepath.Join(dir, "fitted.json")
	r := run(t, nil, "", "fit-search", "--json", "--config", plain, "--queries", fitQueries, "--steps", "100", "-o", weights)
	if r.code != 0 {
		t.Fatalf("fit-search exit %d: %s", r.code, r.stderr)
	}
	var rep fitted
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
		t.Fatal(err)
	}
	if !rep.InSample || rep.Queries != 40 {
		t.Errorf("report %+v: want 40 in-sample queries", rep)
	}
	var written search.RerankWeights
	data, err := os.ReadFile(weights)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &written); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(rep.Weights, written); diff != "" {
		t.Errorf("file and report disagree (-report +file):\n%s", diff)
	}

	defaults, err := json.Marshal(search.DefaultRerankWeights())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "defaults.json"), defaults, 0o600); err != nil {
		t.Fatal(err)
	}
	eval := func(cfg string) tuning.EvalResult {
		t.Helper()
		r := run(t, nil, "", "eval-search", "--json", "--config", cfg, "--queries", fitQueries)
		if r.code != 0 {
			t.Fatalf("eval-search exit %d: %s", r.code, r.stderr)
		}
		var res tuning.EvalResult
		if err := json.Unmarshal([]byte(r.stdout), &res); err != nil {
			t.Fatal(err)
		}
		return res
	}
	// Relative to the fleet file, as every path in it.
	withFit := writeFleetIn(t, plain, "fit.yaml", "search:\n  rerank_weights: fitted.json\n")
	withDefaults := writeFleetIn(t, plain, "defaults.yaml", "search:\n  rerank_weights: defaults.json\n")
	base, fit, def := eval(plain), eval(withFit), eval(withDefaults)
	if diff := cmp.Diff(rep.Current, base.Metrics); diff != "" {
		t.Errorf("eval-search without weights vs fit-search's current (-report +eval):\n%s", diff)
	}
	if diff := cmp.Diff(rep.Fitted, fit.Metrics); diff != "" {
		t.Errorf("eval-search with the fitted weights vs fit-search's fitted (-report +eval):\n%s", diff)
	}
	if diff := cmp.Diff(base, def); diff != "" {
		t.Errorf("the built-in weights from a file rank differently (-built in +file):\n%s", diff)
	}
	if s := run(t, nil, "", "search", "--config", withFit, "restart the pod"); s.code != 0 || s.stdout == "" {
		t.Errorf("search with fitted weights: exit %d, stdout %q, stderr %q", s.code, s.stdout, s.stderr)
	}
}

// TestFitSearchRelativeOutput: with -o relative to the working directory
// and the fleet file elsewhere, the path the report says to set as
// search.rerank_weights (which resolves against the fleet file's folder)
// names the file fit-search wrote.
func TestFitSearchRelativeOutput(t *testing.T) {
	queries, err := filepath.Abs(fitQueries)
	if err != nil {
		t.Fatal(err)
	}
	plain := writeFleet(t, stdFleet, "")
	t.Chdir(t.TempDir())
	r := run(t, nil, "", "fit-search", "--config", plain, "--queries", queries, "--steps", "20", "-o", "w.json")
	if r.code != 0 {
		t.Fatalf("fit-search exit %d: %s", r.code, r.stderr)
	}
	_, after, ok := strings.Cut(r.stderr, "set search.rerank_weights: ")
	path, _, ok2 := strings.Cut(after, " in the fleet file")
	if !ok || !ok2 {
		t.Fatalf("no search.rerank_weights hint in:\n%s", r.stderr)
	}
	withFit := writeFleetIn(t, plain, "fit.yaml", "search:\n  rerank_weights: "+path+"\n")
	if e := run(t, nil, "", "eval-search", "--config", withFit, "--queries", queries); e.code != 0 {
		t.Errorf("eval-search with the hinted path %q: exit %d: %s", path, e.code, e.stderr)
	}
}

// writeFleetIn writes name next to fleet, so that relative paths resolve
// alike: a copy of fleet with extra YAML appended.
func writeFleetIn(t *testing.T, fleet, name, extra string) string {
	t.Helper()
	data, err := os.ReadFile(fleet)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(filepath.Dir(fleet), name)
	if err := os.WriteFile(path, append(data, extra...), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestFitSearchErrors: bad inputs fail in the usual style, naming what is
// wrong, before any server starts where they can.
func TestFitSearchErrors(t *testing.T) {
	plain := writeFleet(t, stdFleet[5:], "")
	dir := filepath.Dir(plain)
	if err := os.WriteFile(filepath.Join(dir, "typo.json"), []byte(`{"base": 1, "nmae": 2}`), 0o600); err != nil {
		t.Fatal(err)
	}
	typo := writeFleetIn(t, plain, "typo.yaml", "search:\n  rerank_weights: typo.json\n")
	missing := writeFleetIn(t, plain, "missing.yaml", "search:\n  rerank_weights: nowhere.json\n")
	tests := []struct {
		name   string
		args   []string
		code   int
		stderr []string
	}{
		{"no queries file", []string{"fit-search", "--config", plain, "--queries", filepath.Join(dir, "nope.jsonl")},
			1, []string{"mcpfleet fit-search: open ", "nope.jsonl: no such file"}},
		{"no queries flag", []string{"fit-search", "--config", plain}, 2, []string{"fit-search needs --queries FILE", "run 'mcpfleet fit-search -h'"}},
		{"bad steps", []string{"fit-search", "--config", plain, "--queries", fitQueries, "--steps", "0"}, 2, []string{"--steps must be at least 1"}},
		// Inf parses as a float; it is no more a valid pull than 0.
		{"infinite l2", []string{"fit-search", "--config", plain, "--queries", fitQueries, "--l2", "Inf"}, 2, []string{"--l2 a finite number above 0", "got 600 and +Inf"}},
		{"unknown feature", []string{"eval-search", "--config", typo, "--queries", fitQueries}, 1,
			[]string{"mcpfleet eval-search: config: search.rerank_weights " + filepath.Join(dir, "typo.json"),
				`unknown feature "nmae" (did you mean "name"?)`, "missing name, line"}},
		{"unknown feature, fit-search", []string{"fit-search", "--config", typo, "--queries", fitQueries}, 1,
			[]string{`unknown feature "nmae"`}},
		{"missing weights file", []string{"search", "--config", missing, "pods"}, 1,
			[]string{"search: rerank_weights: got \"" + filepath.Join(dir, "nowhere.json") + "\", want a readable JSON file"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := run(t, nil, "", tt.args...)
			if r.code != tt.code {
				t.Errorf("exit %d, want %d; stderr:\n%s", r.code, tt.code, r.stderr)
			}
			for _, s := range tt.stderr {
				if !strings.Contains(r.stderr, s) {
					t.Errorf("stderr lacks %q:\n%s", s, r.stderr)
				}
			}
		})
	}
}
