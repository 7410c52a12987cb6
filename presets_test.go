package mcpfleet_test

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpfleet/mcpfleet"
	"github.com/mcpfleet/mcpfleet/catalog"
	"github.com/mcpfleet/mcpfleet/config"
	"github.com/mcpfleet/mcpfleet/internal/fixtures"
	"github.com/mcpfleet/mcpfleet/internal/testfleet"
	"github.com/mcpfleet/mcpfleet/presets"
)

// TestPresetsApplied: a kind that serves kubernetes-mcp-server's tools
// under a name no preset knows gets the kubernetes preset by fingerprint,
// in search (aliases, catalog lines) and in argument handling (field map),
// unless the fleet file says presets: false; the kind's own settings win
// key by key.
func TestPresetsApplied(t *testing.T) {
	k8s := fixtures.MustLoad(t, "kubernetes")
	all, err := presets.All()
	if err != nil {
		t.Fatal(err)
	}
	var preset presets.Preset
	for _, p := range all {
		if p.Name == "kubernetes" {
			preset = p
		}
	}
	start := func(t *testing.T, cfg *config.Fleet) (*mcpfleet.Mux, *catalog.Catalog) {
		// serverInfo "cluster" names no preset: only the tools can match.
		mx := newMux(t, cfg, mcpfleet.WithInProcess("cluster", "k8s", testfleet.NewServer("cluster", testfleet.Options{Tools: k8s.Tools})))
		cat, err := catalog.BuildFleet(mx.Servers(), mx.Config())
		if err != nil {
			t.Fatal(err)
		}
		return mx, cat
	}
	line := func(cat *catalog.Catalog, tool string) string {
		for _, e := range cat.Entries() {
			if e.Kind == "k8s" && e.Tool == tool {
				return e.Line
			}
		}
		return ""
	}
	// "probe failures" is one of the preset's aliases of events_list; the
	// tools' own words do not say it, so without the preset nothing is
	// found.
	const query, want = "probe failures", "events_list"
	top := func(cat *catalog.Catalog) string {
		hits := cat.Search(t.Context(), query, 1)
		if len(hits) == 0 {
			return ""
		}
		return hits[0].Tool
	}
	podGet := func(t *testing.T, mx *mcpfleet.Mux) (string, []string) {
		res, err := call(t, mx, "cluster", "pods_get", `{"pod_name":"web-1","namespace":"shop"}`)
		if err != nil {
			return err.Error(), nil
		}
		return plain(res), res.Repairs
	}

	t.Run("on", func(t *testing.T) {
		mx, cat := start(t, &config.Fleet{})
		got := mx.Presets()
		if len(got) != 1 || got[0].Kind != "k8s" || got[0].Preset != "kubernetes" || got[0].Reason != presets.ReasonFingerprint {
			t.Fatalf("Presets() = %+v, want k8s: kubernetes by fingerprint", got)
		}
		if want := preset.Settings.CatalogLines["pods_log"]; want == "" || line(cat, "pods_log") != want {
			t.Errorf("pods_log line = %q, want the preset's %q", line(cat, "pods_log"), want)
		}
		if got := top(cat); got != want {
			t.Errorf("search %q: top hit %q, want %s (a preset alias)", query, got, want)
		}
		// The preset's field_map renames pod_name to name.
		echo, repairs := podGet(t, mx)
		if !slices.Contains(repairs, "field_map") || !strings.Contains(echo, `"name":"web-1"`) {
			t.Errorf("pods_get with pod_name: repairs %v, server got %s; want field_map to send name", repairs, echo)
		}
	})

	t.Run("off", func(t *testing.T) {
		off := false
		mx, cat := start(t, &config.Fleet{Presets: &off})
		// Off, yet it says what the kind would have got.
		wantOff := []presets.Assignment{{Kind: "k8s", Preset: "kubernetes", Reason: presets.ReasonOff, Match: presets.ReasonFingerprint}}
		if diff := cmp.Diff(wantOff, mx.Presets(), cmpopts.IgnoreFields(presets.Assignment{}, "Score")); diff != "" {
			t.Errorf("Presets() (-want +got):\n%s", diff)
		}
		if l := line(cat, "pods_log"); l == preset.Settings.CatalogLines["pods_log"] {
			t.Errorf("pods_log line is the preset's with presets: false: %q", l)
		}
		if got := top(cat); got == want {
			t.Errorf("search %q finds %s first with presets off: the test's query proves nothing", query, want)
		}
		if _, repairs := podGet(t, mx); slices.Contains(repairs, "field_map") {
			t.Errorf("field_map repaired pods_get with presets: false")
		}
		if len(mx.Config().KindSettings) != 0 {
			t.Errorf("kind_settings with presets: false = %+v, want none", mx.Config().KindSettings)
		}
	})

	t.Run("own settings win key by key", func(t *testing.T) {
		cfg := &config.Fleet{KindSettings: map[string]config.KindSettings{"k8s": {
			CatalogLines: map[string]string{"pods_get": "our own line for one pod"},
			CoreTools:    []string{"pods_get"},
		}}}
		mx, cat := start(t, cfg)
		if got := line(cat, "pods_get"); got != "our own line for one pod" {
			t.Errorf("pods_get line = %q, want the fleet's own", got)
		}
		if want := preset.Settings.CatalogLines["pods_log"]; line(cat, "pods_log") != want {
			t.Errorf("pods_log line = %q, want the preset's %q (the fleet set only pods_get's)", line(cat, "pods_log"), want)
		}
		ks := mx.Config().KindSettings["k8s"]
		if diff := cmp.Diff([]string{"pods_get"}, ks.CoreTools); diff != "" {
			t.Errorf("core_tools: a list the fleet sets replaces the preset's (-want +got):\n%s", diff)
		}
		if diff := cmp.Diff(preset.Settings.Aliases, ks.Aliases); diff != "" {
			t.Errorf("aliases: the fleet set none, so the preset's stay (-want +got):\n%s", diff)
		}
		if got := top(cat); got != want {
			t.Errorf("search %q: top hit %q, want %s (a preset alias)", query, got, want)
		}
		// New never changes the fleet it was given.
		if n := len(cfg.KindSettings["k8s"].CatalogLines); n != 1 || len(cfg.KindSettings["k8s"].Aliases) != 0 {
			t.Errorf("New changed its config: %+v", cfg.KindSettings["k8s"])
		}
	})
}

