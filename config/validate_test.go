package config

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// loadYAML loads a document with a fixed, empty environment so tests do not
// depend on the machine's variables.
func loadYAML(t *testing.T, doc string, extra ...string) (*Fleet, error) {
	t.Helper()
	return load([]byte(doc), "yaml", "", func() []string { return nil }, noVars, extra)
}

func noVars(string) (string, bool) { return "", false }

// problemLines loads doc and returns each problem as rendered in the error.
func problemLines(t *testing.T, doc string, extra ...string) []string {
	t.Helper()
	_, err := loadYAML(t, doc, extra...)
	return problemsOf(t, err)
}

// problemsOf returns each problem of err, which must be a
// *ValidationError, as rendered in the error.
func problemsOf(t *testing.T, err error) []string {
	t.Helper()
	var verr *ValidationError
	if !errors.As(err, &verr) {
		t.Fatalf("load: got error %v (%T), want *ValidationError", err, err)
	}
	var lines []string
	for _, p := range verr.Problems {
		lines = append(lines, p.String())
	}
	return lines
}

const okServer = `
  - name: ok
    command: ok-server
`

func TestLoadProblems(t *testing.T) {
	allTransformers := "camelCase, snakeCase, joinArrays, splitStrings, singularResourceType, coerceTypes, dropUnknown"
	tests := []struct {
		name string
		doc  string
		want []string
	}{
		{
			name: "no servers",
			doc:  "deferred_tools: on\n",
			want: []string{`servers: want at least one server`},
		},
		{
			name: "empty file",
			doc:  "",
			want: []string{`servers: want at least one server`},
		},
		{
			name: "duplicate name",
			doc:  "servers:\n  - {name: k8s-1, command: a}\n  - {name: k8s-2, command: a}\n  - {name: k8s-1, command: b}\n",
			want: []string{`servers[2] (k8s-1): name: got "k8s-1", want a unique name (servers[0] has it too)`},
		},
		{
			name: "bad name pattern",
			doc:  "servers:\n  - {name: K8s.1, command: a}\n",
			want: []string{`servers[0] (K8s.1): name: got "K8s.1", want a name matching [a-z0-9][a-z0-9_-]* (did you mean "k8s-1"?)`},
		},
		{
			name: "missing name",
			doc:  "servers:\n  - {command: a}\n",
			want: []string{`servers[0]: name: want a name matching [a-z0-9][a-z0-9_-]*`},
		},
		{
			name: "unknown transport",
			doc:  "servers:" + okServer + "  - {name: k8s-1, transport: htp, url: 'https://x/mcp'}\n",
			want: []string{`servers[1] (k8s-1): transport: got "htp", want one of stdio, http, sse (did you mean "http"?)`},
		},
		{
			name: "unknown transport far from all",
			doc:  "servers:\n  - {name: a, transport: websocket, url: 'https://x/mcp'}\n",
			want: []string{`servers[0] (a): transport: got "websocket", want one of stdio, http, sse`},
		},
		{
			name: "stdio without command",
			doc:  "servers:\n  - {name: a, transport: stdio}\n",
			want: []string{`servers[0] (a): command: want a command to run, since transport is stdio`},
		},
		{
			name: "neither command nor url",
			doc:  "servers:\n  - {name: a}\n",
			want: []string{`servers[0] (a): command: want a command (transport stdio) or a url (transport http or sse)`},
		},
		{
			name: "http without url",
			doc:  "servers:\n  - {name: a, transport: http}\n",
			want: []string{`servers[0] (a): url: want an http:// or https:// URL, since transport is http`},
		},
		{
			name: "sse without url",
			doc:  "servers:\n  - {name: a, transport: sse, command: x}\n",
			want: []string{`servers[0] (a): url: want an http:// or https:// URL, since transport is sse`},
		},
		{
			name: "url not http",
			doc:  "servers:\n  - {name: a, url: 'ftp://host/mcp'}\n",
			want: []string{`servers[0] (a): url: got "ftp://host/mcp", want an http:// or https:// URL with a host`},
		},
		{
			name: "url without host, credentials stripped",
			doc:  "servers:\n  - {name: a, url: 'https:///mcp?token=abc'}\n",
			want: []string{`servers[0] (a): url: got "https:///mcp", want an http:// or https:// URL with a host`},
		},
		{
			name: "unknown transformer on server",
			doc:  "servers:\n  - {name: a, command: x, args_transformer: [camelcase, snakeCase]}\n",
			want: []string{`servers[0] (a): args_transformer: got "camelcase", want one of ` + allTransformers + ` (did you mean "camelCase"?)`},
		},
		{
			name: "unknown transformer in kind settings",
			doc:  "servers:\n  - {name: a, kind: k, command: x}\nkind_settings:\n  k: {args_transformer: [singularResourceTypes]}\n",
			want: []string{`kind_settings.k: args_transformer: got "singularResourceTypes", want one of ` + allTransformers + ` (did you mean "singularResourceType"?)`},
		},
		{
			name: "kind settings for a kind no server has",
			doc: "servers:\n  - {name: k8s-1, kind: kubernetes, command: x}\n  - {name: gitlab-a, kind: gitlab, command: x}\n" +
				"kind_settings:\n  kubernets: {join_separator: ','}\n",
			want: []string{`kind_settings.kubernets: kind: got "kubernets", want a kind some server has: gitlab, kubernetes (did you mean "kubernetes"?)`},
		},
		{
			name: "server without kind is its own kind",
			doc:  "servers:\n  - {name: solo, command: x}\nkind_settings:\n  solo: {join_separator: ','}\n",
		},
		{
			name: "bad deferred_tools",
			doc:  "deferred_tools: of\nservers:" + okServer,
			want: []string{`deferred_tools: got "of", want one of on, off, auto, auto:N%, auto:N (did you mean "on"?)`},
		},
		{
			name: "deferred_tools percent out of range",
			doc:  "deferred_tools: auto:150%\nservers:" + okServer,
			want: []string{`deferred_tools: got "auto:150%", want one of on, off, auto, auto:N%, auto:N`},
		},
		{
			name: "negative timeouts and max_in_flight",
			doc:  "servers:\n  - {name: a, command: x, call_timeout: -5s, connect_timeout: -1m, max_in_flight: -2}\n",
			want: []string{
				`servers[0] (a): call_timeout: got "-5s", want a duration >= 0 (0 means 60s)`,
				`servers[0] (a): connect_timeout: got "-1m0s", want a duration >= 0 (0 means 20s)`,
				`servers[0] (a): max_in_flight: got "-2", want a number >= 0 (0 means 16)`,
			},
		},
		{
			name: "duration without unit",
			doc:  "servers:\n  - {name: a, command: x, call_timeout: 30}\n",
			want: []string{`servers[0] (a): call_timeout: got "30", want a duration with a unit, like 30s or 2m`},
		},
		{
			name: "catalog line too long and multi-line",
			doc: "servers:\n  - {name: a, kind: k, command: x}\nkind_settings:\n  k:\n    catalog_lines:\n      long: " + strings.Repeat("é", 121) +
				"\n      fits: " + strings.Repeat("x", 120) + "\n      two: \"a\\nb\"\n    offload_tokens: -1\n",
			want: []string{
				`kind_settings.k: catalog_lines.long: want at most 120 characters, got 121`,
				`kind_settings.k: catalog_lines.two: want a single line`,
				`kind_settings.k: offload_tokens: got "-1", want a token count >= 0 (0 means 8000)`,
			},
		},
		{
			name: "id patterns that do not compile or match anything",
			doc: "servers:\n  - {name: a, kind: k, command: x}\nkind_settings:\n  k:\n    id_patterns:\n" +
				"      - '\\b[A-Z]+-[0-9]+\\b'\n      - '(OPS-[0-9]+'\n      - '[0-9]*'\n" +
				// Zero-width patterns match no "" yet every request that
				// has a word in it.
				"      - '\\b'\n      - '(?:^|\\s)\\b'\n      - '\\s?\\b(?:x*)'\n" +
				// One character is enough, wherever it sits.
				"      - '(?:^|\\s)!?[0-9]'\n",
			want: []string{
				`kind_settings.k: id_patterns[1]: got "(OPS-[0-9]+", want an RE2 regular expression (missing closing ): ` + "`(OPS-[0-9]+`" + `)`,
				`kind_settings.k: id_patterns[2]: got "[0-9]*", want a pattern that needs at least one character to match`,
				`kind_settings.k: id_patterns[3]: got "\\b", want a pattern that needs at least one character to match`,
				`kind_settings.k: id_patterns[4]: got "(?:^|\\s)\\b", want a pattern that needs at least one character to match`,
				`kind_settings.k: id_patterns[5]: got "\\s?\\b(?:x*)", want a pattern that needs at least one character to match`,
			},
		},
		{
			name: "unknown keys at every level",
			doc:  "servrs: []\nservers:\n  - {name: a, comand: x, command: y}\nkind_settings:\n  a: {field_maps: {}}\n",
			want: []string{
				`kind_settings.a: key: got "field_maps", want one of aliases, allow_flagged, allow_placeholders, args_transformer, avoid_when, catalog_lines, core_tools, field_map, id_patterns, join_separator, offload_tokens, tool_scopes (did you mean "field_map"?)`,
				`servers[0] (a): key: got "comand", want one of allow_placeholders, args, args_transformer, call_timeout, command, connect_timeout, core_tools, env, field_map, headers, join_separator, kind, max_in_flight, max_result_bytes, name, start, tool_scopes, transport, url (did you mean "command"?)`,
				`key: got "servrs", want one of audit, cache, deferred_tools, kind_settings, lock_file, neutralize, pinning, presets, rate_limits, reliability, request_limits, result_store, search, servers, start, store, telemetry (did you mean "servers"?)`,
			},
		},
		{
			name: "wrong types are named, not quoted",
			doc:  "servers:\n  - {name: a, command: x, args: --flag, env: [A], max_in_flight: many, core_tools: [[x]]}\n",
			want: []string{
				`servers[0] (a): args: want a list of strings, got a string`,
				`servers[0] (a): core_tools[0]: want a string, got a list`,
				`servers[0] (a): env: want a map, got a list`,
				`servers[0] (a): max_in_flight: got "many", want a whole number`,
			},
		},
		{
			name: "servers not a list",
			doc:  "servers: {a: 1}\n",
			want: []string{`servers: want a list of servers, got a map`, `servers: want at least one server`},
		},
		{
			name: "every problem is listed",
			doc:  "deferred_tools: never\nservers:\n  - {name: A, transport: htp}\n  - {name: b, transport: http}\n",
			want: []string{
				`deferred_tools: got "never", want one of on, off, auto, auto:N%, auto:N`,
				`servers[0] (A): name: got "A", want a name matching [a-z0-9][a-z0-9_-]* (did you mean "a"?)`,
				`servers[0] (A): transport: got "htp", want one of stdio, http, sse (did you mean "http"?)`,
				`servers[1] (b): url: want an http:// or https:// URL, since transport is http`,
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			if tt.want == nil {
				if _, err := loadYAML(t, tt.doc); err != nil {
					t.Fatalf("load: %v", err)
				}
			} else {
				got = problemLines(t, tt.doc)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("problems (-want +got):\n%s", diff)
			}
		})
	}
}

