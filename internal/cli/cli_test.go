package cli_test

import (
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpfleet/mcpfleet/internal/fixtures"
	"github.com/mcpfleet/mcpfleet/internal/goldenfile"
)

// TestGolden runs each subcommand in-process against a fleet of real stdio
// servers and pins its transcript: exit code, stdout and stderr.
func TestGolden(t *testing.T) {
	cfg := writeFleet(t, stdFleet, "")
	queries := "../../catalog/testdata/queries.jsonl"
	if _, err := os.Stat(queries); err != nil {
		queries = "testdata/queries.jsonl"
	}
	tests := []struct {
		name string
		args []string
		code int
	}{
		{"overview", []string{"overview", "--config", cfg}, 0},
		{"overview_json", []string{"overview", "--json", "--config", cfg}, 0},
		{"tools", []string{"tools", "--config", cfg}, 0},
		{"tools_server", []string{"tools", "--config", cfg, "--server", "prometheus-a"}, 0},
		{"tools_unknown_server", []string{"tools", "--config", cfg, "--server", "prometheus-b"}, 1},
		{"call_ok", []string{"call", "--config", cfg, "k8s-2", "pods_log", `{"name":"payments-7f9c","namespace":"shop"}`}, 0},
		{"call_flags_last", []string{"call", "k8s-2", "echo", `{"text":"hi"}`, "--config", cfg}, 0},
		{"call_as_model", []string{"call", "--as-model", "--config", cfg, "k8s-2", "pods_log", `{"name":"payments-7f9c"}`}, 0},
		{"call_image", []string{"call", "--config", cfg, "k8s-1", "image"}, 0},
		{"call_json", []string{"call", "--json", "--config", cfg, "prometheus-a", "echo", `{"text":"hi","count":2}`}, 0},
		{"call_rejected", []string{"call", "--config", cfg, "k8s-1", "pods_log", `{"namespace":"shop"}`}, 1},
		{"call_unknown_tool", []string{"call", "--config", cfg, "k8s-1", "pods_logs", `{"name":"x"}`}, 1},
		{"call_tool_error", []string{"call", "--config", cfg, "k8s-1", "fail", "{}"}, 1},
		{"call_usage", []string{"call", "--config", cfg, "k8s-1"}, 2},
		{"tokens", []string{"tokens", "--config", cfg, "--servers", "k8s-1,prometheus-a"}, 0},
		{"tokens_json", []string{"tokens", "--json", "--config", cfg, "--servers", "k8s-1,prometheus-a"}, 0},
		{"tokens_unknown_slice", []string{"tokens", "--config", cfg, "--servers", "k8s-1,k8s-9"}, 2},
		{"search", []string{"search", "--config", cfg, "why", "is", "the", "pod", "crashlooping"}, 0},
		{"search_json", []string{"search", "--json", "--k", "3", "--config", cfg, "who merged the last merge request"}, 0},
		{"search_read_only", []string{"search", "--json", "--scopes", "read", "--config", cfg, "create a merge request"}, 0},
		{"eval_search_json", []string{"eval-search", "--json", "--config", cfg, "--queries", queries}, 0},
		{"eval_search", []string{"eval-search", "--config", cfg, "--queries", queries, "--k", "3"}, 0},
		{"catalog", []string{"catalog", "--config", cfg, "--servers", "k8s-1,prometheus-a"}, 0},
		{"catalog_lint", []string{"catalog", "--lint", "--config", cfg}, 0},
		{"catalog_lint_strict", []string{"catalog", "--lint", "--strict", "--config", cfg}, 1},
		{"status", []string{"status", "--config", cfg}, 0},
		{"unknown_command", []string{"overveiw", "--config", cfg}, 2},
		{"unknown_flag", []string{"overview", "--confg", cfg}, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := run(t, nil, "", tt.args...)
			if r.code != tt.code {
				t.Errorf("exit code = %d, want %d\nstderr:\n%s", r.code, tt.code, r.stderr)
			}
			goldenfile.CheckNamed(t, tt.name, transcript(cfg, tt.args, r))
		})
	}
}

