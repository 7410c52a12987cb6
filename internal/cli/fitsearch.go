package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"

	"github.com/mcpfleet/mcpfleet"
	"github.com/mcpfleet/mcpfleet/catalog"
	"github.com/mcpfleet/mcpfleet/catalog/search"
	"github.com/mcpfleet/mcpfleet/catalog/tuning"
)

// fitReport is what fit-search found. Both figures score the queries the
// weights were fitted on, so they say how well the fit learned them, not
// how it will rank requests it has not seen.
type fitReport struct {
	Queries int `json:"queries"`
	// InSample is always true: a reminder in the JSON as in the text.
	InSample bool `json:"in_sample"`
	// Current scores the fleet file's ranking: its weights, the built-in
	// ones, or BM25 alone when search.rerank is false.
	Current tuning.Metrics `json:"current"`
	Fitted  tuning.Metrics `json:"fitted"`
	// Output is the -o file as an absolute path, "" when the weights
	// went to stdout.
	Output  string               `json:"output,omitempty"`
	Weights search.RerankWeights `json:"weights"`
}

func runFitSearch(ctx context.Context, env []string, stdin io.Reader, stdout, stderr io.Writer, args []string) error {
	fs, c := newFlagSet("fit-search", "--config FILE --queries FILE [-o OUT.json] [--json] [--steps N] [--l2 X]", env, stderr)
	asJSON := fs.Bool("json", false, "print the report, weights included, as JSON on stdout instead of text on stderr")
	queries := fs.String("queries", "", "JSON Lines `file` of {\"q\", \"expect\": [\"kind:tool\"]} to fit on (- reads stdin)")
	out := fs.String("o", "", "write the weights to `file` instead of stdout")
	steps := fs.Int("steps", tuning.DefaultFitSteps, "optimiser steps")
	l2 := fs.Float64("l2", tuning.DefaultFitL2, "pull toward the BM25 order; larger trusts few queries less")
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageErrorf("fit-search takes no arguments, got %q", fs.Args())
	}
	if *queries == "" {
		return usageErrorf("fit-search needs --queries FILE")
	}
	if *steps < 1 || !(*l2 > 0) || math.IsInf(*l2, 1) {
		return usageErrorf("--steps must be at least 1 and --l2 a finite number above 0, got %d and %g", *steps, *l2)
	}
	if *out != "" {
		// The report tells the operator to set this path in the fleet
		// file, where a relative one would resolve against the file's
		// folder, not the directory fit-search ran in.
		abs, err := filepath.Abs(*out)
		if err != nil {
			return err
		}
		*out = abs
	}
	qs, mx, err := labelledFleet(ctx, c, *queries, stdin, stderr)
	if err != nil {
		return err
	}
	defer mx.Close()
	// Lexical only, even when the environment sets an embedding model:
	// the reranker sees BM25's candidates, and fusing embeddings would
	// blur what the weights change.
	cfg := catalogConfig(mx.Config())
	cat := catalog.Build(mx.Servers(), cfg)
	w, err := tuning.FitRerank(ctx, cat, qs, tuning.FitOptions{L2: *l2, Steps: *steps})
	if err != nil {
		return err
	}
	cfg.RerankWeights, cfg.NoRerank = w, false
	all := catalog.WithScopes(ctx, catalog.ScopeAll)
	rep := fitReport{Queries: len(qs), InSample: true, Output: *out, Weights: w,
		Current: tuning.Eval(all, cat, qs).Metrics,
		Fitted:  tuning.Eval(all, catalog.Build(mx.Servers(), cfg), qs).Metrics}
	if *out != "" {
		data, err := json.MarshalIndent(w, "", "  ")
		if err != nil {
			return err
		}
		if err := writeFileAtomic(*out, append(data, '\n')); err != nil {
			return err
		}
	}
	if *asJSON {
		return emit(stdout, true, rep, nil)
	}
	if *out == "" {
		if err := emit(stdout, true, w, nil); err != nil {
			return err
		}
	}
	return emit(stderr, false, rep, func(w io.Writer) { writeFit(w, rep) })
}

func writeFit(w io.Writer, r fitReport) {
	fmt.Fprintf(w, "fitted on %d queries; in-sample figures, the same queries scored both ways:\n", r.Queries)
	fmt.Fprintf(w, "current  recall@1 %.3f  recall@5 %.3f\n", r.Current.RecallAt1, r.Current.RecallAt5)
	fmt.Fprintf(w, "fitted   recall@1 %.3f  recall@5 %.3f\n", r.Fitted.RecallAt1, r.Fitted.RecallAt5)
	file := r.Output
	if file == "" {
		file = "the weights file"
	}
	fmt.Fprintf(w, "measure on held-out queries before trusting it: set search.rerank_weights: %s in the fleet file and run mcpfleet eval-search --queries HELDOUT.jsonl\n", file)
}

// readQueries reads the --queries file, or stdin for "-".
func readQueries(path string, stdin io.Reader) ([]tuning.Query, error) {
	r := stdin
	if path != "-" {
		f, err := os.Open(path)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		r = f
	}
	return tuning.ReadQueries(r)
}

// labelledFleet reads the --queries file and then connects the fleet, as
// every command that scores or learns from labelled requests starts, so
// that a bad queries file fails before any server starts. The caller must
// Close the Mux.
func labelledFleet(ctx context.Context, c *common, queries string, stdin io.Reader, stderr io.Writer) ([]tuning.Query, *mcpfleet.Mux, error) {
	qs, err := readQueries(queries, stdin)
	if err != nil {
		return nil, nil, err
	}
	mx, err := connect(ctx, c, stderr)
	if err != nil {
		return nil, nil, err
	}
	return qs, mx, nil
}

// writeFileAtomic writes data to path through a temporary file in the same
// folder and a rename, so a failed write never leaves a truncated weights
// file where a fleet file may already point.
func writeFileAtomic(path string, data []byte) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	tmp := f.Name()
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp, 0o644)
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}