func TestValidationErrorText(t *testing.T) {
	err := &ValidationError{Problems: []Problem{
		{Server: "servers[2] (k8s-1)", Field: "transport", Value: "htp", Want: "one of stdio, http, sse", Hint: "http"},
		{Field: "servers", Want: "at least one server"},
	}}
	want := "config: 2 problems:\n" +
		"  - servers[2] (k8s-1): transport: got \"htp\", want one of stdio, http, sse (did you mean \"http\"?)\n" +
		"  - servers: want at least one server"
	if diff := cmp.Diff(want, err.Error()); diff != "" {
		t.Errorf("Error() (-want +got):\n%s", diff)
	}
	one := &ValidationError{Problems: err.Problems[1:]}
	if got, want := one.Error(), "config: 1 problems:\n  - servers: want at least one server"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
}

func TestExtraTransformersAccepted(t *testing.T) {
	doc := "servers:\n  - {name: a, command: x, args_transformer: [camelCase, stripPrefix]}\n"
	if _, err := loadYAML(t, doc, "stripPrefix"); err != nil {
		t.Fatalf("with stripPrefix registered: %v", err)
	}
	// Unregistered, it is still no misspelling of a built-in: the loader
	// leaves it to mcpfleet.New, which knows the registered transformers.
	if _, err := loadYAML(t, doc); err != nil {
		t.Errorf("without stripPrefix registered: %v", err)
	}
}

