package judge_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/mcpfleet/mcpfleet/adapters/eino/judge"
	"github.com/mcpfleet/mcpfleet/adapters/eino/openai"
	"github.com/mcpfleet/mcpfleet/config"
	"github.com/mcpfleet/mcpfleet/internal/fixtures"
	"github.com/mcpfleet/mcpfleet/internal/pinning"
)

// TestJudgeCorpora measures a real model as the judge: how many poisoned
// definitions it catches and how many clean ones it flags, on the
// neutralizer's hand-written sets, every fixture tool, and the
// poisoned_NAME.txt / clean_NAME.txt pairs of any folder POISON_CORPUS
// names (the format of internal/neutralize's TestInspectBlindSets). It
// needs a model, so it runs only when asked:
//
//	JUDGE_EVAL=1 MCPFLEET_MODEL=gpt-4.1 OPENAI_BASE_URL=https://api.openai.com/v1 OPENAI_API_KEY=… \
//	  POISON_CORPUS=/data/public29 go test ./adapters/eino/judge -run TestJudgeCorpora -v -timeout 2h
//
// JUDGE_EVAL_PARALLEL (default 4) sets how many requests run at once. It
// logs each set's figures and every miss, flag and unanswered request;
// it fails only when the model cannot be reached at all.
func TestJudgeCorpora(t *testing.T) {
	if os.Getenv("JUDGE_EVAL") == "" {
		t.Skip("set JUDGE_EVAL=1 and a model (MCPFLEET_MODEL, OPENAI_BASE_URL, OPENAI_API_KEY) to measure a judge")
	}
	mc, err := openai.ModelConfigFromEnv(nil)
	if err != nil {
		t.Fatal(err)
	}
	m, err := openai.NewModel(t.Context(), mc)
	if err != nil {
		t.Fatal(err)
	}
	j := judge.New(m, mc.Model)
	parallel, _ := strconv.Atoi(os.Getenv("JUDGE_EVAL_PARALLEL"))
	if parallel <= 0 {
		parallel = judge.DefaultParallel
	}

	type set struct {
		name     string
		poisoned bool
		defs     []json.RawMessage
	}
	var sets []set
	testdata := filepath.Join("..", "..", "..", "internal", "neutralize", "testdata")
	files, _ := filepath.Glob(filepath.Join(testdata, "*_*.txt"))
	if dir := os.Getenv("POISON_CORPUS"); dir != "" {
		more, _ := filepath.Glob(filepath.Join(dir, "*_*.txt"))
		files = append(files, more...)
	}
	for _, f := range files {
		base := filepath.Base(f)
		poisoned := strings.HasPrefix(base, "poisoned_")
		if !poisoned && !strings.HasPrefix(base, "clean_") {
			continue
		}
		sets = append(sets, set{name: f, poisoned: poisoned, defs: lineDefinitions(t, f)})
	}
	jsonl, _ := filepath.Glob(filepath.Join(testdata, "poisoned*.jsonl"))
	for _, f := range jsonl {
		sets = append(sets, set{name: f, poisoned: true, defs: textDefinitions(t, f)})
	}
	var fx set
	fx.name = "fixtures (" + fixtures.Dir() + ")"
	entries, _ := os.ReadDir(fixtures.Dir())
	for _, e := range entries {
		kind, ok := strings.CutSuffix(e.Name(), ".json")
		if !ok {
			continue
		}
		for _, tl := range fixtures.MustLoad(t, kind).Tools {
			fx.defs = append(fx.defs, pinning.Canonical(tl))
		}
	}
	sets = append(sets, fx)

	reached := false
	for _, s := range sets {
		// Each set is judged as a lock of one kind, a tool per line, by
		// the code lock --judge runs.
		tools := make(map[string]config.LockedTool, len(s.defs))
		for i, d := range s.defs {
			tools[fmt.Sprintf("%05d", i+1)] = config.LockedTool{Definition: d}
		}
		lock := &config.Lock{Kinds: map[string]config.LockedKind{"set": {Tools: tools}}}
		judged, errs := j.JudgeLock(t.Context(), lock, parallel)
		reached = reached || judged > 0
		for _, err := range errs {
			t.Logf("%s: no verdict: %v", s.name, err)
		}
		hits := 0
		for i, d := range s.defs {
			v := tools[fmt.Sprintf("%05d", i+1)].Judged
			switch {
			case v == nil:
			case v.Verdict == config.VerdictPoisoned:
				hits++
				if !s.poisoned {
					t.Logf("%s #%d: flagged (%s, %q): %.200s", s.name, i+1, v.Class, v.Evidence, d)
				}
			case s.poisoned:
				t.Logf("%s #%d: missed: %.200s", s.name, i+1, d)
			}
		}
		what := "flagged"
		if s.poisoned {
			what = "caught"
		}
		t.Logf("set %s: %s %d of %d (%.1f%%), %d without a verdict", s.name, what, hits, judged,
			100*float64(hits)/float64(max(1, judged)), len(errs))
	}
	if !reached {
		t.Fatalf("no verdict at all from %s at %s", mc.Model, mc.BaseURL)
	}
}

// lineDefinitions reads a set file, one definition a line as the
// neutralizer's tests read it (`\n` stands for a line break), each as a
// definition whose description is the line.
func lineDefinitions(t *testing.T, file string) []json.RawMessage {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var out []json.RawMessage
	for l := range strings.SplitSeq(strings.TrimRight(string(b), "\n"), "\n") {
		if l == "" {
			continue
		}
		d, _ := json.Marshal(map[string]string{"description": strings.ReplaceAll(l, `\n`, "\n")})
		out = append(out, d)
	}
	return out
}

// textDefinitions reads a JSON Lines corpus of {"technique", "text"}
// entries, each as a definition whose description is the text.
func textDefinitions(t *testing.T, file string) []json.RawMessage {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var out []json.RawMessage
	for l := range strings.SplitSeq(strings.TrimSpace(string(b)), "\n") {
		var e struct{ Text string }
		if err := json.Unmarshal([]byte(l), &e); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		d, _ := json.Marshal(map[string]string{"description": e.Text})
		out = append(out, d)
	}
	return out
}