// TestTokensJSON checks the invariants of the token figures, which the
// golden file only pins.
func TestTokensJSON(t *testing.T) {
	cfg := writeFleet(t, stdFleet, "")
	r := run(t, nil, "", "tokens", "--json", "--config", cfg, "--servers", "k8s-1")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	var got struct {
		Servers            int            `json:"servers"`
		Pairs              int            `json:"pairs"`
		UniqueTools        int            `json:"unique_tools"`
		FullTokens         int            `json:"full_tokens"`
		KindsTokens        int            `json:"kinds_tokens"`
		OrchestratorTokens int            `json:"orchestrator_tokens"`
		CatalogTokens      int            `json:"catalog_tokens"`
		PerServer          map[string]int `json:"per_server"`
		SubagentTokens     int            `json:"subagent_tokens"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &got); err != nil {
		t.Fatal(err)
	}
	sum := 0
	for _, n := range got.PerServer {
		sum += n
	}
	if sum != got.FullTokens {
		t.Errorf("full_tokens = %d, want the sum of per_server, %d", got.FullTokens, sum)
	}
	if got.Servers != len(stdFleet) || len(got.PerServer) != len(stdFleet) {
		t.Errorf("servers = %d, per_server has %d, want %d", got.Servers, len(got.PerServer), len(stdFleet))
	}
	// Three identical clusters cost three times one.
	if got.PerServer["k8s-1"] != got.PerServer["k8s-3"] {
		t.Errorf("identical servers differ: k8s-1 %d, k8s-3 %d", got.PerServer["k8s-1"], got.PerServer["k8s-3"])
	}
	if !(got.UniqueTools < got.Pairs) {
		t.Errorf("unique_tools %d not below pairs %d: folding did nothing", got.UniqueTools, got.Pairs)
	}
	if !(got.OrchestratorTokens < got.KindsTokens && got.KindsTokens < got.FullTokens) {
		t.Errorf("want orchestrator %d < kinds %d < full %d", got.OrchestratorTokens, got.KindsTokens, got.FullTokens)
	}
	if got.CatalogTokens <= 0 || got.SubagentTokens <= 0 || got.SubagentTokens >= got.FullTokens {
		t.Errorf("catalog %d, subagent %d: want both positive and the subagent below full %d", got.CatalogTokens, got.SubagentTokens, got.FullTokens)
	}
}

// TestSearchJSONShape checks the fields scripts rely on.
func TestSearchJSONShape(t *testing.T) {
	cfg := writeFleet(t, stdFleet, "")
	r := run(t, nil, "", "search", "--config", cfg, "--json", "pods_exec")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	var hits []struct {
		Kind    string   `json:"kind"`
		Tool    string   `json:"tool"`
		Servers []string `json:"servers"`
		Score   *float64 `json:"score"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &hits); err != nil {
		t.Fatal(err)
	}
	if len(hits) == 0 {
		t.Fatal("no hits")
	}
	want := []string{"k8s-1", "k8s-2", "k8s-3"}
	if hits[0].Kind != "kubernetes" || hits[0].Tool != "pods_exec" || hits[0].Score == nil {
		t.Errorf("first hit = %+v, want kubernetes pods_exec with a score", hits[0])
	}
	if diff := cmp.Diff(want, hits[0].Servers); diff != "" {
		t.Errorf("servers (-want +got):\n%s", diff)
	}
}

// TestDownServer: a server that cannot start is warned about by name and
// the command runs on the others; --strict makes it fatal.
func TestDownServer(t *testing.T) {
	cfg := writeFleet(t, stdFleet[:1], "  - name: broken\n    kind: kubernetes\n    transport: stdio\n    command: /nonexistent/mcp-server\n")
	r := run(t, nil, "", "overview", "--config", cfg)
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	if !strings.Contains(r.stderr, "server broken (kind kubernetes) is down") {
		t.Errorf("stderr does not name the down server:\n%s", r.stderr)
	}
	if !strings.Contains(r.stdout, "k8s-1") {
		t.Errorf("stdout lacks the server that is up:\n%s", r.stdout)
	}
	r = run(t, nil, "", "overview", "--config", cfg, "--strict")
	if r.code != 1 || !strings.Contains(r.stderr, "broken") {
		t.Errorf("--strict: exit %d, stderr %q; want exit 1 naming broken", r.code, r.stderr)
	}
}

