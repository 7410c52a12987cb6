package config

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

const exampleYAML = `deferred_tools: auto
servers:
  - name: k8s-1
    kind: kubernetes
    transport: stdio
    command: kubernetes-mcp-server
    args: ["--read-only"]
    env: {KUBECONFIG: "${HOME}/.kube/c1"}
  - name: gitlab-a
    kind: gitlab
    transport: http
    url: https://gitlab-a.example/mcp
    headers: {Authorization: "Bearer ${GITLAB_A_TOKEN}"}
    call_timeout: 30s
kind_settings:
  kubernetes:
    args_transformer: [camelCase, singularResourceType]
    field_map: {podName: name, pod: name}
`

const exampleJSON = `{
  "deferred_tools": "auto",
  "servers": [
    {"name": "k8s-1", "kind": "kubernetes", "transport": "stdio", "command": "kubernetes-mcp-server",
     "args": ["--read-only"], "env": {"KUBECONFIG": "${HOME}/.kube/c1"}},
    {"name": "gitlab-a", "kind": "gitlab", "transport": "http", "url": "https://gitlab-a.example/mcp",
     "headers": {"Authorization": "Bearer ${GITLAB_A_TOKEN}"}, "call_timeout": "30s"}
  ],
  "kind_settings": {
    "kubernetes": {"args_transformer": ["camelCase", "singularResourceType"], "field_map": {"podName": "name", "pod": "name"}}
  }
}`

func fakeVars(vars map[string]string) func(string) (string, bool) {
	return func(k string) (string, bool) { v, ok := vars[k]; return v, ok }
}

func TestYAMLAndJSONLoadTheSameFleet(t *testing.T) {
	vars := fakeVars(map[string]string{"HOME": "/home/u", "GITLAB_A_TOKEN": "tok"})
	noEnv := func() []string { return nil }
	fromYAML, err := load([]byte(exampleYAML), "yaml", "/cfg", noEnv, vars, nil)
	if err != nil {
		t.Fatalf("yaml: %v", err)
	}
	fromJSON, err := load([]byte(exampleJSON), "json", "/cfg", noEnv, vars, nil)
	if err != nil {
		t.Fatalf("json: %v", err)
	}
	if diff := cmp.Diff(fromYAML, fromJSON); diff != "" {
		t.Errorf("yaml vs json (-yaml +json):\n%s", diff)
	}
	want := &Fleet{
		DeferredTools: "auto",
		Dir:           "/cfg",
		Servers: []Server{
			{Name: "k8s-1", Kind: "kubernetes", Transport: "stdio", Command: "kubernetes-mcp-server",
				Args: []string{"--read-only"}, Env: map[string]string{"KUBECONFIG": "/home/u/.kube/c1"},
				CallTimeout: 60 * time.Second, ConnectTimeout: 20 * time.Second, MaxInFlight: 16},
			{Name: "gitlab-a", Kind: "gitlab", Transport: "http", URL: "https://gitlab-a.example/mcp",
				Headers:     map[string]string{"Authorization": "Bearer tok"},
				CallTimeout: 30 * time.Second, ConnectTimeout: 20 * time.Second, MaxInFlight: 16},
		},
		KindSettings: map[string]KindSettings{"kubernetes": {
			ArgsTransformer: []string{"camelCase", "singularResourceType"},
			FieldMap:        map[string]string{"podName": "name", "pod": "name"},
		}},
	}
	if diff := cmp.Diff(want, fromYAML); diff != "" {
		t.Errorf("fleet (-want +got):\n%s", diff)
	}
}

// TestJSONRoundTrip checks that a loaded fleet marshals to JSON that loads
// back to the same fleet, durations included.
func TestJSONRoundTrip(t *testing.T) {
	f, err := loadYAML(t, exampleYAML)
	if err != nil {
		t.Fatalf("load: %v", err)
	}
	data, err := json.Marshal(f)
	if err != nil {
		t.Fatal(err)
	}
	back, err := load(data, "json", "", func() []string { return nil }, noVars, nil)
	if err != nil {
		t.Fatalf("reload %s: %v", data, err)
	}
	if diff := cmp.Diff(f, back); diff != "" {
		t.Errorf("round trip (-before +after):\n%s", diff)
	}
}

