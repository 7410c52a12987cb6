package cli_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpfleet/mcpfleet/catalog/tuning"
	"github.com/mcpfleet/mcpfleet/config"
	"github.com/mcpfleet/mcpfleet/internal/goldenfile"
)

// mineQueries are labelled requests by three writers (the splits) to the
// CLI test fleet. What they say, and what mining must make of it with the
// default options:
//   - "stack trace" for pods_log, by all three: mined, both words and
//     the pair;
//   - "shell" for pods_exec, by two: mined;
//   - "error rate" for execute_query, by two: mined;
//   - "checkout", a service named as often in requests to kubernetes as
//     to prometheus: not mined, no kind owns the word;
//   - "kindly", one writer's habit for list_metrics: not mined.
const mineQueries = `{"q": "show the stack trace from payments", "expect": ["kubernetes:pods_log"], "split": "alice"}
{"q": "grab the stack trace for payments-7f9c", "expect": ["kubernetes:pods_log"], "split": "bob"}
{"q": "where is the stack trace of the crashing worker", "expect": ["kubernetes:pods_log"], "split": "carol"}
{"q": "open a shell in checkout", "expect": ["kubernetes:pods_exec"], "split": "alice"}
{"q": "get a shell on checkout", "expect": ["kubernetes:pods_exec"], "split": "bob"}
{"q": "shell into checkout", "expect": ["kubernetes:pods_exec"], "split": "alice"}
{"q": "error rate of checkout", "expect": ["prometheus:execute_query"], "split": "alice"}
{"q": "what is the checkout error rate", "expect": ["prometheus:execute_query"], "split": "carol"}
{"q": "checkout error rate now", "expect": ["prometheus:execute_query"], "split": "carol"}
{"q": "kindly list metrics", "expect": ["prometheus:list_metrics"], "split": "bob"}
{"q": "kindly name the metrics", "expect": ["prometheus:list_metrics"], "split": "bob"}
{"q": "kindly enumerate metrics", "expect": ["prometheus:list_metrics"], "split": "bob"}
`

// minePresetsOff keeps the presets out of the mining tests: the
// kubernetes and prometheus presets already say "stack trace" and "error
// rate", so with them search finds these requests' tools and there is
// nothing to mine. These tests pin the miner, on the bare fleet.
const minePresetsOff = "presets: false\n"