// TestConfigFromEnv: $MCPFLEET_CONFIG stands in for --config.
func TestConfigFromEnv(t *testing.T) {
	cfg := writeFleet(t, stdFleet[5:], "")
	r := run(t, []string{"MCPFLEET_CONFIG=" + cfg}, "", "overview")
	if diff := cmp.Diff(result{code: 0, stdout: "prometheus: prometheus-a\n"}, r, cmp.AllowUnexported(result{})); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestCallStdin: '-' reads the arguments from stdin.
func TestCallStdin(t *testing.T) {
	cfg := writeFleet(t, stdFleet[5:], "")
	r := run(t, nil, `{"text":"from stdin"}`, "call", "--config", cfg, "prometheus-a", "echo", "-")
	if r.code != 0 || !strings.HasPrefix(r.stdout, "prometheus-a: from stdin\n") {
		t.Errorf("exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
}

// TestUsage covers the runs that never connect.
func TestUsage(t *testing.T) {
	tests := []struct {
		name   string
		args   []string
		code   int
		stdout []string // substrings
		stderr []string
	}{
		{name: "no args", args: nil, code: 2, stderr: []string{"usage: mcpfleet <command>", "eval-search"}},
		{name: "help", args: []string{"help"}, code: 0, stdout: []string{"overview", "tools", "call", "tokens", "search", "eval-search", "fit-search", "catalog", "status"}},
		{name: "-h", args: []string{"-h"}, code: 0, stdout: []string{"commands:"}},
		{name: "help call", args: []string{"help", "call"}, code: 0, stdout: []string{"usage: mcpfleet call", "-config"}},
		{name: "subcommand -h", args: []string{"tokens", "-h"}, code: 0, stderr: []string{"-servers"}},
		{name: "typo", args: []string{"tokns"}, code: 2, stderr: []string{`unknown command "tokns"; did you mean "tokens"?`}},
		{name: "prefix", args: []string{"eval"}, code: 2, stderr: []string{`did you mean "eval-search"?`}},
		{name: "far off", args: []string{"frobnicate"}, code: 2, stderr: []string{`unknown command "frobnicate"`}},
		{name: "no config", args: []string{"overview"}, code: 2, stderr: []string{"no fleet file"}},
		{name: "missing config file", args: []string{"status", "--config", "/nonexistent/fleet.yaml"}, code: 1, stderr: []string{"mcpfleet status: config:"}},
		{name: "search no query", args: []string{"search", "--config", "x.yaml"}, code: 2, stderr: []string{"needs a QUERY"}},
		{name: "search bad k", args: []string{"search", "--k", "0", "--config", "x.yaml", "q"}, code: 2, stderr: []string{"--k must be"}},
		{name: "help fit-search", args: []string{"help", "fit-search"}, code: 0, stdout: []string{"usage: mcpfleet fit-search", "-queries", "-steps"}},
		{name: "eval no queries", args: []string{"eval-search", "--config", "x.yaml"}, code: 2, stderr: []string{"needs --queries"}},
		{name: "extra arg", args: []string{"overview", "--config", "x.yaml", "extra"}, code: 2, stderr: []string{"takes no arguments"}},
		{name: "flag missing value", args: []string{"tools", "--server"}, code: 2, stderr: []string{"flag needs an argument"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := run(t, nil, "", tt.args...)
			if r.code != tt.code {
				t.Errorf("exit %d, want %d; stderr:\n%s", r.code, tt.code, r.stderr)
			}
			for _, s := range tt.stdout {
				if !strings.Contains(r.stdout, s) {
					t.Errorf("stdout lacks %q:\n%s", s, r.stdout)
				}
			}
			for _, s := range tt.stderr {
				if !strings.Contains(r.stderr, s) {
					t.Errorf("stderr lacks %q:\n%s", s, r.stderr)
				}
			}
		})
	}
}

// TestToolsJSON: --json carries every tool of the server with its exact
// input schema, as the server sent it.
func TestToolsJSON(t *testing.T) {
	cfg := writeFleet(t, stdFleet, "")
	r := run(t, nil, "", "tools", "--json", "--server", "prometheus-a", "--config", cfg)
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	var defs []struct {
		Server      string          `json:"server"`
		Kind        string          `json:"kind"`
		Name        string          `json:"name"`
		InputSchema json.RawMessage `json:"inputSchema"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &defs); err != nil {
		t.Fatal(err)
	}
	byName := map[string]json.RawMessage{}
	for _, d := range defs {
		if d.Server != "prometheus-a" || d.Kind != "prometheus" {
			t.Errorf("%s: server %q kind %q, want prometheus-a, prometheus", d.Name, d.Server, d.Kind)
		}
		byName[d.Name] = d.InputSchema
	}
	for _, ft := range fixtures.MustLoad(t, "prometheus").Tools {
		got, ok := byName[ft.Name]
		if !ok {
			t.Errorf("fixture tool %s missing", ft.Name)
			continue
		}
		var want, have any
		if err := json.Unmarshal(ft.RawInputSchema, &want); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(got, &have); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, have); diff != "" {
			t.Errorf("%s schema (-want +got):\n%s", ft.Name, diff)
		}
	}
}

// TestPresetsGolden pins `mcpfleet presets` on a fleet whose kinds match
// presets by fingerprint under names of their own, plus one kind with no
// preset, and with presets turned off.
func TestPresetsGolden(t *testing.T) {
	servers := append(slices.Clone(stdFleet), fleetServer{"secrets", "secrets", "vault"}, fleetServer{"traces", "traces", "jaeger"})
	on := writeFleet(t, servers, "")
	off := writeFleet(t, servers, "presets: false\n")
	for _, tc := range []struct {
		name, cfg string
		args      []string
	}{
		{"presets", on, []string{"presets", "--config", on}},
		{"presets_json", on, []string{"presets", "--json", "--config", on}},
		{"presets_off", off, []string{"presets", "--config", off}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := run(t, nil, "", tc.args...)
			if r.code != 0 {
				t.Fatalf("exit %d: %s", r.code, r.stderr)
			}
			goldenfile.CheckNamed(t, tc.name, transcript(tc.cfg, tc.args, r))
		})
	}
}
