package neutralize

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/mcpfleet/mcpfleet/internal/fixtures"
)

// The scorer is trained here, from the poisoned and clean sets in
// testdata and the real fixture definitions, which are read from
// ../shared/fixtures/tools and never copied. Run
//
//	TRAIN=1 go test ./internal/neutralize -run TestTrainScorer
//
// to rewrite scorer.bin; the same inputs give the same bytes. Run
//
//	SCORER_CV=1 go test ./internal/neutralize -run TestScorerCrossValidation -v
//
// for the leave-one-set-out estimate of held-out performance.
//
// To measure how training on other corpora transfers, without copying
// them here, SCORER_EXTRA names folders outside the repo (a comma list)
// whose poisoned_NAME.txt and clean_NAME.txt pairs, the POISON_CORPUS
// format of TestInspectBlindSets, join training as set "external NAME";
// SCORER_EXTRA_WEIGHT (default 1) weighs each of their definitions
// against one of the repo's sets. Such a model is never scorer.bin:
//
//	SCORER_EXTRA=/work/public27 SCORER_OUT=/tmp/m.bin go test ./internal/neutralize -run TestTrainScorer -v
//	SCORER_MODEL=/tmp/m.bin POISON_CORPUS=/work/public28 go test ./internal/neutralize -run 'TestInspectBlindSets$|TestInspectPoisonedCorpus' -v
//
// SCORER_OUT writes the model there (and logs its thresholds);
// SCORER_MODEL makes the tests that measure the scorer read that file
// instead of the embedded one. With SCORER_EXTRA the cross-validation
// scores each external pair as one more fold.

// trainConfig holds the training knobs; defaultTrain is the committed
// model's.
type trainConfig struct {
	bits   uint8
	epochs int
	rate   float64 // AdaGrad step
	l2     float64
	// posWeight weighs all poisoned definitions together against all
	// clean sentences together.
	posWeight float64
	// fixtureWeight weighs a sentence of a real fixture definition
	// against one of a clean set: the thresholds sit above the fixtures,
	// so their highest scores decide how much the scorer can catch.
	fixtureWeight float64
	// margin is added to the highest fixture score to make the
	// threshold.
	margin float64
	// perRole takes each role's threshold from the fixture sentences of
	// that role; otherwise every role gets the highest of them.
	perRole bool
	// prune drops weights smaller than this, to keep the model file
	// small; scores and thresholds are taken after it.
	prune float64
	seed  uint64
}

var defaultTrain = trainConfig{bits: 18, epochs: 12, rate: 0.1, l2: 1e-6, posWeight: 1, margin: 0.5, prune: 0.05, fixtureWeight: 1, seed: 21}

// doc is one definition with its label and where it came from.
type doc struct {
	set      string // the set pair, "fixtures", or "jsonl"
	kind     string // the fixture kind, for fixtures
	name     string
	siblings map[string]bool // the fixture kind's tool names
	parts    []Part
	poisoned bool
	line     string // the line as written, for the rules
	// weight weighs the doc in training; 0 reads as 1.
	weight float64
}

// unit is one sentence's features.
type unit struct {
	fixed, norm []uint32
	scale       float64 // 1/√len(norm)
	role        int     // roleIndex
	text        uint64  // wordHash of the sentence
	// known is set on a sentence of a poisoned definition that a fixture
	// definition holds word for word: it is clean.
	known bool
}

type example struct {
	units    []unit
	poisoned bool
	fixture  bool
	weight   float64 // 0 reads as 1
}

var paramLine = regexp.MustCompile(`^([A-Za-z_][A-Za-z0-9_.\-\[\]]*): `)

// splitDefinition reads a line of a poisoned or clean set: the main text,
// then "\nparam: description" parts.
func splitDefinition(line string) []Part {
	parts := []Part{{Field: "description"}}
	var main []string
	for i, l := range strings.Split(line, "\n") {
		if m := paramLine.FindStringSubmatch(l); i > 0 && m != nil {
			parts = append(parts, Part{Field: "inputSchema/properties/" + m[1] + "/description", Text: l[len(m[0]):]})
			continue
		}
		if len(parts) > 1 {
			parts[len(parts)-1].Text += "\n" + l
			continue
		}
		main = append(main, l)
	}
	parts[0].Text = strings.Join(main, "\n")
	return parts
}

