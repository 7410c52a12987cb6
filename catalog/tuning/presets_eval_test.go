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
	fleet := catalogtest.WideFleet(t)
	today := catalogtest.FleetConfig(true)
	rs := []ranker{
		oursRanker("today", catalog.Build(fleet, today)),
		oursRanker("today+presets", catalog.Build(fleet, catalogtest.WithPresets(t, today, fleet))),
		oursRanker("none", catalog.Build(fleet, catalog.Config{})),
		oursRanker("presets", catalog.Build(fleet, catalogtest.PresetConfig(t, fleet))),
	}
	for _, set := range []struct {
		name string
		qs   []tuning.Query
	}{
		{"house requests (9 kinds)", catalogtest.Queries(t)},
		{"house holdout34-36", loadSealed(t, "holdout3[4-6].jsonl")},
		{"unseen kinds", loadUnseen(t)},
		{"unseen kinds, second set", loadSealed(t, "unseen2/unseen2-*.jsonl")},
	} {
		if len(set.qs) == 0 {
			continue
		}
		table, _ := sideBySide(rs, set.qs)
		t.Logf("%s, %d requests\n%s%s", set.name, len(set.qs), table, presetLosses(rs, set.qs))
	}
}

// presetLosses names the kinds where rs[1] is below rs[0], or rs[3]
// below rs[2], at rank 1 or 5.
func presetLosses(rs []ranker, qs []tuning.Query) string {
	per := map[string][]*figures{}
	var kinds []string
	for _, q := range qs {
		k := primaryKind(q)
		if per[k] == nil {
			per[k] = []*figures{{}, {}, {}, {}}
			kinds = append(kinds, k)
		}
		for i, r := range rs {
			per[k][i].add(q.Expect, r.search(q.Q, 5))
		}
	}
	var sb strings.Builder
	for _, k := range kinds {
		f := per[k]
		for _, p := range [][2]int{{0, 1}, {2, 3}} {
			a, b := f[p[0]], f[p[1]]
			if b.r1 < a.r1-1e-9 || b.r5 < a.r5-1e-9 {
				fmt.Fprintf(&sb, "worse with presets: %s, %s %s -> %s %s\n", k, rs[p[0]].name, a, rs[p[1]].name, b)
			}
		}
	}
	if sb.Len() == 0 {
		return "no kind worse with presets\n"
	}
	return sb.String()
}
