package tuning_test

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/mcpfleet/mcpfleet/catalog"
	"github.com/mcpfleet/mcpfleet/catalog/internal/catalogtest"
	"github.com/mcpfleet/mcpfleet/catalog/tuning"
)

// TestEvalSearchPresets measures the goal "with presets, on every kind: no
// worse than today". It ranks the same requests over wideFleet four ways:
//
//   - today: the fleet's hand-written kind_settings and reviewed aliases
//     (ours in TestEvalSearch);
//   - today+presets: the same with the built-in presets merged under them,
//     as mcpfleet.New does (the fleet's own keys win);
//   - none: no kind_settings at all, as a new fleet file starts;
//   - presets: no kind_settings, the presets alone: what that new fleet
//     gets now.
//
// It prints the per-kind table and names every kind where a preset column
// is below its column without presets. The house requests are the ones
// the hand settings, the presets (taken from them) and the reranker were
// written against: in-sample progress figures, not held-out ones.
//
//	SEARCHEVAL=1 go test ./catalog/tuning -run 'TestEvalSearchPresets$' -v
func TestEvalSearchPresets(t *testing.T) {
	if os.Getenv("SEARCHEVAL") == "" {
		t.Skip("set SEARCHEVAL=1 to print the presets evaluation")
	}
	rs := presetRankers(t)
	for _, set := range presetSets(t) {
		table, _ := sideBySide(rs, set.qs)
		losses := strings.Join(presetLosses(rs, perKind(rs, set.qs)), "\n")
		if losses == "" {
			losses = "no kind worse with presets"
		}
		t.Logf("%s, %d requests\n%s%s\n", set.name, len(set.qs), table, losses)
	}
}

// presetRankers are the four configurations TestEvalSearchPresets
// compares, over wideFleet: today, today+presets, none, presets.
func presetRankers(tb testing.TB) []ranker {
	fleet := catalogtest.WideFleet(tb)
	today := catalogtest.FleetConfig(true)
	return []ranker{
		oursRanker("today", catalog.Build(fleet, today)),
		oursRanker("today+presets", catalog.Build(fleet, catalogtest.WithPresets(tb, today, fleet))),
		oursRanker("none", catalog.Build(fleet, catalog.Config{})),
		oursRanker("presets", catalog.Build(fleet, catalogtest.PresetConfig(tb, fleet))),
	}
}

// presetSets are the request sets the presets are scored on; a sealed
// set that is absent is left out.
func presetSets(tb testing.TB) []querySet {
	var out []querySet
	for _, set := range []querySet{
		{"house requests (9 kinds)", catalogtest.Queries(tb)},
		{"house holdout34-36", loadSealed(tb, "holdout3[4-6].jsonl")},
		{"unseen kinds", loadUnseen(tb)},
		{"unseen kinds, second set", loadSealed(tb, "unseen2/unseen2-*.jsonl")},
	} {
		if len(set.qs) > 0 {
			out = append(out, set)
		}
	}
	return out
}

type querySet struct {
	name string
	qs   []tuning.Query
}

// kindFigures are each ranker's figures on the requests of one kind.
type kindFigures struct {
	kinds []string // in the order qs first names them
	per   map[string][]*figures
}

// perKind ranks every request of qs once with each of rs and sums the
// figures by the request's primary kind.
func perKind(rs []ranker, qs []tuning.Query) kindFigures {
	kf := kindFigures{per: map[string][]*figures{}}
	for _, q := range qs {
		k := primaryKind(q)
		if kf.per[k] == nil {
			kf.per[k] = make([]*figures, len(rs))
			for i := range rs {
				kf.per[k][i] = &figures{}
			}
			kf.kinds = append(kf.kinds, k)
		}
		for i, r := range rs {
			kf.per[k][i].add(q.Expect, r.search(q.Q, 5))
		}
	}
	return kf
}

// presetLosses names the kinds where rs[1] is below rs[0], or rs[3]
// below rs[2], at rank 1 or 5: one line each.
func presetLosses(rs []ranker, kf kindFigures) []string {
	kinds, per := kf.kinds, kf.per
	var out []string
	for _, k := range kinds {
		f := per[k]
		for _, p := range [][2]int{{0, 1}, {2, 3}} {
			a, b := f[p[0]], f[p[1]]
			if b.r1 < a.r1-1e-9 || b.r5 < a.r5-1e-9 {
				out = append(out, fmt.Sprintf("worse with presets: %s, %s %s -> %s %s", k, rs[p[0]].name, a, rs[p[1]].name, b))
			}
		}
	}
	return out
}
