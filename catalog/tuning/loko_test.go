package tuning_test

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/mcpfleet/mcpfleet/catalog"
	"github.com/mcpfleet/mcpfleet/catalog/internal/catalogtest"
	"github.com/mcpfleet/mcpfleet/catalog/search"
	"github.com/mcpfleet/mcpfleet/catalog/tuning"
	"github.com/mcpfleet/mcpfleet/kindgroups"
)

// withoutKind returns catalogtest.FleetConfig(aliases) with nothing of kind's: no
// KindConfig (hand aliases, id patterns, lines, core tools), no mined
// aliases. What is left for kind is what its server says.
func withoutKind(aliases bool, kind string) catalog.Config {
	cfg := catalogtest.FleetConfig(aliases)
	kinds := make(map[string]catalog.KindConfig, len(cfg.Kinds))
	for k, kc := range cfg.Kinds {
		if k != kind {
			kinds[k] = kc
		}
	}
	cfg.Kinds = kinds
	return cfg
}

// expectsKind reports whether any expected tool of q is of kind.
func expectsKind(q tuning.Query, kind string) bool {
	for _, e := range q.Expect {
		if k, _, _ := strings.Cut(e, ":"); k == kind {
			return true
		}
	}
	return false
}

// lokoResult is one kind's leave-one-kind-out score.
type lokoResult struct {
	kind          string
	ours, bm, ein figures
}

// TestEvalSearchLOKO is the certifying figure (LOKO=1): for each kind K
// with requests, K's aliases, mined aliases and kind settings are removed,
// the reranker is refitted (as TestRerankTrain fits it: with and without
// aliases) on every request that expects no tool of K, and K's requests
// (those whose first expected tool is K's) are scored. It prints the mean
// over kinds and the worst kind, next to plain BM25 and eino's tool
// search, which fit nothing. Requests are the house set and the sealed
// unseen-kind set (seen since its first run). Each fit uses FitOptions'
// defaults, as TestRerankTrain fits the built-in weights, so the figure
// describes the weights that ship; STEPS=N and L2=x override them, to
// measure another fit (then it no longer describes the product).
//
// The ops lexicon stays in: it is part of the engine, though it was
// written from the house requests. LOKO_NOLEXICON=1 drops it, to measure
// what it is worth on kinds it was not written for. LOKO_PRESETS=1 gives
// every kind but K its built-in preset, as mcpfleet.New does.
// LOKO_NORERANK=1 ranks without the reranker (nothing is fitted, so it is
// quick); LOKO_DROP=feature,... fits without those features (each held at
// 0), to see which features carry over to kinds the fit never saw;
// LOKO_WEIGHTS=path writes each kind's refitted weights; LOKO_BALANCE=1
// gives each kind's requests the same total weight in the fit.
//
// LOKO_SET=pattern scores a sealed set instead (a glob under
// ../testdata/sealed, e.g. "all23/all23-*.jsonl"): the fits are the same,
// on the house and unseen requests without K's, and each kind's catalog
// scores the set's requests whose first expected tool is that kind's.
func TestEvalSearchLOKO(t *testing.T) {
	if os.Getenv("LOKO") == "" {
		t.Skip("set LOKO=1 to run the leave-one-kind-out evaluation")
	}
	fleet := catalogtest.WideFleet(t)
	l := newLOKO(t, fleet, os.Getenv("LOKO_NOLEXICON") != "")
	plain := catalog.Build(fleet, catalog.Config{})
	bm, ein := bm25Ranker(plain.Entries()), einoRanker(t, plain.Entries())
	if os.Getenv("LOKO_OURS") != "" {
		// Only ours, for quick looks: the other two fit nothing and
		// do not change.
		none := ranker{"none", func(string, int) []string { return nil }}
		bm, ein = none, none
	}
	scored := l.byKind
	if pat := os.Getenv("LOKO_SET"); pat != "" {
		scored = byPrimaryKind(loadSealed(t, pat))
		if len(scored) == 0 {
			t.Fatalf("LOKO_SET: no requests match %q under ../testdata/sealed", pat)
		}
		for k := range scored {
			if l.cats[k] == nil {
				t.Fatalf("LOKO_SET: kind %q has no leave-one-kind-out catalog; kinds are %v", k, l.kinds)
			}
		}
	}
	results := make([]lokoResult, 0, len(l.kinds))
	var misses strings.Builder
	for _, kind := range l.kinds {
		if len(scored[kind]) == 0 {
			continue
		}
		ours := oursRanker("ours", l.cats[kind])
		r := lokoResult{kind: kind}
		for _, q := range scored[kind] {
			got := ours.search(q.Q, 5)
			r.ours.add(q.Expect, got)
			r.bm.add(q.Expect, bm.search(q.Q, 5))
			r.ein.add(q.Expect, ein.search(q.Q, 5))
			if len(got) == 0 || !slices.Contains(q.Expect, got[0]) {
				// "top5" when an expected tool is in the top five, "miss5"
				// when none is: the two are read as different classes.
				at5 := "miss5"
				if slices.ContainsFunc(got, func(g string) bool { return slices.Contains(q.Expect, g) }) {
					at5 = "top5"
				}
				fmt.Fprintf(&misses, "%s\t%s\t%q\twant %s\tgot %s\n", kind, at5, q.Q, strings.Join(q.Expect, ","), strings.Join(got, " "))
			}
		}
		results = append(results, r)
	}
	t.Log("\n" + renderLOKO(results))
	// LOKO_MISSES=path writes every request whose first result is not
	// expected, with the top five, for reading misses by class.
	if p := os.Getenv("LOKO_MISSES"); p != "" {
		if err := os.WriteFile(p, []byte(misses.String()), 0o644); err != nil {
			t.Error(err)
		}
	}
}