func readSetLines(t testing.TB, file string) []string {
	t.Helper()
	if !filepath.IsAbs(file) {
		file = filepath.Join("testdata", file)
	}
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, l := range strings.Split(strings.TrimRight(string(b), "\n"), "\n") {
		if l != "" {
			out = append(out, strings.ReplaceAll(l, `\n`, "\n"))
		}
	}
	return out
}

func readJSONL(t testing.TB, file string) []string {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", file))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var e struct{ Text string }
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		out = append(out, e.Text)
	}
	return out
}

// setPairs returns the names of the poisoned/clean pairs in testdata:
// poisoned_<name>.txt with clean_<name>.txt, and <name>_poisoned.txt with
// <name>_clean.txt, sorted.
func setPairs(t testing.TB) map[string][2]string {
	out := map[string][2]string{}
	a, _ := filepath.Glob("testdata/poisoned_*.txt")
	for _, f := range a {
		name := strings.TrimSuffix(strings.TrimPrefix(filepath.Base(f), "poisoned_"), ".txt")
		out[name] = [2]string{"poisoned_" + name + ".txt", "clean_" + name + ".txt"}
	}
	b, _ := filepath.Glob("testdata/*_poisoned.txt")
	for _, f := range b {
		name := strings.TrimSuffix(filepath.Base(f), "_poisoned.txt")
		out[name] = [2]string{name + "_poisoned.txt", name + "_clean.txt"}
	}
	for name, p := range out {
		if _, err := os.Stat(filepath.Join("testdata", p[1])); err != nil {
			t.Fatalf("set %s: %s has no %s beside it", name, p[0], p[1])
		}
	}
	return out
}

// fixtureParts returns the parts of a real tool as the pinner reads them.
func toolParts(description string, schemas map[string]json.RawMessage) []Part {
	parts := []Part{{Field: "description", Text: description}}
	for _, field := range []string{"inputSchema", "outputSchema"} {
		var v any
		if json.Unmarshal(schemas[field], &v) != nil {
			continue
		}
		SchemaTexts(v, func(path, text string) { parts = append(parts, Part{Field: field + path, Text: text}) })
	}
	return parts
}

// untrained are sets the committed model was measured on once, sealed,
// and never trained on, so that their figures describe scorer.bin; the
// cross-validation scores them as folds but never trains on them. None
// now: blind4 was held out until training learned to leave the fixture
// sentences of poisoned definitions alone (featurizeAll); trained on
// since, it moved no honest test-server tool over the threshold.
var untrained = map[string]bool{}

