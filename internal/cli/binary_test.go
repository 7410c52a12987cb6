package cli_test

import (
	"errors"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestBinary builds the real mcpfleet binary once and checks, through
// os/exec, that main maps Run's errors to the documented exit codes.
func TestBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("skipping: builds the mcpfleet binary")
	}
	cfg := writeFleet(t, stdFleet[:1], "")
	bin := filepath.Join(t.TempDir(), "mcpfleet")
	build := exec.Command("go", "build", "-o", bin, "./cmd/mcpfleet")
	build.Dir = filepath.Join("..", "..")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	tests := []struct {
		name   string
		args   []string
		code   int
		stdout string // substring
		stderr string // substring
	}{
		{"ok", []string{"overview", "--config", cfg}, 0, "kubernetes: k8s-1", ""},
		{"call", []string{"call", "k8s-1", "pods_log", `{"name":"api-0"}`, "--config", cfg}, 0, `k8s-1 pods_log {"name":"api-0"}`, ""},
		{"rejected", []string{"call", "--config", cfg, "k8s-1", "pods_log", `{"name":"<unknown>"}`}, 1, "", "rejected (placeholder)"},
		{"tool error", []string{"call", "--config", cfg, "k8s-1", "fail"}, 1, "failed on purpose", "the tool reported an error"},
		{"usage", []string{"overveiw"}, 2, "", `did you mean "overview"?`},
		{"help", []string{"help"}, 0, "eval-search", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cmd := exec.CommandContext(t.Context(), bin, tt.args...)
			var out, errb strings.Builder
			cmd.Stdout, cmd.Stderr = &out, &errb
			err := cmd.Run()
			code := 0
			var ee *exec.ExitError
			if errors.As(err, &ee) {
				code = ee.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
			if code != tt.code {
				t.Errorf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tt.code, out.String(), errb.String())
			}
			if !strings.Contains(out.String(), tt.stdout) {
				t.Errorf("stdout lacks %q:\n%s", tt.stdout, out.String())
			}
			if !strings.Contains(errb.String(), tt.stderr) {
				t.Errorf("stderr lacks %q:\n%s", tt.stderr, errb.String())
			}
		})
	}
}