// TestPresetsRematch: presets follow a kind's tool list after New. A real
// in-process server starts with test tools only (no preset), then adds
// kubernetes-mcp-server's tools and sends tools/list_changed: the kind
// gets the kubernetes preset (Presets, Config, a catalog rebuilt from
// Config, the field map on a real call); when the tools go again, so does
// the preset.
func TestPresetsRematch(t *testing.T) {
	k8s := fixtures.MustLoad(t, "kubernetes")
	s := testfleet.NewServer("cluster", testfleet.Options{})
	mx := newMux(t, &config.Fleet{}, mcpfleet.WithInProcess("cluster", "k8s", s))
	want := func(preset, reason string) {
		t.Helper()
		got := mx.Presets()
		if len(got) != 1 || got[0].Preset != preset || got[0].Reason != reason {
			t.Fatalf("Presets() = %+v, want k8s: %q (%s)", got, preset, reason)
		}
	}
	// waitFor polls: the Mux re-lists the tools when the notification
	// arrives, on its own goroutine.
	waitFor := func(what string, ok func() bool) {
		t.Helper()
		deadline := time.Now().Add(10 * time.Second)
		for !ok() {
			if time.Now().After(deadline) {
				t.Fatalf("after tools/list_changed: %s", what)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	want("", presets.ReasonNone)
	if ks := mx.Config().KindSettings["k8s"]; len(ks.Aliases) != 0 || len(ks.FieldMap) != 0 {
		t.Fatalf("kind_settings before the k8s tools = %+v, want none", ks)
	}
	before := mx.Version()

	var names []string
	for _, tool := range k8s.Tools {
		names = append(names, tool.Name)
		s.AddTool(tool, func(ctx context.Context, r mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			b, _ := json.Marshal(r.GetArguments())
			return mcp.NewToolResultText(r.Params.Name + " " + string(b)), nil
		})
	}
	waitFor("the kind never matched the kubernetes preset", func() bool {
		got := mx.Presets()
		return len(got) == 1 && got[0].Preset == "kubernetes"
	})
	want("kubernetes", presets.ReasonFingerprint)
	if mx.Version() <= before {
		t.Errorf("Version %d after the re-match, was %d: a catalog built before would look current", mx.Version(), before)
	}
	ks := mx.Config().KindSettings["k8s"]
	if ks.FieldMap["pod_name"] != "name" || len(ks.Aliases["events_list"]) == 0 {
		t.Errorf("Config().KindSettings[k8s] = %+v, want the preset's field_map and aliases", ks)
	}
	cat, err := catalog.BuildFleet(mx.Servers(), mx.Config())
	if err != nil {
		t.Fatal(err)
	}
	if hits := cat.Search(t.Context(), "probe failures", 1); len(hits) == 0 || hits[0].Tool != "events_list" {
		t.Errorf("search for a preset alias after the re-match: %+v, want events_list", hits)
	}
	res, err := call(t, mx, "cluster", "pods_get", `{"pod_name":"web-1","namespace":"shop"}`)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(res.Repairs, "field_map") || !strings.Contains(plain(res), `"name":"web-1"`) {
		t.Errorf("pods_get with pod_name after the re-match: repairs %v, server got %s; want the preset's field_map", res.Repairs, plain(res))
	}

	s.DeleteTools(names...)
	waitFor("the kind kept the kubernetes preset", func() bool {
		got := mx.Presets()
		return len(got) == 1 && got[0].Preset == ""
	})
	want("", presets.ReasonNone)
	if ks := mx.Config().KindSettings["k8s"]; len(ks.Aliases) != 0 || len(ks.FieldMap) != 0 {
		t.Errorf("kind_settings after the k8s tools went = %+v, want none", ks)
	}
}