// byPrimaryKind groups qs by their primary kind.
func byPrimaryKind(qs []tuning.Query) map[string][]tuning.Query {
	out := map[string][]tuning.Query{}
	for _, q := range qs {
		out[primaryKind(q)] = append(out[primaryKind(q)], q)
	}
	return out
}

// loko is the leave-one-kind-out setting: every request by its primary
// kind, and for each kind a catalog built without that kind's settings
// whose reranker was fitted without that kind's requests.
type loko struct {
	kinds  []string
	byKind map[string][]tuning.Query
	cats   map[string]*catalog.Catalog
}

// lokoData is what every leave-one-kind-out fit reads: the requests, by
// primary kind, and each kind's catalog configuration and samples.
type lokoData struct {
	qs     []tuning.Query
	kinds  []string
	byKind map[string][]tuning.Query
	fleet  []kindgroups.Server
	// config is the configuration without kind's settings, with or
	// without the others' aliases.
	config func(aliases bool, kind string) catalog.Config
	// samples are every request's samples in config(aliases, kind)'s
	// catalog, in qs's order, computed once per distinct catalog.
	samples func(aliases bool, kind string) []tuning.RerankSample
	// balance (LOKO_BALANCE=1) weighs each kind's requests the same.
	balance  bool
	noRerank bool
}