// writeMineQueries writes mineQueries into dir and returns its path.
func writeMineQueries(t *testing.T, dir string) string {
	t.Helper()
	path := filepath.Join(dir, "mine.jsonl")
	if err := os.WriteFile(path, []byte(mineQueries), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestMineAliasesGolden pins the fragment an operator reviews.
func TestMineAliasesGolden(t *testing.T) {
	cfg := writeFleet(t, stdFleet, minePresetsOff)
	dir := filepath.Dir(cfg)
	args := []string{"mine-aliases", "--config", cfg, "--queries", writeMineQueries(t, dir)}
	r := run(t, nil, "", args...)
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	goldenfile.CheckNamed(t, "mine_aliases", strings.ReplaceAll(transcript(cfg, args, r), dir, "$DIR"))
}

// TestMineAliasesJSON: each flag reaches the miner, and none mined is
// an empty array.
func TestMineAliasesJSON(t *testing.T) {
	cfg := writeFleet(t, stdFleet, minePresetsOff)
	queries := writeMineQueries(t, filepath.Dir(cfg))
	mined := func(kind, tool, phrase string, queries, splits int, precision float64) tuning.MinedAlias {
		return tuning.MinedAlias{Kind: kind, Tool: tool, Phrase: phrase, Queries: queries, Splits: splits, Precision: precision}
	}
	var (
		shell      = mined("kubernetes", "pods_exec", "shell", 3, 2, 1)
		stack      = mined("kubernetes", "pods_log", "stack", 3, 3, 1)
		stackTrace = mined("kubernetes", "pods_log", "stack trace", 3, 3, 1)
		trace      = mined("kubernetes", "pods_log", "trace", 3, 3, 1)
		errorWord  = mined("prometheus", "execute_query", "error", 3, 2, 1)
		errorRate  = mined("prometheus", "execute_query", "error rate", 3, 2, 1)
		rate       = mined("prometheus", "execute_query", "rate", 3, 2, 1)
	)
	tests := []struct {
		name  string
		flags []string
		want  []tuning.MinedAlias
	}{
		{"defaults", nil, []tuning.MinedAlias{shell, stack, stackTrace, trace, errorWord, errorRate, rate}},
		{"one writer suffices", []string{"--min-splits", "1"}, []tuning.MinedAlias{shell, stack, stackTrace, trace,
			errorWord, errorRate, rate, mined("prometheus", "list_metrics", "kindly", 3, 1, 1)}},
		{"a service name shared by two kinds", []string{"--min-kind-share", "0.5"}, []tuning.MinedAlias{
			shell, mined("kubernetes", "pods_exec", "checkout", 3, 2, 0.5), stack, stackTrace, trace,
			errorWord, errorRate, rate, mined("prometheus", "execute_query", "checkout", 3, 2, 0.5)}},
		{"the best per tool", []string{"--max-per-tool", "1"}, []tuning.MinedAlias{shell, stack, errorWord}},
		{"strict precision", []string{"--min-kind-share", "0.5", "--min-precision", "0.6"},
			[]tuning.MinedAlias{shell, stack, stackTrace, trace, errorWord, errorRate, rate}},
		{"none", []string{"--min-queries", "4"}, []tuning.MinedAlias{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := append([]string{"mine-aliases", "--json", "--config", cfg, "--queries", queries}, tt.flags...)
			r := run(t, nil, "", args...)
			if r.code != 0 || r.stderr != "" {
				t.Fatalf("exit %d, stderr:\n%s", r.code, r.stderr)
			}
			var got []tuning.MinedAlias
			if err := json.Unmarshal([]byte(r.stdout), &got); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("mined (-want +got):\n%s", diff)
			}
		})
	}
}

// TestMineAliasesFragmentLoads: the fragment, pasted into a fleet file,
// is what config.Load reads as those kinds' aliases, and mining again
// with them in place finds nothing new, so the aliases reach the catalog.
func TestMineAliasesFragmentLoads(t *testing.T) {
	plain := writeFleet(t, stdFleet, minePresetsOff)
	queries := writeMineQueries(t, filepath.Dir(plain))
	r := run(t, nil, "", "mine-aliases", "--config", plain, "--queries", queries)
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	withAliases := writeFleetIn(t, plain, "aliased.yaml", r.stdout)
	f, err := config.Load(withAliases)
	if err != nil {
		t.Fatalf("the mined fragment does not load:\n%s\n%v", r.stdout, err)
	}
	want := map[string]map[string][]string{
		"kubernetes": {"pods_exec": {"shell"}, "pods_log": {"stack", "stack trace", "trace"}},
		"prometheus": {"execute_query": {"error", "error rate", "rate"}},
	}
	got := map[string]map[string][]string{}
	for kind, ks := range f.KindSettings {
		got[kind] = ks.Aliases
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("loaded aliases (-want +got):\n%s", diff)
	}

	again := run(t, nil, "", "mine-aliases", "--config", withAliases, "--queries", queries)
	wantAgain := "# No aliases mined from 12 labelled requests in " + queries + ".\n"
	if again.code != 0 || again.stdout != wantAgain || again.stderr != "" {
		t.Errorf("mining with the aliases in place: exit %d\nstdout %q, want %q\nstderr %q", again.code, again.stdout, wantAgain, again.stderr)
	}
}

// TestMineAliasesErrors: bad flags are usage errors that name the flag,
// found before the fleet file is read (it does not exist here).
func TestMineAliasesErrors(t *testing.T) {
	const noFleet = "/nonexistent/fleet.yaml"
	queries := writeMineQueries(t, t.TempDir())
	tests := []struct {
		name   string
		flags  []string
		code   int
		stderr []string
	}{
		{"no queries flag", nil, 2, []string{"mine-aliases needs --queries FILE", "run 'mcpfleet mine-aliases -h'"}},
		{"an argument", []string{"--queries", queries, "extra"}, 2, []string{`mine-aliases takes no arguments, got ["extra"]`}},
		{"negative queries", []string{"--queries", queries, "--min-queries", "-1"}, 2, []string{"--min-queries must be at least 1, got -1"}},
		// Zero would silently mean the default.
		{"zero splits", []string{"--queries", queries, "--min-splits", "0"}, 2, []string{"--min-splits must be at least 1, got 0"}},
		{"negative per tool", []string{"--queries", queries, "--max-per-tool", "-3"}, 2, []string{"--max-per-tool must be at least 1, got -3"}},
		{"zero precision", []string{"--queries", queries, "--min-precision", "0"}, 2, []string{"--min-precision must be above 0 and at most 1, got 0"}},
		{"precision above 1", []string{"--queries", queries, "--min-precision", "1.5"}, 2, []string{"--min-precision must be above 0 and at most 1, got 1.5"}},
		{"NaN kind share", []string{"--queries", queries, "--min-kind-share", "NaN"}, 2, []string{"--min-kind-share must be above 0 and at most 1, got NaN"}},
		{"every bad flag at once", []string{"--queries", queries, "--min-queries", "0", "--min-kind-share", "-0.1"}, 2,
			[]string{"--min-kind-share must be above 0 and at most 1, got -0.1; --min-queries must be at least 1, got 0"}},
		{"not a number", []string{"--queries", queries, "--min-splits", "two"}, 2, []string{`invalid value "two" for flag -min-splits`}},
		{"no queries file", []string{"--queries", "/nonexistent/q.jsonl"}, 1, []string{"mcpfleet mine-aliases: open /nonexistent/q.jsonl: no such file"}},
		// Valid flags get as far as the fleet file.
		{"the edges are valid", []string{"--queries", queries, "--min-precision", "1", "--min-kind-share", "1", "--min-queries", "1"}, 1,
			[]string{"mcpfleet mine-aliases: config:"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := run(t, nil, "", append([]string{"mine-aliases", "--config", noFleet}, tt.flags...)...)
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

// TestMineAliasesFragmentLoadsOddPath: the queries file's path goes into
// a YAML comment, and a line break in it must not end the comment.
func TestMineAliasesFragmentLoadsOddPath(t *testing.T) {
	plain := writeFleet(t, stdFleet, minePresetsOff)
	queries := filepath.Join(filepath.Dir(plain), "mine\nkind_settings: {}\u2028.jsonl")
	if err := os.WriteFile(queries, []byte(mineQueries), 0o600); err != nil {
		t.Skipf("this file system refuses the name: %v", err)
	}
	r := run(t, nil, "", "mine-aliases", "--config", plain, "--queries", queries)
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	f, err := config.Load(writeFleetIn(t, plain, "aliased.yaml", r.stdout))
	if err != nil {
		t.Fatalf("the mined fragment does not load:\n%s\n%v", r.stdout, err)
	}
	if got := f.KindSettings["kubernetes"].Aliases["pods_exec"]; !slices.Equal(got, []string{"shell"}) {
		t.Errorf("loaded pods_exec aliases %q, want [shell]", got)
	}
}
