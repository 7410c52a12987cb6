package cli_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

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