// newLOKOData reads the requests and the knobs of TestEvalSearchLOKO.
// LOKO_KINDS (comma-separated) restricts it to some kinds, for quick
// looks.
func newLOKOData(t *testing.T, fleet []kindgroups.Server, noLex bool) *lokoData {
	qs := append(catalogtest.Queries(t), loadUnseen(t)...)
	byKind := byPrimaryKind(qs)
	only := map[string]bool{}
	for _, k := range strings.Split(os.Getenv("LOKO_KINDS"), ",") {
		if k != "" {
			only[k] = true
		}
	}
	kinds := slices.Sorted(func(yield func(string) bool) {
		for k := range byKind {
			if (len(only) == 0 || only[k]) && !yield(k) {
				return
			}
		}
	})
	noRerank := os.Getenv("LOKO_NORERANK") != ""
	drop := map[int]bool{}
	for _, f := range strings.Split(os.Getenv("LOKO_DROP"), ",") {
		if f == "" {
			continue
		}
		i := slices.Index(search.RerankFeatures(), f)
		if i < 0 {
			t.Fatalf("LOKO_DROP: no feature %q; features are %v", f, search.RerankFeatures())
		}
		drop[i] = true
	}
	// LOKO_PRESETS=1 merges the built-in presets under every kind's
	// settings but K's, as mcpfleet.New would: K loses its preset too.
	presetsOn := os.Getenv("LOKO_PRESETS") != ""
	config := func(aliases bool, kind string) catalog.Config {
		cfg := withoutKind(aliases, kind)
		if presetsOn {
			cfg = catalogtest.WithPresets(t, cfg, fleet, kind)
		}
		cfg.NoLexicon = noLex
		cfg.NoRerank = noRerank
		return cfg
	}
	// A kind with no settings of its own (hand, or with LOKO_PRESETS a
	// preset) leaves the configuration as it is: its samples are the full
	// configuration's, computed once.
	hand := catalogtest.FleetConfig(true).Kinds
	if presetsOn {
		for k := range catalogtest.PresetConfig(t, fleet).Kinds {
			hand[k] = catalog.KindConfig{}
		}
	}
	samplesOf := func(aliases bool, kind string) []tuning.RerankSample {
		c := catalog.Build(fleet, config(aliases, kind))
		out := make([]tuning.RerankSample, len(qs))
		for i, q := range qs {
			out[i] = maskSample(tuning.RerankSampleOf(c, q), drop)
		}
		return out
	}
	keyOf := func(kind string) string {
		if _, ok := hand[kind]; ok {
			return kind
		}
		return ""
	}
	var mu sync.Mutex
	cache := map[[2]string][]tuning.RerankSample{}
	cached := func(aliases bool, kind string) []tuning.RerankSample {
		key := [2]string{fmt.Sprint(aliases), keyOf(kind)}
		mu.Lock()
		defer mu.Unlock()
		if cache[key] == nil {
			cache[key] = samplesOf(aliases, keyOf(kind))
		}
		return cache[key]
	}
	// LOKO_BALANCE=1 fits with each kind's requests weighing the same in
	// total, instead of each request the same.
	return &lokoData{qs: qs, kinds: kinds, byKind: byKind, fleet: fleet, config: config, samples: cached,
		balance: os.Getenv("LOKO_BALANCE") != "", noRerank: noRerank}
}

// train returns the samples a fit without kind reads: every request that
// expects no tool of kind, with the others' aliases and without, as
// TestRerankTrain fits the built-in weights.
func (d *lokoData) train(kind string, balance bool) []tuning.RerankSample {
	with, bare := d.samples(true, kind), d.samples(false, kind)
	var out []tuning.RerankSample
	for j, q := range d.qs {
		if !expectsKind(q, kind) {
			w, b := with[j], bare[j]
			if balance {
				// Each kind's requests weigh as much in total.
				w.Weight = float64(len(d.qs)) / float64(len(d.byKind)*len(d.byKind[primaryKind(q)]))
				b.Weight = w.Weight
			}
			out = append(out, w, b)
		}
	}
	return out
}