// TestSecretsNeverInErrors feeds secrets through every path that can fail
// and checks no error text quotes them.
func TestSecretsNeverInErrors(t *testing.T) {
	const secret = "s3cret"
	docs := map[string]string{
		"bad server with header":      "servers:\n  - {name: A, transport: htp, headers: {Authorization: 'Bearer s3cret'}}\n",
		"header value of wrong type":  "servers:\n  - {name: a, url: 'https://x', headers: {Authorization: ['Bearer s3cret']}}\n",
		"headers as a string":         "servers:\n  - {name: a, url: 'https://x', headers: 'Authorization: Bearer s3cret'}\n",
		"env value of wrong type":     "servers:\n  - {name: a, command: x, env: {TOKEN: {v: s3cret}}}\n",
		"env as a list":               "servers:\n  - {name: a, command: x, env: [TOKEN=s3cret]}\n",
		"bad header name":             "servers:\n  - {name: a, url: 'https://x', headers: {'Bad Name': 'Bearer s3cret'}}\n",
		"password in a bad url":       "servers:\n  - {name: a, url: 'ftp://user:s3cret@host/x'}\n",
		"token in a bad url's query":  "servers:\n  - {name: a, url: 'ftp://host/x?token=s3cret'}\n",
		"secret via ${VAR} in header": "servers:\n  - {name: a, transport: sse, headers: {Authorization: 'Bearer ${TOKEN}'}}\n",
	}
	for name, doc := range docs {
		t.Run(name, func(t *testing.T) {
			lookup := func(string) (string, bool) { return secret, true }
			_, err := load([]byte(doc), "yaml", "", func() []string { return nil }, lookup, nil)
			if err == nil {
				t.Fatal("load: got nil error, want one")
			}
			if strings.Contains(err.Error(), secret) {
				t.Errorf("error text contains the secret:\n%v", err)
			}
		})
	}
}

func TestValidateDoesNotChangeFleet(t *testing.T) {
	f := &Fleet{Servers: []Server{{Name: "a", URL: "https://x/mcp"}}}
	if err := f.Validate(nil); err != nil {
		t.Fatalf("Validate: %v", err)
	}
	if f.Servers[0].Transport != "" || f.Servers[0].CallTimeout != 0 || f.DeferredTools != "" {
		t.Errorf("Validate changed the fleet: %+v", f)
	}
}

func TestSuggest(t *testing.T) {
	tests := []struct {
		got     string
		choices []string
		want    string
	}{
		{"htp", transports(), "http"},
		{"STDIO", transports(), "stdio"},
		{"camelcase", BuiltinTransformers(), "camelCase"},
		{"snake_case", BuiltinTransformers(), "snakeCase"},
		{"websocket", transports(), ""},
		{"x", nil, ""},
		{"kubernets", []string{"gitlab", "kubernetes"}, "kubernetes"},
	}
	for _, tt := range tests {
		if got := suggest(tt.got, tt.choices); got != tt.want {
			t.Errorf("suggest(%q, %q) = %q, want %q", tt.got, tt.choices, got, tt.want)
		}
	}
}
