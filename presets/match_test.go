package presets_test

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpfleet/mcpfleet/config"
	"github.com/mcpfleet/mcpfleet/internal/fixtures"
	"github.com/mcpfleet/mcpfleet/presets"
)

func toolNames(t *testing.T, fixture string) []string {
	t.Helper()
	var out []string
	for _, tool := range fixtures.MustLoad(t, fixture).Tools {
		out = append(out, tool.Name)
	}
	return out
}

func mustAll(t *testing.T) []presets.Preset {
	t.Helper()
	all, err := presets.All()
	if err != nil {
		t.Fatal(err)
	}
	return all
}

func TestMatch(t *testing.T) {
	all := mustAll(t)
	for _, tc := range []struct {
		name   string
		kind   presets.Kind
		preset string
		reason string
	}{
		{"by serverInfo name", presets.Kind{Name: "metrics", ServerInfo: []string{"Prometheus MCP"}, Tools: []string{"something_else"}},
			"prometheus", presets.ReasonName},
		{"by fingerprint, kind named anything", presets.Kind{Name: "k", Tools: toolNames(t, "kubernetes")}, "kubernetes", presets.ReasonFingerprint},
		{"read-only variant by fingerprint", presets.Kind{Name: "gl", Tools: toolNames(t, "gitlab_readonly")}, "gitlab", presets.ReasonFingerprint},
		{"tracing by fingerprint", presets.Kind{Name: "tracing", Tools: toolNames(t, "jaeger")}, "jaeger", presets.ReasonFingerprint},
		{"by serverInfo name and version", presets.Kind{Name: "g", ServerInfo: []string{"mcp-grafana 0.7.1"}}, "grafana", presets.ReasonName},
		{"a server with no preset", presets.Kind{Name: "vault", ServerInfo: []string{"vault-mcp-server"}, Tools: toolNames(t, "vault")}, "", presets.ReasonNone},
		{"a few shared tool names are no fingerprint", presets.Kind{Name: "mix", Tools: []string{"execute_query", "list_metrics", "other", "more", "most"}}, "", presets.ReasonNone},
		{"extra tools of its own still match", presets.Kind{Name: "p", Tools: append(toolNames(t, "prometheus"), "echo", "fail", "image", "slow")}, "prometheus", presets.ReasonFingerprint},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, a := presets.Match(all, tc.kind)
			if a.Preset != tc.preset || a.Reason != tc.reason || p.Name != tc.preset {
				t.Errorf("Match = %s (%s, %.3f), preset %q; want %s (%s)", a.Preset, a.Reason, a.Score, p.Name, tc.preset, tc.reason)
			}
			if tc.reason == presets.ReasonFingerprint && a.Score < presets.FingerprintThreshold {
				t.Errorf("score %.3f below the threshold", a.Score)
			}
		})
	}
}

func TestApplyOwnSettingsWinKeyByKey(t *testing.T) {
	all := mustAll(t)
	f := &config.Fleet{KindSettings: map[string]config.KindSettings{"metrics": {
		CoreTools:    []string{"list_metrics"},
		CatalogLines: map[string]string{"execute_query": "our own line"},
		Aliases:      map[string][]string{"execute_range_query": {"our phrase"}},
	}}}
	got := presets.Apply(f, all, []presets.Kind{{Name: "metrics", Tools: toolNames(t, "prometheus")}}, presets.Options{})
	if diff := cmp.Diff([]presets.Assignment{{Kind: "metrics", Preset: "prometheus", Reason: presets.ReasonFingerprint, Score: 1}}, got); diff != "" {
		t.Errorf("assignments (-want +got):\n%s", diff)
	}
	ks := f.KindSettings["metrics"]
	if !slices.Equal(ks.CoreTools, []string{"list_metrics"}) {
		t.Errorf("core_tools = %v, want the fleet's own", ks.CoreTools)
	}
	if ks.CatalogLines["execute_query"] != "our own line" {
		t.Errorf("own catalog line lost: %q", ks.CatalogLines["execute_query"])
	}
	if !slices.Equal(ks.Aliases["execute_range_query"], []string{"our phrase"}) {
		t.Errorf("aliases of execute_range_query = %v, want the fleet's own", ks.Aliases["execute_range_query"])
	}
	if len(ks.Aliases["execute_query"]) == 0 || !slices.Equal(ks.ArgsTransformer, []string{"coerceTypes"}) {
		t.Errorf("preset aliases or args_transformer missing: %+v", ks)
	}
}

func TestApplyOffExcludedNone(t *testing.T) {
	all := mustAll(t)
	kinds := []presets.Kind{{Name: "k8s", Tools: toolNames(t, "kubernetes")}, {Name: "vault", Tools: toolNames(t, "vault")}}
	off := false
	f := &config.Fleet{Presets: &off}
	got := presets.Apply(f, all, kinds, presets.Options{})
	// Off: nothing merged, but each kind says what it would have got.
	want := []presets.Assignment{{Kind: "k8s", Preset: "kubernetes", Reason: presets.ReasonOff, Score: 1, Match: presets.ReasonFingerprint},
		{Kind: "vault", Reason: presets.ReasonOff}}
	if diff := cmp.Diff(want, got); diff != "" || f.KindSettings != nil {
		t.Errorf("presets: false (-want +got):\n%s; settings %v", diff, f.KindSettings)
	}
	f = &config.Fleet{}
	got = presets.Apply(f, all, kinds, presets.Options{Exclude: []string{"k8s"}})
	want = []presets.Assignment{{Kind: "k8s", Reason: presets.ReasonExcluded}, {Kind: "vault", Reason: presets.ReasonNone}}
	if diff := cmp.Diff(want, got); diff != "" || len(f.KindSettings) != 0 {
		t.Errorf("excluded (-want +got):\n%s; settings %v", diff, f.KindSettings)
	}
}