// newLOKO fits one catalog per kind (see TestEvalSearchLOKO).
func newLOKO(t *testing.T, fleet []kindgroups.Server, noLex bool) *loko {
	d := newLOKOData(t, fleet, noLex)
	kinds := d.kinds
	opt := tuning.FitOptions{Steps: int(envFloat("STEPS", 0)), L2: envFloat("L2", 0)}
	cats := make([]*catalog.Catalog, len(kinds))
	fits := make([][]float64, len(kinds))
	var wg sync.WaitGroup
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	for i, kind := range kinds {
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			if d.noRerank {
				cats[i] = catalog.Build(fleet, d.config(true, kind))
				return
			}
			w, err := tuning.FitSamples(t.Context(), d.train(kind, d.balance), opt)
			if err != nil {
				t.Error(err)
				return
			}
			cfg := d.config(true, kind)
			cfg.RerankWeights = search.NewRerankWeights(w)
			fits[i] = w
			cats[i] = catalog.Build(fleet, cfg)
		})
	}
	wg.Wait()
	if t.Failed() {
		t.FailNow()
	}
	// LOKO_WEIGHTS=path writes each kind's refitted weights (a line per
	// kind, features in RerankFeatures order), to see which features
	// the fit weighs differently as the left-out kind changes.
	if p := os.Getenv("LOKO_WEIGHTS"); p != "" && !d.noRerank {
		var sb strings.Builder
		fmt.Fprintf(&sb, "kind\t%s\n", strings.Join(search.RerankFeatures(), "\t"))
		for i, k := range kinds {
			sb.WriteString(k)
			for _, v := range fits[i] {
				fmt.Fprintf(&sb, "\t%.4f", v)
			}
			sb.WriteString("\n")
		}
		if err := os.WriteFile(p, []byte(sb.String()), 0o644); err != nil {
			t.Error(err)
		}
	}
	l := &loko{kinds: kinds, byKind: d.byKind, cats: map[string]*catalog.Catalog{}}
	for i, k := range kinds {
		l.cats[k] = cats[i]
	}
	return l
}

// maskSample returns s with the features in drop held at 0.
func maskSample(s tuning.RerankSample, drop map[int]bool) tuning.RerankSample {
	if len(drop) == 0 {
		return s
	}
	for _, f := range s.Feats {
		for i := range drop {
			f[i] = 0
		}
	}
	return s
}

// renderLOKO prints per-kind figures, the mean over kinds and the worst
// kind (by recall@5) of each ranker.
func renderLOKO(rs []lokoResult) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "%-20s %5s | %-17s | %-17s | %-17s\n", "kind", "n", "ours LOKO r@1 r@5 nDCG", "bm25", "eino")
	var mean [3]figures
	worst := [3]string{}
	for _, r := range rs {
		fmt.Fprintf(&sb, "%-20s %5d | %-17s | %-17s | %-17s\n", r.kind, r.ours.n, r.ours, r.bm, r.ein)
		for j, f := range []figures{r.ours, r.bm, r.ein} {
			mean[j].r1 += f.r1 / float64(len(rs))
			mean[j].r5 += f.r5 / float64(len(rs))
			mean[j].ndcg5 += f.ndcg5 / float64(len(rs))
			if worst[j] == "" || f.r5 < pick(rs, worst[j], j).r5 {
				worst[j] = r.kind
			}
		}
	}
	fmt.Fprintf(&sb, "%-20s %5d | %-17s | %-17s | %-17s\n", "mean over kinds", len(rs), mean[0], mean[1], mean[2])
	fmt.Fprintf(&sb, "%-20s %5s | %-17s | %-17s | %-17s\n", "worst kind (r@5)", "",
		worstLabel(rs, worst[0], 0), worstLabel(rs, worst[1], 1), worstLabel(rs, worst[2], 2))
	return sb.String()
}

func pick(rs []lokoResult, kind string, j int) figures {
	for _, r := range rs {
		if r.kind == kind {
			return [3]figures{r.ours, r.bm, r.ein}[j]
		}
	}
	return figures{}
}

func worstLabel(rs []lokoResult, kind string, j int) string {
	return fmt.Sprintf("%s %.3f", kind, pick(rs, kind, j).r5)
}

