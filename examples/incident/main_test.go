package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpfleet/mcpfleet/examples/incident/fleet"
	"github.com/mcpfleet/mcpfleet/internal/goldenfile"
)

// bins are the binaries TestMain builds once for every test.
var bins struct{ incident, cli, err string }

func TestMain(m *testing.M) {
	flag.Parse()
	if testing.Short() {
		os.Exit(m.Run())
	}
	dir, err := os.MkdirTemp("", "incident-test")
	if err != nil {
		panic(err)
	}
	bins.incident, bins.cli = filepath.Join(dir, "incident"), filepath.Join(dir, "mcpfleet")
	for pkg, out := range map[string]string{"./examples/incident": bins.incident, "./cmd/mcpfleet": bins.cli} {
		cmd := exec.Command("go", "build", "-o", out, pkg)
		cmd.Dir = "../.."
		if b, err := cmd.CombinedOutput(); err != nil {
			bins.err += fmt.Sprintf("go build %s: %v\n%s", pkg, err, b)
		}
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// binary returns a built binary, skipping with -short.
func binary(t *testing.T, path string) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds and runs binaries; skipped with -short")
	}
	if bins.err != "" {
		t.Fatal(bins.err)
	}
	return path
}

// runJSON runs the example with --json and decodes its output.
func runJSON(t *testing.T, bin string, args ...string) Output {
	t.Helper()
	cmd := exec.CommandContext(t.Context(), bin, append([]string{"--json"}, args...)...)
	cmd.Env = withoutModelEnv(os.Environ())
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s %v: %v\nstderr:\n%s", bin, args, err, stderr.String())
	}
	var out Output
	if err := json.Unmarshal(stdout.Bytes(), &out); err != nil {
		t.Fatalf("decoding --json output: %v\n%s", err, stdout.String())
	}
	return out
}

// withoutModelEnv drops the real-model settings so the planner runs.
func withoutModelEnv(env []string) []string {
	return slices.DeleteFunc(slices.Clone(env), func(kv string) bool {
		return strings.HasPrefix(kv, "MCPFLEET_MODEL=") || strings.HasPrefix(kv, "MCPFLEET_FLEET_BIN=")
	})
}

func TestEndToEnd(t *testing.T) {
	bin := binary(t, bins.incident)
	for _, mode := range []struct {
		name string
		args []string
	}{{"stdio", nil}, {"inprocess", []string{"--inprocess"}}} {
		t.Run(mode.name, func(t *testing.T) {
			out := runJSON(t, bin, mode.args...)
			checkRun(t, out)
		})
	}
}

func checkRun(t *testing.T, out Output) {
	t.Helper()
	if out.Error != "" {
		t.Fatalf("run error: %s", out.Error)
	}
	if len(out.Fleet.Down) > 0 {
		t.Errorf("servers down: %v", out.Fleet.Down)
	}
	if out.Model != "scripted planner (offline)" {
		t.Errorf("model = %q, want the offline planner", out.Model)
	}
	// The root cause: MR !482 on gitlab-a, deployed to k8s-3, payments-api crash-looping.
	_, root, _ := strings.Cut(out.Report, "Root cause:")
	root, _, _ = strings.Cut(root, "\n")
	for _, want := range []string{"!482", "gitlab-a", "k8s-3", "payments-api", "CrashLoopBackOff"} {
		if !strings.Contains(root, want) {
			t.Errorf("root cause line lacks %q: %s", want, root)
		}
	}
	var loaded, repaired, rejected, offloaded bool
	for _, s := range out.Subagents {
		loaded = loaded || len(s.Loaded) > 0
		offloaded = offloaded || len(s.Offloaded) > 0
		for _, l := range s.Lines {
			repaired = repaired || l.Status == "repaired"
			rejected = rejected || (l.Status == "rejected" && l.Server != "")
		}
	}
	got := map[string]bool{"loadTools": loaded, "repaired": repaired, "rejected": rejected, "offloaded": offloaded}
	want := map[string]bool{"loadTools": true, "repaired": true, "rejected": true, "offloaded": true}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("gates shown (-want +got):\n%s", diff)
	}
	checkOrchestratorBlind(t, out)
}

