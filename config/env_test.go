package config

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

const envBase = `servers:
  - name: k8s-1
    kind: kubernetes
    command: kms
    env: {KUBECONFIG: /a}
  - name: gitlab_b
    kind: git-lab
    url: https://b/mcp
kind_settings:
  kubernetes:
    field_map: {pod: name}
`

func loadWithEnv(t *testing.T, doc string, environ ...string) (*Fleet, error) {
	t.Helper()
	return load([]byte(doc), "yaml", "", func() []string { return environ }, fakeVars(map[string]string{"T": "tok"}), nil)
}

func TestEnvOverrides(t *testing.T) {
	tests := []struct {
		name    string
		environ []string
		get     func(*Fleet) any
		want    any
	}{
		{"deferred_tools", []string{"MCPFLEET_DEFERRED_TOOLS=off"},
			func(f *Fleet) any { return f.DeferredTools }, "off"},
		{"kind join_separator", []string{"MCPFLEET_KIND_SETTINGS__KUBERNETES__JOIN_SEPARATOR=,"},
			func(f *Fleet) any { return f.Separator("k8s-1") }, ","},
		{"kind with dash matched by underscore", []string{"MCPFLEET_KIND_SETTINGS__GIT_LAB__JOIN_SEPARATOR=+"},
			func(f *Fleet) any { return f.Separator("gitlab_b") }, "+"},
		{"kind field_map entry keeps case and merges", []string{"MCPFLEET_KIND_SETTINGS__KUBERNETES__FIELD_MAP__podName=name"},
			func(f *Fleet) any { return f.FieldMap("k8s-1") }, map[string]string{"pod": "name", "podName": "name"}},
		{"kind list is comma separated", []string{"MCPFLEET_KIND_SETTINGS__KUBERNETES__ARGS_TRANSFORMER=camelCase, dropUnknown"},
			func(f *Fleet) any { return f.Transformers("k8s-1") }, []string{"camelCase", "dropUnknown"}},
		{"server url by name with dash", []string{"MCPFLEET_SERVERS__K8S_1__URL=https://o/mcp", "MCPFLEET_SERVERS__K8S_1__TRANSPORT=http"},
			func(f *Fleet) any { s, _ := f.Server("k8s-1"); return s.Transport + " " + s.URL }, "http https://o/mcp"},
		{"server name with underscore", []string{"MCPFLEET_SERVERS__GITLAB_B__CALL_TIMEOUT=5s", "MCPFLEET_SERVERS__gitlab_b__MAX_IN_FLIGHT=3"},
			func(f *Fleet) any {
				s, _ := f.Server("gitlab_b")
				return s.CallTimeout.String() + " " + string(rune('0'+s.MaxInFlight))
			}, "5s 3"},
		{"server env entry merges and expands", []string{"MCPFLEET_SERVERS__K8S_1__ENV__API_TOKEN=${T}"},
			func(f *Fleet) any { s, _ := f.Server("k8s-1"); return s.Env }, map[string]string{"KUBECONFIG": "/a", "API_TOKEN": "tok"}},
		{"server header entry", []string{"MCPFLEET_SERVERS__GITLAB_B__HEADERS__Authorization=Bearer x"},
			func(f *Fleet) any { s, _ := f.Server("gitlab_b"); return s.Headers }, map[string]string{"Authorization": "Bearer x"}},
		{"server args list", []string{"MCPFLEET_SERVERS__K8S_1__ARGS=--a,--b"},
			func(f *Fleet) any { s, _ := f.Server("k8s-1"); return s.Args }, []string{"--a", "--b"}},
		{"cache kind ttl and tools", []string{"MCPFLEET_CACHE__KINDS__KUBERNETES__TTL=30s", "MCPFLEET_CACHE__KINDS__KUBERNETES__TOOLS=pods_log, pods_list"},
			func(f *Fleet) any { return f.Cache.Kinds }, map[string]KindCache{"kubernetes": {TTL: 30 * time.Second, Tools: []string{"pods_log", "pods_list"}}}},
		{"cache kind with dash matched by underscore", []string{"MCPFLEET_CACHE__KINDS__GIT_LAB__TTL=1m"},
			func(f *Fleet) any { return f.Cache.Kinds["git-lab"].TTL }, time.Minute},
		{"rate limits", []string{"MCPFLEET_RATE_LIMITS__ON_STORE_ERROR=closed", "MCPFLEET_RATE_LIMITS__KINDS__KUBERNETES__CALLS_PER_MINUTE=60", "MCPFLEET_RATE_LIMITS__KINDS__KUBERNETES__PER=kind"},
			func(f *Fleet) any { return f.RateLimits },
			RateLimits{OnStoreError: "closed", Kinds: map[string]RateLimit{"kubernetes": {CallsPerMinute: 60, Per: "kind"}}}},
		{"request limits", []string{"MCPFLEET_REQUEST_LIMITS__BODY_BYTES=1048576", "MCPFLEET_REQUEST_LIMITS__GREP_PATTERN_BYTES=128"},
			func(f *Fleet) any { return f.RequestLimits }, RequestLimits{BodyBytes: 1 << 20, GrepPatternBytes: 128}},
		{"other MCPFLEET_ variables are ignored", []string{"MCPFLEET_CONFIG=/x.yaml", "MCPFLEET_LOG_LEVEL=debug", "OTHER_DEFERRED_TOOLS=on"},
			func(f *Fleet) any { return f.DeferredTools }, "auto"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := loadWithEnv(t, envBase, tt.environ...)
			if err != nil {
				t.Fatalf("load: %v", err)
			}
			if diff := cmp.Diff(tt.want, tt.get(f)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestEnvOverrideProblems(t *testing.T) {
	tests := []struct {
		name    string
		environ []string
		want    []string
	}{
		{"unknown server", []string{"MCPFLEET_SERVERS__K8S_2__URL=https://secret@x"},
			[]string{`MCPFLEET_SERVERS__K8S_2__URL: got "K8S_2", want the name of a server in the file: k8s-1, gitlab_b (did you mean "k8s-1"?)`}},
		{"unknown server key", []string{"MCPFLEET_SERVERS__K8S_1__COMAND=x"},
			[]string{`MCPFLEET_SERVERS__K8S_1__COMAND: got "COMAND", want one of allow_placeholders, args, args_transformer, call_timeout, command, connect_timeout, core_tools, env, field_map, headers, join_separator, kind, max_in_flight, max_result_bytes, name, start, tool_scopes, transport, url (did you mean "command"?)`}},
		{"map without entry name", []string{"MCPFLEET_SERVERS__K8S_1__ENV=s3cret"},
			[]string{`MCPFLEET_SERVERS__K8S_1__ENV: want env__<KEY> naming one entry of the map`}},
		{"scalar with extra level", []string{"MCPFLEET_SERVERS__K8S_1__URL__X=s3cret"},
			[]string{`MCPFLEET_SERVERS__K8S_1__URL__X: want no __ after URL`}},
		{"server without key", []string{"MCPFLEET_SERVERS__K8S_1=x"},
			[]string{`MCPFLEET_SERVERS__K8S_1: want a key after K8S_1__, e.g. MCPFLEET_SERVERS__K8S_1__URL`}},
		{"kind nobody has", []string{"MCPFLEET_KIND_SETTINGS__KUBERNETS__JOIN_SEPARATOR=,"},
			[]string{`kind_settings.kubernets: kind: got "kubernets", want a kind some server has: git-lab, kubernetes (did you mean "kubernetes"?)`}},
		{"cache kind nobody has", []string{"MCPFLEET_CACHE__KINDS__KUBERNETS__TTL=30s"},
			[]string{`cache.kinds.kubernets: kind: got "kubernets", want a kind some server has: git-lab, kubernetes (did you mean "kubernetes"?)`}},
		{"cache kind without key", []string{"MCPFLEET_CACHE__KINDS__KUBERNETES=30s"},
			[]string{`MCPFLEET_CACHE__KINDS__KUBERNETES: want KINDS__<KIND>__<KEY>, one of tools, ttl for a kind`}},
		{"rate limit unknown key", []string{"MCPFLEET_RATE_LIMITS__KINDS__KUBERNETES__CALLS_PER_MINUT=5"},
			[]string{`MCPFLEET_RATE_LIMITS__KINDS__KUBERNETES__CALLS_PER_MINUT: got "CALLS_PER_MINUT", want one of calls_per_minute, per (did you mean "calls_per_minute"?)`}},
		{"rate limit bad value", []string{"MCPFLEET_RATE_LIMITS__KINDS__KUBERNETES__CALLS_PER_MINUTE=0"},
			[]string{`rate_limits.kinds.kubernetes: calls_per_minute: got "0", want a number of calls > 0, like 60`}},
		{"request limit over its bound", []string{"MCPFLEET_REQUEST_LIMITS__GREP_PATTERN_BYTES=4096"},
			[]string{`request_limits: grep_pattern_bytes: got "4096", want a number from 1 to 512 (did you mean "512"?)`}},
		{"section without key", []string{"MCPFLEET_RATE_LIMITS=5"},
			[]string{`MCPFLEET_RATE_LIMITS: want a key after RATE_LIMITS__, e.g. MCPFLEET_RATE_LIMITS__ON_STORE_ERROR`}},
		{"bad value", []string{"MCPFLEET_DEFERRED_TOOLS=sometimes"},
			[]string{`deferred_tools: got "sometimes", want one of on, off, auto, auto:N%, auto:N`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := loadWithEnv(t, envBase, tt.environ...)
			got := problemsOf(t, err)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("problems (-want +got):\n%s", diff)
			}
		})
	}
}

// TestLoadBytesReadsProcessEnv checks the exported entry point, not only
// the injected environment the other tests use.
func TestLoadBytesReadsProcessEnv(t *testing.T) {
	t.Setenv("MCPFLEET_DEFERRED_TOOLS", "auto:30%")
	t.Setenv("MCPFLEET_SERVERS__K8S_1__ARGS", "--context,${CTX_NAME:-c1}")
	f, err := LoadBytes([]byte(envBase), "yaml", "")
	if err != nil {
		t.Fatal(err)
	}
	s, _ := f.Server("k8s-1")
	got := []any{f.DeferredTools, f.Deferred(), s.Args}
	want := []any{"auto:30%", Deferred{Mode: "auto", Percent: 30}, []string{"--context", "c1"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
