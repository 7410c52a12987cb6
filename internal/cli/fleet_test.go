package cli_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpfleet/mcpfleet/internal/cli"
	"github.com/mcpfleet/mcpfleet/internal/fixtures"
	"github.com/mcpfleet/mcpfleet/internal/testfleet"
)

// fleetServer is one stdio test server serving a fixture's tools.
type fleetServer struct{ name, kind, fixture string }

// stdFleet is a small incident-ops fleet: three identical clusters, a
// read-only and a read-write GitLab folded into one kind, and Prometheus.
var stdFleet = []fleetServer{
	{"k8s-1", "kubernetes", "kubernetes"},
	{"k8s-2", "kubernetes", "kubernetes"},
	{"k8s-3", "kubernetes", "kubernetes"},
	{"gitlab-a", "gitlab", "gitlab_readonly"},
	{"gitlab-a-write", "gitlab", "gitlab"},
	{"prometheus-a", "prometheus", "prometheus"},
}

// writeFleet writes a fleet file serving servers over stdio with the
// testfleet server binary, plus extra YAML appended verbatim, and returns
// its path. It skips the test when the fixtures are absent.
func writeFleet(t *testing.T, servers []fleetServer, extra string) string {
	t.Helper()
	dir := fixtures.Dir()
	if dir == "" {
		t.Skip("skipping: real tool fixtures not found at ../shared/fixtures/tools (set MCPFLEET_FIXTURES)")
	}
	bin := testfleet.StdioBinary(t)
	var b strings.Builder
	b.WriteString("servers:\n")
	for _, s := range servers {
		fmt.Fprintf(&b, "  - name: %s\n    kind: %s\n    transport: stdio\n    command: %q\n", s.name, s.kind, bin)
		fmt.Fprintf(&b, "    args: [\"--name\", %q, \"--fixture\", %q]\n", s.name, filepath.Join(dir, s.fixture+".json"))
	}
	b.WriteString(extra)
	path := filepath.Join(t.TempDir(), "fleet.yaml")
	if err := os.WriteFile(path, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// result is one in-process run of the CLI.
type result struct {
	code           int
	stdout, stderr string
}

func run(t *testing.T, env []string, stdin string, args ...string) result {
	t.Helper()
	var out, errb bytes.Buffer
	err := cli.Run(t.Context(), env, strings.NewReader(stdin), &out, &errb, args)
	code := 0
	if err != nil {
		code = 1
		var ec interface{ ExitCode() int }
		if errors.As(err, &ec) {
			code = ec.ExitCode()
		}
	}
	return result{code: code, stdout: out.String(), stderr: errb.String()}
}

// transcript renders a run for a golden file, with the fleet file's
// temporary path replaced by its base name.
func transcript(cfg string, args []string, r result) string {
	shown := make([]string, len(args))
	for i, a := range args {
		shown[i] = strings.ReplaceAll(a, cfg, "fleet.yaml")
		if strings.ContainsAny(shown[i], " {}\"'") {
			shown[i] = "'" + shown[i] + "'"
		}
	}
	clean := func(s string) string { return strings.ReplaceAll(s, cfg, "fleet.yaml") }
	return fmt.Sprintf("$ mcpfleet %s\n--> exit %d\n-- stdout --\n%s-- stderr --\n%s",
		strings.Join(shown, " "), r.code, clean(r.stdout), clean(r.stderr))
}

// TestFleetFileReadsTheGivenEnvironment: MCPFLEET_* overrides come from
// the environment passed to Run, not from the process.
func TestFleetFileReadsTheGivenEnvironment(t *testing.T) {
	cfg := filepath.Join(t.TempDir(), "fleet.yaml")
	if err := os.WriteFile(cfg, []byte("servers:\n  - {name: a, command: /nonexistent/mcp-server}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	const bad = "sometimes"
	const problem = `deferred_tools: got "sometimes"`
	t.Setenv("MCPFLEET_DEFERRED_TOOLS", bad)
	tests := []struct {
		name        string
		env         []string
		wantProblem bool
	}{
		{"override in the given environment", []string{"MCPFLEET_DEFERRED_TOOLS=" + bad}, true},
		{"override only in the process", []string{"HOME=/tmp"}, false},
		// Run's env is the whole environment: nil is none, as everywhere
		// else in the CLI, not the process's.
		{"nil environment", nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := run(t, tt.env, "", "status", "--config", cfg)
			if got := strings.Contains(r.stderr, problem); got != tt.wantProblem {
				t.Errorf("stderr mentions %q: %v, want %v\nexit %d\n%s", problem, got, tt.wantProblem, r.code, r.stderr)
			}
		})
	}
}