// corpus reads every set (the untrained ones too if withUntrained), the
// jsonl corpora and the fixtures, in a fixed order.
func corpus(t testing.TB, withUntrained bool) []doc {
	var out []doc
	pairs := setPairs(t)
	names := make([]string, 0, len(pairs))
	for n := range pairs {
		if withUntrained || !untrained[n] {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	for _, n := range names {
		for i, file := range pairs[n] {
			for _, l := range readSetLines(t, file) {
				out = append(out, doc{set: n, parts: splitDefinition(l), poisoned: i == 0, line: l})
			}
		}
	}
	out = append(out, extraSets(t)...)
	for _, file := range []string{"poisoned.jsonl", "poisoned_heldout.jsonl"} {
		for _, l := range readJSONL(t, file) {
			out = append(out, doc{set: "jsonl", parts: splitDefinition(l), poisoned: true, line: l})
		}
	}
	dir := fixtures.Dir()
	if dir == "" {
		t.Skip("skipping: real tool fixtures not found at ../shared/fixtures/tools")
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	sort.Strings(files)
	for _, f := range files {
		kind := strings.TrimSuffix(filepath.Base(f), ".json")
		fx, err := fixtures.Load(kind)
		if err != nil {
			t.Fatal(err)
		}
		siblings := map[string]bool{}
		for _, tl := range fx.Tools {
			siblings[tl.Name] = true
		}
		for _, tl := range fx.Tools {
			out = append(out, doc{set: "fixtures", kind: kind, name: tl.Name, siblings: siblings, parts: fixtureParts(tl.Description, tl.RawInputSchema, tl.RawOutputSchema)})
		}
	}
	return out
}

// extraSets reads the pairs of the folders SCORER_EXTRA names, weighted
// by SCORER_EXTRA_WEIGHT (see the file comment).
func extraSets(t testing.TB) []doc {
	dirs := os.Getenv("SCORER_EXTRA")
	if dirs == "" {
		return nil
	}
	weight := 1.0
	if v := os.Getenv("SCORER_EXTRA_WEIGHT"); v != "" {
		if _, err := fmt.Sscanf(v, "%g", &weight); err != nil || !(weight > 0) {
			t.Fatalf("SCORER_EXTRA_WEIGHT=%q: want a number above 0, such as 2", v)
		}
	}
	var out []doc
	for _, dir := range strings.Split(dirs, ",") {
		pairs := dirPairs(t, "SCORER_EXTRA", dir)
		for _, name := range slices.Sorted(maps.Keys(pairs)) {
			for i, file := range pairs[name] {
				for _, l := range readSetLines(t, file) {
					out = append(out, doc{set: "external " + name, parts: splitDefinition(l), poisoned: i == 0, line: l, weight: weight})
				}
			}
		}
	}
	return out
}

// dirPairs returns the pairs of a folder outside the repo, by name:
// poisoned_NAME.txt and clean_NAME.txt, as absolute paths. env names the
// variable that gave the folder, for the error.
func dirPairs(t testing.TB, env, dir string) map[string][2]string {
	t.Helper()
	dir, err := filepath.Abs(strings.TrimSpace(dir))
	if err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "poisoned_*.txt"))
	if len(files) == 0 {
		t.Fatalf("%s=%s has no poisoned_*.txt, want poisoned_NAME.txt beside clean_NAME.txt", env, dir)
	}
	out := map[string][2]string{}
	for _, f := range files {
		name := strings.TrimSuffix(strings.TrimPrefix(filepath.Base(f), "poisoned_"), ".txt")
		out[name] = [2]string{f, filepath.Join(dir, "clean_"+name+".txt")}
	}
	return out
}

func fixtureParts(desc string, in, outSchema json.RawMessage) []Part {
	return toolParts(desc, map[string]json.RawMessage{"inputSchema": in, "outputSchema": outSchema})
}

// featurizeAll featurizes docs and marks as known the sentences of
// poisoned docs that a fixture doc holds word for word. Most poisoned
// sets are real definitions with an order added; unmarked, the honest
// sentences they share with the fixtures are pushed up with the order.
// All fixtures mark, also those a cross-validation fold leaves out of
// training: a real server the model never saw has no sentence in the
// poisoned sets, and the fold should be scored as one.
func featurizeAll(docs []doc, bits uint8) []example {
	exs := make([]example, len(docs))
	clean := map[uint64]bool{}
	for i, d := range docs {
		exs[i] = featurize(d, bits)
		if d.set == "fixtures" {
			for _, u := range exs[i].units {
				clean[u.text] = true
			}
		}
	}
	for i := range exs {
		if exs[i].poisoned {
			for j := range exs[i].units {
				exs[i].units[j].known = clean[exs[i].units[j].text]
			}
		}
	}
	return exs
}

// featurize turns a doc into the units the trainer reads, with the same
// code the scorer runs.
func featurize(d doc, bits uint8) example {
	ex := example{poisoned: d.poisoned, fixture: d.set == "fixtures", weight: d.weight}
	mask := uint32(1)<<bits - 1
	eachSentence(d.name, d.siblings, d.parts, func(i, start, end int, sc sentenceAt) {
		u := unit{role: roleIndex(sc.role), text: wordHash(d.parts[i].Text[start:end])}
		unitFeatures(d.parts[i].Text[start:end], sc, func(h uint32, fixed bool) {
			if fixed {
				u.fixed = append(u.fixed, h&mask)
			} else {
				u.norm = append(u.norm, h&mask)
			}
		})
		if len(u.norm) > 0 {
			u.scale = 1 / math.Sqrt(float64(len(u.norm)))
		}
		ex.units = append(ex.units, u)
	})
	return ex
}

// w is the example's weight in training.
func (e example) w() float64 {
	if e.weight == 0 {
		return 1
	}
	return e.weight
}

func (u unit) score(w []float64) float64 {
	var fixed, sum float64
	for _, f := range u.fixed {
		fixed += w[f]
	}
	for _, f := range u.norm {
		sum += w[f]
	}
	return fixed + float64(sum*u.scale)
}

func sigmoid(x float64) float64 { return 1 / (1 + math.Exp(-x)) }

// train fits the weights by AdaGrad on the logistic loss: every sentence
// of a clean definition is a negative on its own; a poisoned definition
// is one positive whose score is the log-sum-exp of its sentences', so
// that the sentence that carries the order takes the blame. A sentence
// marked known clean (see featurizeAll) takes none.
func train(exs []example, cfg trainConfig) []float64 {
	w := make([]float64, 1<<cfg.bits)
	g2 := make([]float64, len(w))
	// Counted as floats, a weight of 1 gives the same sums as counting.
	var negUnits, pos float64
	for _, e := range exs {
		if e.poisoned {
			pos += e.w()
		} else {
			negUnits += e.w() * float64(len(e.units))
		}
	}
	posW := 1.0
	if pos > 0 {
		posW = cfg.posWeight * negUnits / pos
	}
	step := func(u unit, g float64) {
		upd := func(f uint32, x float64) {
			gr := float64(g*x) + float64(cfg.l2*w[f])
			g2[f] += float64(gr * gr)
			w[f] -= float64(cfg.rate*gr) / math.Sqrt(g2[f]+1e-8)
		}
		for _, f := range u.fixed {
			upd(f, 1)
		}
		for _, f := range u.norm {
			upd(f, u.scale)
		}
	}
	rng := rand.New(rand.NewPCG(cfg.seed, 0x6d637066))
	type inst struct{ ex, unit int } // unit -1: the whole poisoned bag
	var insts []inst
	for i, e := range exs {
		if e.poisoned {
			insts = append(insts, inst{i, -1})
			continue
		}
		for j := range e.units {
			insts = append(insts, inst{i, j})
		}
	}
	scores := make([]float64, 0, 64)
	for range cfg.epochs {
		rng.Shuffle(len(insts), func(i, j int) { insts[i], insts[j] = insts[j], insts[i] })
		for _, in := range insts {
			e := exs[in.ex]
			if in.unit >= 0 {
				u := e.units[in.unit]
				g := sigmoid(u.score(w))
				if e.fixture {
					g *= cfg.fixtureWeight
				}
				if e.weight != 0 {
					g *= e.weight
				}
				step(u, g)
				continue
			}
			if len(e.units) == 0 {
				continue
			}
			scores = scores[:0]
			top := math.Inf(-1)
			for _, u := range e.units {
				s := math.Inf(-1)
				if !u.known {
					s = u.score(w)
				}
				scores = append(scores, s)
				top = max(top, s)
			}
			if math.IsInf(top, -1) {
				continue // every sentence known clean
			}
			var z float64
			for _, s := range scores {
				z += math.Exp(s - top)
			}
			p := sigmoid(top + math.Log(z))
			bagW := posW
			if e.weight != 0 {
				bagW *= e.weight
			}
			for k, u := range e.units {
				if !u.known {
					step(u, float64(bagW*(p-1))*math.Exp(scores[k]-top)/z)
				}
			}
		}
	}
	for i, x := range w {
		if math.Abs(x) < cfg.prune {
			w[i] = 0
		}
	}
	return w
}

// docScore is a definition's score: its top sentence's, less the
// threshold of the sentence's role.
func docScore(e example, w []float64, th [nRoles]float64) float64 {
	top := math.Inf(-1)
	for _, u := range e.units {
		top = max(top, u.score(w)-th[u.role])
	}
	return top
}

// thresholdFor returns, for each role, the highest score of a fixture
// sentence of that role among exs plus the margin: the lowest thresholds
// that flag no fixture definition, with room for real descriptions not
// seen. A role no fixture sentence has takes the highest of the others.
func thresholdFor(docs []doc, exs []example, w []float64, margin float64, perRole bool) [nRoles]float64 {
	var th [nRoles]float64
	for i := range th {
		th[i] = math.Inf(-1)
	}
	for i, d := range docs {
		if d.set != "fixtures" {
			continue
		}
		for _, u := range exs[i].units {
			th[u.role] = max(th[u.role], u.score(w))
		}
	}
	top := slices.Max(th[:])
	for i := range th {
		if math.IsInf(th[i], -1) || !perRole {
			th[i] = top
		}
		th[i] += margin
	}
	return th
}

// fitModel trains on every doc and returns the model file.
func fitModel(t testing.TB, cfg trainConfig) []byte {
	docs := corpus(t, false)
	exs := featurizeAll(docs, cfg.bits)
	w := train(exs, cfg)
	// The thresholds are taken on the weights as the file keeps them.
	s, err := ParseScorer(encodeScorer(cfg.bits, [nRoles]float64{}, w))
	if err != nil {
		t.Fatal(err)
	}
	for i, x := range s.w {
		w[i] = float64(x)
	}
	th := thresholdFor(docs, exs, w, cfg.margin, cfg.perRole)
	return encodeScorer(cfg.bits, th, w)
}

// TestTrainScorer rewrites scorer.bin under TRAIN=1. Without it, it
// checks that the committed model is what training on the committed data
// gives: a change of the features, the trainer or the sets needs a
// retrain. With SCORER_OUT it writes the model there instead and checks
// nothing (see the file comment).
func TestTrainScorer(t *testing.T) {
	if testing.Short() {
		t.Skip("training takes seconds")
	}
	if os.Getenv("TRAIN") == "" && runtime.GOARCH != "amd64" {
		// math.Exp and math.Log are assembly on amd64 and Go elsewhere,
		// where the compiler may fuse multiply-adds: the last bits of a
		// weight, and so the bytes, may differ.
		t.Skip("scorer.bin is checked byte for byte on amd64, where it is trained")
	}
	out := os.Getenv("SCORER_OUT")
	if out == "" && os.Getenv("SCORER_EXTRA") != "" {
		t.Fatal("SCORER_EXTRA is set but SCORER_OUT is not: scorer.bin is trained on the repo's sets only; name a file such as SCORER_OUT=/tmp/model.bin")
	}
	b := fitModel(t, defaultTrain)
	if out != "" {
		s, err := ParseScorer(b)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(out, b, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote %s: %d bytes, thresholds (f, d, p, v) %.3f", out, len(b), s.threshold)
		return
	}
	if os.Getenv("TRAIN") == "" {
		if !bytes.Equal(b, scorerBin) {
			t.Fatalf("scorer.bin (%d bytes) is not what training gives now (%d bytes): run TRAIN=1 go test ./internal/neutralize -run TestTrainScorer", len(scorerBin), len(b))
		}
		return
	}
	if err := os.WriteFile("scorer.bin", b, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote scorer.bin: %d bytes", len(b))
}

// TestScorerCrossValidation estimates held-out performance: for each set
// pair, train without it (and without a share of the fixture kinds),
// choose the threshold on the fixtures trained on, and score the pair and
// the fixture kinds left out. An untrained set is a fold too, and is
// never trained on in any fold, as the committed model never was. The
// rules are run on each line too; they were tuned on every set but
// train21 and blind4, so their figures are in-sample on the others.
func TestScorerCrossValidation(t *testing.T) {
	if os.Getenv("SCORER_CV") == "" {
		t.Skip("set SCORER_CV=1 to run the leave-one-set-out estimate")
	}
	cfg := defaultTrain
	if v := os.Getenv("SCORER_CV"); strings.Contains(v, ",") {
		fmt.Sscanf(v, "%d,%g,%g,%g,%g,%t,%g,%d,%g", &cfg.epochs, &cfg.rate, &cfg.l2, &cfg.posWeight, &cfg.margin, &cfg.perRole, &cfg.prune, &cfg.bits, &cfg.fixtureWeight)
	}
	docs := corpus(t, true)
	exs := featurizeAll(docs, cfg.bits)
	// SCORER_CV_SPLIT=name cuts that set into four folds by line, to
	// measure the scorer on a style it has seen in training.
	if split := os.Getenv("SCORER_CV_SPLIT"); split != "" {
		k := 0
		for i := range docs {
			if docs[i].set == split {
				docs[i].set = fmt.Sprintf("%s.%d", split, k%4)
				k++
			}
		}
	}
	var kinds []string
	var setNames []string
	for _, d := range docs {
		if d.set == "fixtures" && !slices.Contains(kinds, d.kind) {
			kinds = append(kinds, d.kind)
		}
		if d.set != "fixtures" && d.set != "jsonl" && !slices.Contains(setNames, d.set) {
			setNames = append(setNames, d.set)
		}
	}
	sort.Strings(kinds)
	// The fixture kinds are shared out among the repo's sets only, so
	// that their folds are the same with SCORER_EXTRA as without; an
	// external set's fold (they come last) holds out no fixture kind.
	repoSets := 0
	for _, s := range setNames {
		repoSets += b2i(!strings.HasPrefix(s, "external "))
	}
	held := map[string]int{}
	for i, k := range kinds {
		held[k] = i % repoSets
	}
	n := New()
	others := map[string]bool{}
	for _, d := range docs {
		if d.set == "fixtures" {
			others[d.name] = true
		}
	}
	var out bytes.Buffer
	fmt.Fprintf(&out, "%-8s %5s | %-14s %-14s | %-14s %-14s | %-14s %-14s | %s\n", "set", "n", "rules caught", "rules flagged", "scorer caught", "scorer flagged", "both caught", "both flagged", "fixture FP held out")
	var tot struct{ np, nc, rc, rf, sc, sf, bc, bf, fx, fxFP int }
	// sweep counts, at each margin, the poisoned lines caught and the
	// clean lines and held-out fixtures flagged by rules + scorer and by
	// the scorer alone, so that two feature sets can be compared at the
	// same false-positive rate, not only at the committed margin.
	margins := []float64{0.5, 1, 1.5, 2, 3}
	type sweepRow struct{ bc, bf, sc, sf, fxFP int }
	sweep := make([]sweepRow, len(margins))
	// sole counts, for each rule kind, the poisoned lines that only
	// that kind's rules catch, and backed those of them the held-out
	// scorer catches too: how many catches hang on one family of rules
	// and would go if it were dropped.
	sole, backed := map[Rule]int{}, map[Rule]int{}
	for fold, s := range setNames {
		var trX []example
		var trD []doc
		for i, d := range docs {
			if d.set == s || untrained[d.set] || d.set == "fixtures" && held[d.kind] == fold {
				continue
			}
			trX = append(trX, exs[i])
			trD = append(trD, d)
		}
		w := train(trX, cfg)
		th := thresholdFor(trD, trX, w, cfg.margin, cfg.perRole)
		th0 := thresholdFor(trD, trX, w, 0, cfg.perRole)
		for i, d := range docs {
			if d.set != s && !(d.set == "fixtures" && held[d.kind] == fold) {
				continue
			}
			score := docScore(exs[i], w, th0)
			rule := d.set != "fixtures" && len(n.Inspect(d.line, others)) > 0
			for k, m := range margins {
				learned := score > m
				switch {
				case d.set == "fixtures":
					sweep[k].fxFP += b2i(learned)
				case d.poisoned:
					sweep[k].bc += b2i(rule || learned)
					sweep[k].sc += b2i(learned)
				default:
					sweep[k].bf += b2i(rule || learned)
					sweep[k].sf += b2i(learned)
				}
			}
			if d.set == "fixtures" || !d.poisoned {
				continue
			}
			kinds := map[Rule]bool{}
			for _, f := range n.Inspect(d.line, others) {
				kinds[f.Rule] = true
			}
			if len(kinds) == 1 {
				for r := range kinds {
					sole[r]++
					backed[r] += b2i(docScore(exs[i], w, th) > 0)
				}
			}
		}
		var np, nc, rc, rf, sc, sf, bc, bf, fx, fxFP int
		for i, d := range docs {
			if d.set == "fixtures" && held[d.kind] == fold {
				fx++
				if docScore(exs[i], w, th) > 0 {
					fxFP++
					t.Logf("fold %s: fixture %s/%s flagged (%.2f over)", s, d.kind, d.name, docScore(exs[i], w, th))
				}
				continue
			}
			if d.set != s {
				continue
			}
			rule := len(n.Inspect(d.line, others)) > 0
			learned := docScore(exs[i], w, th) > 0
			both := rule || learned
			if d.poisoned {
				np++
				rc += b2i(rule)
				sc += b2i(learned)
				bc += b2i(both)
				if !both {
					t.Logf("fold %s: missed %q", s, d.line)
				}
			} else {
				nc++
				rf += b2i(rule)
				sf += b2i(learned)
				bf += b2i(both)
				if both && !rule {
					t.Logf("fold %s: scorer flagged clean %q", s, d.line)
				}
			}
		}
		fmt.Fprintf(&out, "%-8s %5d | %-14s %-14s | %-14s %-14s | %-14s %-14s | %d/%d\n", s, np, frac(rc, np), frac(rf, nc), frac(sc, np), frac(sf, nc), frac(bc, np), frac(bf, nc), fxFP, fx)
		tot.np += np
		tot.nc += nc
		tot.rc += rc
		tot.rf += rf
		tot.sc += sc
		tot.sf += sf
		tot.bc += bc
		tot.bf += bf
		tot.fx += fx
		tot.fxFP += fxFP
	}
	fmt.Fprintf(&out, "%-8s %5d | %-14s %-14s | %-14s %-14s | %-14s %-14s | %d/%d\n", "pooled", tot.np, frac(tot.rc, tot.np), frac(tot.rf, tot.nc), frac(tot.sc, tot.np), frac(tot.sf, tot.nc), frac(tot.bc, tot.np), frac(tot.bf, tot.nc), tot.fxFP, tot.fx)
	fmt.Fprintf(&out, "\npooled by margin (the threshold is the highest trained-on fixture sentence plus the margin)\n%-6s | %-14s %-14s | %-14s %-14s | %s\n", "margin", "both caught", "both flagged", "scorer caught", "scorer flagged", "fixture FP held out")
	for k, m := range margins {
		r := sweep[k]
		fmt.Fprintf(&out, "%-6.1f | %-14s %-14s | %-14s %-14s | %d/%d\n", m, frac(r.bc, tot.np), frac(r.bf, tot.nc), frac(r.sc, tot.np), frac(r.sf, tot.nc), r.fxFP, tot.fx)
	}
	ruleKinds := slices.Sorted(maps.Keys(sole))
	fmt.Fprintf(&out, "\npoisoned lines only one rule kind catches, and how many of them the held-out scorer catches (margin %.1f)\n", cfg.margin)
	for _, r := range ruleKinds {
		fmt.Fprintf(&out, "%-18s %4d, scorer %s\n", r, sole[r], frac(backed[r], sole[r]))
	}
	t.Logf("leave-one-set-out, %+v\n%s", cfg, out.String())
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func frac(a, b int) string {
	if b == 0 {
		return "-"
	}
	return fmt.Sprintf("%d/%d %3.0f%%", a, b, 100*float64(a)/float64(b))
}