// checkOrchestratorBlind: the orchestrator was offered only spawnSubagents
// and none of its messages names a fleet tool.
func checkOrchestratorBlind(t *testing.T, out Output) {
	t.Helper()
	if len(out.Orchestrator) == 0 {
		t.Fatal("no orchestrator model calls recorded")
	}
	var names []string
	for _, k := range fleet.Kinds() {
		tools, err := fleet.Tools(fleet.Instance{Kind: k, Name: k})
		if err != nil {
			t.Fatal(err)
		}
		for _, tl := range tools {
			names = append(names, tl.Name)
		}
	}
	for i, c := range out.Orchestrator {
		if diff := cmp.Diff([]string{"spawnSubagents"}, c.Tools); diff != "" {
			t.Errorf("orchestrator call %d tools (-want +got):\n%s", i, diff)
		}
		for _, m := range c.Messages {
			text := m.Content
			for _, tc := range m.ToolCalls {
				text += " " + tc.Function.Arguments
			}
			for _, n := range names {
				if containsWord(text, n) {
					t.Errorf("orchestrator call %d: a %s message names fleet tool %q", i, m.Role, n)
				}
			}
		}
	}
}

// containsWord reports whether s contains w not inside a longer identifier.
func containsWord(s, w string) bool {
	ident := func(b byte) bool {
		return b == '_' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9'
	}
	for i := 0; ; {
		j := strings.Index(s[i:], w)
		if j < 0 {
			return false
		}
		j += i
		end := j + len(w)
		if (j == 0 || !ident(s[j-1])) && (end == len(s) || !ident(s[end])) {
			return true
		}
		i = j + 1
	}
}

// TestTokenTableMatchesCLI: the fleet-wide rows equal `mcpfleet tokens --json`.
func TestTokenTableMatchesCLI(t *testing.T) {
	bin := binary(t, bins.incident)
	cli := binary(t, bins.cli)
	out := runJSON(t, bin, "--inprocess")
	cmd := exec.CommandContext(t.Context(), cli, "tokens", "--config", "examples/incident/fleet.yaml", "--json")
	cmd.Dir = "../.."
	cmd.Env = append(withoutModelEnv(os.Environ()), "MCPFLEET_FLEET_BIN="+bin)
	b, err := cmd.Output()
	if err != nil {
		t.Fatalf("mcpfleet tokens: %v", err)
	}
	var want TokenTable
	if err := json.Unmarshal(b, &want); err != nil {
		t.Fatal(err)
	}
	got := out.Tokens
	got.Subagents, got.OrchestratorCall = nil, 0 // not part of `mcpfleet tokens`
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("token table vs mcpfleet tokens --json (-want +got):\n%s", diff)
	}
	if got.FullTokens == 0 || got.OrchestratorTokens == 0 {
		t.Errorf("empty figures: %+v", got)
	}
}

// TestTokensChartCurrent: docs/tokens.svg is what `make tokens-chart`
// draws today, so the README's chart never drifts from the figures.
// `go test ./examples/incident -run TokensChart -update` redraws it.
func TestTokensChartCurrent(t *testing.T) {
	bin := binary(t, bins.incident)
	cli := binary(t, bins.cli)
	svg := filepath.Join(t.TempDir(), "tokens.svg")
	cmd := exec.CommandContext(t.Context(), cli, "tokens", "--config", "examples/incident/fleet.yaml",
		"--servers", "k8s-3,prometheus-b,gitlab-a", "--svg", svg)
	cmd.Dir = "../.."
	cmd.Env = append(withoutModelEnv(os.Environ()), "MCPFLEET_FLEET_BIN="+bin)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("mcpfleet tokens --svg: %v\n%s", err, b)
	}
	got, err := os.ReadFile(svg)
	if err != nil {
		t.Fatal(err)
	}
	goldenfile.Check(t, "../../docs/tokens.svg", string(got))
}

// TestTranscript runs the default text mode: no colour off a terminal, the
// report and the table present.
func TestTranscript(t *testing.T) {
	bin := binary(t, bins.incident)
	cmd := exec.CommandContext(t.Context(), bin, "--inprocess")
	cmd.Env = withoutModelEnv(os.Environ())
	b, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, b)
	}
	s := string(b)
	for _, want := range []string{"scripted planner (offline)", "INCIDENT REPORT", "Root cause: merge request !482", "loadTools", "repaired", "rejected", "offloaded", "full catalog"} {
		if !strings.Contains(s, want) {
			t.Errorf("transcript lacks %q", want)
		}
	}
	if strings.Contains(s, "\x1b[") {
		t.Error("transcript has ANSI escapes although stdout is not a terminal")
	}
}
