package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestLoadWithUsesOnlyTheInjectedEnvironment sets conflicting process
// variables with t.Setenv and checks that neither ${VAR} nor MCPFLEET_*
// overrides read them once an environment is injected.
func TestLoadWithUsesOnlyTheInjectedEnvironment(t *testing.T) {
	const doc = `servers:
  - name: k8s-1
    command: kms
    args: ["--ctx", "${CTX:-fallback}"]
    env: {TOKEN: "${TOKEN}"}
`
	t.Setenv("CTX", "from-process")
	t.Setenv("TOKEN", "process-secret")
	t.Setenv("MCPFLEET_DEFERRED_TOOLS", "on")
	t.Setenv("MCPFLEET_RELIABILITY__QUEUE_TIMEOUT", "1s")

	type view struct {
		Deferred string
		Args     []string
		Token    string
		Queue    string
	}
	tests := []struct {
		name string
		opts LoadOptions
		want view
	}{
		{"nil Environ reads the process, as Load does", LoadOptions{},
			view{"on", []string{"--ctx", "from-process"}, "process-secret", "1s"}},
		{"empty Environ reads nothing", LoadOptions{Environ: []string{}},
			view{"auto", []string{"--ctx", "fallback"}, "", "0s"}},
		{"injected values win over the process",
			LoadOptions{Environ: []string{"CTX=c2", "TOKEN=t2", "MCPFLEET_DEFERRED_TOOLS=off", "MCPFLEET_RELIABILITY__QUEUE_TIMEOUT=3s"}},
			view{"off", []string{"--ctx", "c2"}, "t2", "3s"}},
		{"a repeated key: the last wins", LoadOptions{Environ: []string{"CTX=a", "CTX=b"}},
			view{"auto", []string{"--ctx", "b"}, "", "0s"}},
		{"an empty value takes the default", LoadOptions{Environ: []string{"CTX="}},
			view{"auto", []string{"--ctx", "fallback"}, "", "0s"}},
		{"LookupEnv resolves ${VAR}; overrides still come from Environ",
			LoadOptions{Environ: []string{"CTX=ignored", "MCPFLEET_DEFERRED_TOOLS=auto:40%"},
				LookupEnv: fakeVars(map[string]string{"CTX": "vault-ctx", "TOKEN": "vault-token"})},
			view{"auto:40%", []string{"--ctx", "vault-ctx"}, "vault-token", "0s"}},
		{"LookupEnv with nil Environ: process overrides, custom ${VAR}",
			LoadOptions{LookupEnv: fakeVars(map[string]string{"CTX": "v"})},
			view{"on", []string{"--ctx", "v"}, "", "1s"}},
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "fleet.yaml")
	if err := os.WriteFile(path, []byte(doc), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		for _, entry := range []string{"LoadBytesWith", "LoadWith"} {
			t.Run(entry+"/"+tt.name, func(t *testing.T) {
				var f *Fleet
				var err error
				if entry == "LoadWith" {
					f, err = LoadWith(path, tt.opts)
				} else {
					f, err = LoadBytesWith([]byte(doc), "yaml", "", tt.opts)
				}
				if err != nil {
					t.Fatal(err)
				}
				s, _ := f.Server("k8s-1")
				got := view{f.DeferredTools, s.Args, s.Env["TOKEN"], f.Reliability.QueueTimeout.String()}
				if diff := cmp.Diff(tt.want, got); diff != "" {
					t.Errorf("(-want +got):\n%s", diff)
				}
			})
		}
	}
}

// TestLoadWithTransformers: a custom name is accepted without being
// passed (mcpfleet.New checks it against its registry), and when passed;
// a misspelt built-in is refused unless passed.
func TestLoadWithTransformers(t *testing.T) {
	doc := "servers:\n  - {name: a, command: x, args_transformer: [myNorm]}\n"
	if _, err := LoadBytesWith([]byte(doc), "yaml", "", LoadOptions{Environ: []string{}}); err != nil {
		t.Fatalf("custom transformer refused without Transformers: %v", err)
	}
	misspelt := "servers:\n  - {name: a, command: x, args_transformer: [camelCasee]}\n"
	if _, err := LoadBytesWith([]byte(misspelt), "yaml", "", LoadOptions{Environ: []string{}}); err == nil || !strings.Contains(err.Error(), `did you mean "camelCase"`) {
		t.Fatalf("misspelt built-in: err = %v, want did you mean camelCase", err)
	}
	if _, err := LoadBytesWith([]byte(misspelt), "yaml", "", LoadOptions{Environ: []string{}, Transformers: []string{"camelCasee"}}); err != nil {
		t.Fatalf("passed camelCasee: %v", err)
	}
	if _, err := LoadBytesWith([]byte(doc), "yaml", "", LoadOptions{Environ: []string{}, Transformers: []string{"myNorm"}}); err != nil {
		t.Fatalf("with Transformers: %v", err)
	}
}