// TestLexiconLOKO judges the ops lexicon under leave-one-kind-out,
// entry by entry (LEXJUDGE=1) or trigger by trigger (LEXJUDGE=triggers),
// with each kind's catalog and refitted reranker from newLOKO. Units are
// judged one at a time, least used first, each against the lexicon as
// the units judged before it left it: a unit is dropped only if
// switching it off lowers neither recall@1 nor recall@5 (mean over kinds)
// on the requests that say it (no other request can change). Judging in turn,
// not each against the whole lexicon, matters for triggers: "i missed"
// and "missed" fire together, so each alone looks idle, but not both.
// The reranker is not refitted per unit: the figure is what the unit is
// worth to the ranker as fitted with it. Ranking goes through the engine
// (search.Index), without the catalog's pinning of quoted tool names,
// the same way with and without the unit.
func TestLexiconLOKO(t *testing.T) {
	mode := os.Getenv("LEXJUDGE")
	if mode == "" {
		t.Skip("set LEXJUDGE=1 (entries) or LEXJUDGE=triggers to judge the lexicon under leave-one-kind-out")
	}
	// unit is what is judged: the trigger itself, or its whole entry.
	unit := func(tr search.LexiconTrigger) search.LexiconTrigger {
		if mode != "triggers" {
			tr.Phrase = ""
		}
		return tr
	}
	l := newLOKO(t, catalogtest.WideFleet(t), false)
	nk := float64(len(l.kinds))
	// score returns recall@1 and recall@5 of one request ranked by idx.
	score := func(c *catalog.Catalog, idx *search.Index, q tuning.Query) (float64, float64) {
		var got []string
		for _, r := range idx.Search(context.Background(), q.Q, func(int) bool { return true }, 5) {
			e := c.Entries()[r.Doc]
			got = append(got, e.Kind+":"+e.Tool)
		}
		var f figures
		f.add(q.Expect, got)
		return f.r1, f.r5
	}
	// said[kind][u] are kind's requests that say unit u.
	said := map[string]map[search.LexiconTrigger][]tuning.Query{}
	fires := map[search.LexiconTrigger]int{}
	for _, kind := range l.kinds {
		said[kind] = map[search.LexiconTrigger][]tuning.Query{}
		for _, q := range l.byKind[kind] {
			seen := map[search.LexiconTrigger]bool{}
			for _, tr := range search.LexiconTriggers(q.Q) {
				if u := unit(tr); !seen[u] {
					seen[u] = true
					said[kind][u] = append(said[kind][u], q)
					fires[u]++
				}
			}
		}
	}
	units := slices.SortedFunc(maps.Keys(fires), func(a, b search.LexiconTrigger) int {
		return cmp.Or(cmp.Compare(fires[a], fires[b]), cmp.Compare(a.Entry, b.Entry), cmp.Compare(a.Phrase, b.Phrase))
	})
	dropped := map[search.LexiconTrigger]bool{}
	var sb strings.Builder
	var total1, total5 float64
	for _, u := range units {
		before := func(tr search.LexiconTrigger) bool { return dropped[unit(tr)] }
		after := func(tr search.LexiconTrigger) bool { return dropped[unit(tr)] || unit(tr) == u }
		var d1, d5 float64
		for _, kind := range l.kinds {
			qs := said[kind][u]
			if len(qs) == 0 {
				continue
			}
			c, n := l.cats[kind], float64(len(l.byKind[kind]))
			on, off := c.Index().WithoutLexicon(before), c.Index().WithoutLexicon(after)
			for _, q := range qs {
				x1, x5 := score(c, on, q)
				y1, y5 := score(c, off, q)
				d1 += (y1 - x1) / n / nk
				d5 += (y5 - x5) / n / nk
			}
		}
		verdict := "keep"
		if d1 >= 0 && d5 >= 0 {
			verdict = "drop"
			dropped[u] = true
			total1, total5 = total1+d1, total5+d5
		}
		fmt.Fprintf(&sb, "%3d %-24q %-4s fires %4d  removing: r@1 %+.4f r@5 %+.4f\n", u.Entry, u.Phrase, verdict, fires[u], d1, d5)
	}
	fmt.Fprintf(&sb, "kept %d of the %d units that fire on a request; dropping the rest moves the mean r@1 %+.4f r@5 %+.4f\n",
		len(units)-len(dropped), len(units), total1, total5)
	t.Log("\n" + sb.String())
}