func TestDefaults(t *testing.T) {
	f, err := loadYAML(t, "servers:\n  - {name: a, command: x}\n  - {name: b, url: 'http://h/mcp', max_in_flight: 4, call_timeout: 5s}\n")
	if err != nil {
		t.Fatal(err)
	}
	type got struct {
		Transport           string
		Call, Connect       time.Duration
		MaxInFlight         int
		Deferred, Separator string
	}
	want := []got{
		{"stdio", 60 * time.Second, 20 * time.Second, 16, "auto", " "},
		{"http", 5 * time.Second, 20 * time.Second, 4, "auto", " "},
	}
	var have []got
	for _, s := range f.Servers {
		have = append(have, got{s.Transport, s.CallTimeout, s.ConnectTimeout, s.MaxInFlight, f.DeferredTools, f.Separator(s.Name)})
	}
	if diff := cmp.Diff(want, have); diff != "" {
		t.Errorf("defaults (-want +got):\n%s", diff)
	}
}

func TestExpand(t *testing.T) {
	vars := fakeVars(map[string]string{"HOME": "/home/u", "EMPTY": "", "TOKEN": "abc"})
	tests := []struct{ in, want string }{
		{"${HOME}/.kube", "/home/u/.kube"},
		{"Bearer ${TOKEN}", "Bearer abc"},
		{"${UNSET}", ""},
		{"a${UNSET}b", "ab"},
		{"${UNSET:-fallback}", "fallback"},
		{"${EMPTY:-fallback}", "fallback"},
		{"${EMPTY}", ""},
		{"${TOKEN:-fallback}", "abc"},
		{"${UNSET:-}", ""},
		{"$HOME and $1 stay", "$HOME and $1 stay"},
		{"$${HOME} is literal", "${HOME} is literal"},
		{"${not closed", "${not closed"},
		{"${1BAD}", "${1BAD}"},
		{"${HOME}${TOKEN}", "/home/uabc"},
		{"", ""},
	}
	for _, tt := range tests {
		if got := expand(tt.in, vars); got != tt.want {
			t.Errorf("expand(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestExpandAndResolveFields(t *testing.T) {
	doc := `servers:
  - name: a
    command: ${BIN:-./bin}/server
    args: [--kubeconfig, ./kube/c1, ../shared/x, "./${SUB}/y", plain, /abs/path, "${HOME}/z"]
    env: {CFG: ./etc/cfg, TOKEN: "${TOKEN}", WORD: here}
  - name: b
    command: npx
    args: [-y, some-server]
  - name: c
    url: ${URL}
    headers: {Authorization: "Bearer ${TOKEN}", X-Path: ./not-a-path}
`
	vars := fakeVars(map[string]string{"SUB": "sub", "HOME": "/home/u", "TOKEN": "t0k", "URL": "https://h/mcp"})
	f, err := load([]byte(doc), "yaml", "/etc/fleet", func() []string { return nil }, vars, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []Server{
		{Command: "/etc/fleet/bin/server",
			Args: []string{"--kubeconfig", "/etc/fleet/kube/c1", "/etc/shared/x", "/etc/fleet/sub/y", "plain", "/abs/path", "/home/u/z"},
			Env:  map[string]string{"CFG": "/etc/fleet/etc/cfg", "TOKEN": "t0k", "WORD": "here"}},
		{Command: "npx", Args: []string{"-y", "some-server"}},
		{URL: "https://h/mcp", Headers: map[string]string{"Authorization": "Bearer t0k", "X-Path": "./not-a-path"}},
	}
	var got []Server
	for _, s := range f.Servers {
		got = append(got, Server{Command: s.Command, Args: s.Args, Env: s.Env, URL: s.URL, Headers: s.Headers})
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("servers (-want +got):\n%s", diff)
	}
}

func TestLoadFileResolvesAgainstItsFolder(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "fleet.yml")
	doc := "servers:\n  - {name: a, command: ./bin/server, args: [./data]}\n"
	if err := os.WriteFile(path, []byte(doc), 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	want := Server{Command: filepath.Join(dir, "bin/server"), Args: []string{filepath.Join(dir, "data")}}
	got := Server{Command: f.Servers[0].Command, Args: f.Servers[0].Args}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("paths (-want +got):\n%s", diff)
	}
	if f.Dir != dir {
		t.Errorf("Dir = %q, want %q", f.Dir, dir)
	}
}

func TestParseErrorsNameTheFormat(t *testing.T) {
	tests := []struct {
		name, format, data, wantText string
	}{
		{"bad yaml", "yaml", "servers: [\n", "config: invalid yaml: "},
		{"yaml list at top", "yaml", "- a\n- b\n", "config: invalid yaml: "},
		{"bad json", "json", `{"servers": [}`, "config: invalid json: "},
		{"json array at top", "json", `[1]`, "config: invalid json: "},
		{"unknown format", "toml", "a = 1", "config: invalid toml: unknown format, want yaml or json"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := LoadBytes([]byte(tt.data), tt.format, "")
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("got %v (%T), want *ParseError", err, err)
			}
			if !strings.HasPrefix(err.Error(), tt.wantText) {
				t.Errorf("error %q, want prefix %q", err, tt.wantText)
			}
		})
	}
}

func TestLoadFileErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "fleet.yaml")
	if err := os.WriteFile(bad, []byte("servers: [\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := Load(bad)
	var pe *ParseError
	if !errors.As(err, &pe) || pe.Path != bad || !strings.Contains(err.Error(), bad+": invalid yaml") {
		t.Errorf("Load(bad yaml) = %v, want *ParseError naming the path and yaml", err)
	}
	if _, err := Load(filepath.Join(dir, "fleet.toml")); !errors.As(err, &pe) {
		t.Errorf("Load(.toml) = %v, want *ParseError", err)
	}
	if _, err := Load(filepath.Join(dir, "missing.json")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("Load(missing) = %v, want os.ErrNotExist", err)
	}
}

func TestParseDeferred(t *testing.T) {
	tests := []struct {
		in      string
		want    Deferred
		wantErr bool
	}{
		{"", Deferred{Mode: "auto"}, false},
		{"auto", Deferred{Mode: "auto"}, false},
		{"on", Deferred{Mode: "on"}, false},
		{"off", Deferred{Mode: "off"}, false},
		{"auto:10%", Deferred{Mode: "auto", Percent: 10}, false},
		{"auto:2.5%", Deferred{Mode: "auto", Percent: 2.5}, false},
		{"auto:100%", Deferred{Mode: "auto", Percent: 100}, false},
		{"auto:20000", Deferred{Mode: "auto", Tokens: 20000}, false},
		{"auto:0", Deferred{}, true},
		{"auto:0%", Deferred{}, true},
		{"auto:101%", Deferred{}, true},
		{"auto:-5", Deferred{}, true},
		{"auto:", Deferred{}, true},
		{"ON", Deferred{}, true},
		{"true", Deferred{}, true},
	}
	for _, tt := range tests {
		got, err := ParseDeferred(tt.in)
		if (err != nil) != tt.wantErr {
			t.Errorf("ParseDeferred(%q) error = %v, wantErr %v", tt.in, err, tt.wantErr)
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("ParseDeferred(%q) (-want +got):\n%s", tt.in, diff)
		}
	}
}

func BenchmarkLoadBytes(b *testing.B) {
	for _, bc := range []struct{ format, doc string }{{"yaml", exampleYAML}, {"json", exampleJSON}} {
		b.Run(bc.format, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := LoadBytes([]byte(bc.doc), bc.format, "/cfg"); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

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
