package realservers

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcpfleet/mcpfleet"
	"github.com/mcpfleet/mcpfleet/config"
)

// envDir names the folder the installer filled.
const envDir = "MCPFLEET_REAL_SERVERS"

// bins are the installed servers the fleet needs, under node_modules/.bin.
var bins = []string{"kubernetes-mcp-server", "mcp-gitlab", "mcp-server-filesystem", "mcp-server-memory", "mcp-server-everything"}

// realDir returns the install folder, or skips the test saying how to get it.
func realDir(t testing.TB) string {
	t.Helper()
	d := os.Getenv(envDir)
	if d == "" {
		t.Skip("real MCP servers not installed: run make test (it installs them and sets " + envDir + ")")
	}
	for _, b := range bins {
		if _, err := os.Stat(filepath.Join(d, "node_modules", ".bin", b)); err != nil {
			t.Skipf("real MCP server %s missing from %s: run make test", b, d)
		}
	}
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node not on PATH: run make test on a machine with Node.js")
	}
	return d
}

// spec is one server of the real fleet.
type spec struct {
	name, kind, bin string
	args            []string
	env             map[string]string
}

// kubeconfig points at a port nothing listens on, so the server starts
// offline and every call fails fast with connection refused.
const kubeconfig = `apiVersion: v1
kind: Config
clusters:
- name: %[1]s
  cluster:
    server: https://127.0.0.1:1
    insecure-skip-tls-verify: true
contexts:
- name: %[1]s
  context: {cluster: %[1]s, user: %[1]s, namespace: default}
current-context: %[1]s
users:
- name: %[1]s
  user: {token: dummy}
`

// realFleet returns the twelve-server fleet: kubernetes ×4 (one read-only),
// gitlab ×4 (two read-only), filesystem ×2, memory and everything. Files
// live under dir; the filesystem servers serve dir/fs-1 and dir/fs-2.
func realFleet(t testing.TB, real, dir string) []spec {
	t.Helper()
	bin := func(b string) string { return filepath.Join(real, "node_modules", ".bin", b) }
	var out []spec
	for i, ro := range []bool{false, false, false, true} {
		name := fmt.Sprintf("k8s-%d", i+1)
		kc := filepath.Join(dir, name+".kubeconfig")
		must(t, os.WriteFile(kc, fmt.Appendf(nil, kubeconfig, name), 0o600))
		args := []string{"--kubeconfig", kc}
		if ro {
			args = append(args, "--read-only")
		}
		out = append(out, spec{name: name, kind: "kubernetes", bin: bin("kubernetes-mcp-server"), args: args})
	}
	for i, ro := range []bool{false, false, true, true} {
		env := map[string]string{"GITLAB_PERSONAL_ACCESS_TOKEN": "dummy", "GITLAB_API_URL": "http://127.0.0.1:1/api/v4"}
		if ro {
			env["GITLAB_READ_ONLY_MODE"] = "true"
		}
		out = append(out, spec{name: fmt.Sprintf("gitlab-%d", i+1), kind: "gitlab", bin: bin("mcp-gitlab"), env: env})
	}
	for _, name := range []string{"fs-1", "fs-2"} {
		root := filepath.Join(dir, name)
		must(t, os.MkdirAll(filepath.Join(root, "logs"), 0o755))
		must(t, os.WriteFile(filepath.Join(root, "README.md"), []byte("# "+name+"\nserved by the filesystem MCP server\n"), 0o644))
		must(t, os.WriteFile(filepath.Join(root, "logs", "app.log"), []byte("2026-11-30 error: payments-api timeout\n"), 0o644))
		out = append(out, spec{name: name, kind: "filesystem", bin: bin("mcp-server-filesystem"), args: []string{root}})
	}
	out = append(out,
		spec{name: "memory", kind: "memory", bin: bin("mcp-server-memory"), env: map[string]string{"MEMORY_FILE_PATH": filepath.Join(dir, "memory.jsonl")}},
		spec{name: "everything", kind: "everything", bin: bin("mcp-server-everything"), args: []string{"stdio"}},
	)
	return out
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// writeConfig writes the fleet file for specs into dir and returns its path.
// Argument repair is configured per kind, as an operator would: the
// Kubernetes server takes camelCase and singular kinds, GitLab snake_case.
func writeConfig(t testing.TB, dir string, specs []spec) string {
	t.Helper()
	var b strings.Builder
	has := func(kind string) bool {
		return slices.ContainsFunc(specs, func(s spec) bool { return s.kind == kind })
	}
	if has("kubernetes") || has("gitlab") {
		b.WriteString("kind_settings:\n")
	}
	if has("kubernetes") {
		b.WriteString("  kubernetes:\n    args_transformer: [camelCase, singularResourceType]\n")
	}
	if has("gitlab") {
		b.WriteString("  gitlab:\n    args_transformer: [snakeCase]\n")
	}
	b.WriteString("servers:\n")
	for _, s := range specs {
		fmt.Fprintf(&b, "  - name: %s\n    kind: %s\n    command: %q\n    connect_timeout: 120s\n    call_timeout: 30s\n", s.name, s.kind, s.bin)
		if len(s.args) > 0 {
			fmt.Fprintf(&b, "    args: [")
			for i, a := range s.args {
				if i > 0 {
					b.WriteString(", ")
				}
				fmt.Fprintf(&b, "%q", a)
			}
			b.WriteString("]\n")
		}
		if len(s.env) > 0 {
			b.WriteString("    env:\n")
			keys := make([]string, 0, len(s.env))
			for k := range s.env {
				keys = append(keys, k)
			}
			slices.Sort(keys)
			for _, k := range keys {
				fmt.Fprintf(&b, "      %s: %q\n", k, s.env[k])
			}
		}
	}
	path := filepath.Join(dir, "fleet.yaml")
	must(t, os.WriteFile(path, []byte(b.String()), 0o644))
	return path
}

func loadConfig(path string) (*config.Fleet, error) { return config.Load(path) }

// start connects a fleet file strictly and reports how long it took.
func start(ctx context.Context, t testing.TB, path string) (*mcpfleet.Mux, time.Duration) {
	t.Helper()
	cfg, err := config.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	begin := time.Now()
	mx, err := mcpfleet.New(ctx, cfg, mcpfleet.WithStrict(), mcpfleet.WithHealthInterval(-1))
	took := time.Since(begin)
	if err != nil {
		t.Fatalf("connect %s: %v", path, err)
	}
	t.Cleanup(func() { mx.Close() })
	return mx, took
}
