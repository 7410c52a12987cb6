package catalog_test

import (
	"bytes"
	"encoding/json"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpfleet/mcpfleet/catalog"
	"github.com/mcpfleet/mcpfleet/catalog/internal/catalogtest"
	"github.com/mcpfleet/mcpfleet/internal/fixtures"
	"github.com/mcpfleet/mcpfleet/kindgroups"
)

func TestBuildFoldsFleet(t *testing.T) {
	c := catalogtest.BuildFleet(t)
	es := c.Entries()
	if len(es) < 200 {
		t.Fatalf("fleet has %d unique (kind, tool) entries, want 200+", len(es))
	}
	tests := []struct {
		kind, tool  string
		wantServers []string
		wantScopes  []string
		wantCore    bool
	}{
		{"kubernetes", "pods_log", []string{"k8s-1", "k8s-2", "k8s-3", "k8s-4", "k8s-5"}, []string{"read"}, true},
		{"kubernetes", "pods_delete", []string{"k8s-1", "k8s-2", "k8s-3", "k8s-4", "k8s-5"}, []string{"write"}, false},
		// A write tool exists only on the read-write gitlab servers.
		{"gitlab", "merge_merge_request", []string{"gitlab-a", "gitlab-b"}, []string{"write"}, false},
		{"gitlab", "get_issue", []string{"gitlab-a", "gitlab-a-ro", "gitlab-b", "gitlab-b-ro"}, []string{"read"}, false},
		// Unannotated, but the kind config says read.
		{"tracing", "search_traces", []string{"tracing"}, []string{"read"}, true},
		// Unannotated and not relaxed: write by default.
		{"opensearch", "GenericOpenSearchApiTool", []string{"logs-eu", "logs-us"}, []string{"write"}, false},
		// readOnlyHint true with destructiveHint true (slack sets both): read.
		{"slack", "channels_list", []string{"slack"}, []string{"read"}, false},
	}
	for _, tc := range tests {
		t.Run(tc.kind+"."+tc.tool, func(t *testing.T) {
			e, ok := c.Lookup(tc.kind, tc.tool)
			if !ok {
				t.Fatal("not found")
			}
			got := struct {
				Servers, Scopes []string
				Core            bool
			}{e.Servers, e.Scopes, e.Core}
			want := struct {
				Servers, Scopes []string
				Core            bool
			}{tc.wantServers, tc.wantScopes, tc.wantCore}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
			if len([]rune(e.Line)) > catalog.MaxLineLen || e.Line == "" {
				t.Errorf("line %q: want 1..%d runes", e.Line, catalog.MaxLineLen)
			}
		})
	}
	if _, ok := c.Lookup("kubernetes", "no_such_tool"); ok {
		t.Error("Lookup found a tool that does not exist")
	}
}

func TestBuildKeepsExactSchema(t *testing.T) {
	f := fixtures.MustLoad(t, "kubernetes")
	c := catalog.Build([]kindgroups.Server{{Name: "k8s-1", Kind: "kubernetes", Tools: f.Tools}}, catalog.Config{})
	for _, tl := range f.Tools {
		e, ok := c.Lookup("kubernetes", tl.Name)
		if !ok {
			t.Fatalf("%s missing", tl.Name)
		}
		if !bytes.Equal(e.Schema, tl.RawInputSchema) {
			t.Errorf("%s: schema changed", tl.Name)
		}
		if e.Description != tl.Description {
			t.Errorf("%s: description changed", tl.Name)
		}
		def, _ := c.Tool("kubernetes", tl.Name)
		if !bytes.Equal(def.RawInputSchema, tl.RawInputSchema) {
			t.Errorf("%s: Tool() schema changed", tl.Name)
		}
	}
}

func TestBuildCoreAndEnrich(t *testing.T) {
	meta := func(k string) *mcp.Meta { return &mcp.Meta{AdditionalFields: map[string]any{k: true}} }
	a := catalogtest.Tool("a_tool", "A.", true)
	a.Meta = meta("always_load")
	b := catalogtest.Tool("b_tool", "B.", true)
	b.Meta = meta("anthropic/alwaysLoad")
	cTool := catalogtest.Tool("c_tool", "C.", true)
	d := catalogtest.Tool("d_tool", "D.", false)
	servers := []kindgroups.Server{{Name: "s1", Kind: "k", Tools: []mcp.Tool{a, b, cTool, d}}}
	c := catalog.Build(servers, catalog.Config{
		Kinds: map[string]catalog.KindConfig{"k": {
			CoreTools:    []string{"c_tool"},
			CatalogLines: map[string]string{"c_tool": "  Hand   written line  "},
		}},
		Enrich: func(e *catalog.Entry) {
			if e.Tool == "d_tool" {
				e.Scopes = []string{"k:admin"}
				e.Line = "enriched"
				e.Kind = "hijacked" // not an enrichable field: ignored
			}
		},
	})
	var got []string
	for _, e := range c.Entries() {
		if e.Core {
			got = append(got, e.Tool)
		}
	}
	if diff := cmp.Diff([]string{"a_tool", "b_tool", "c_tool"}, got); diff != "" {
		t.Errorf("core (-want +got)\n%s", diff)
	}
	ce, _ := c.Lookup("k", "c_tool")
	if ce.Line != "Hand written line" || !ce.HandWritten {
		t.Errorf("hand-written line = %q (%v)", ce.Line, ce.HandWritten)
	}
	de, ok := c.Lookup("k", "d_tool")
	if !ok || de.Line != "enriched" || !slices.Equal(de.Scopes, []string{"k:admin"}) {
		t.Errorf("enriched entry = %+v, ok=%v", de, ok)
	}
	if !catalog.Permitted(de, []string{"k:admin"}) || catalog.Permitted(de, []string{"write"}) {
		t.Error("custom scope not enforced")
	}
}

func TestScopesFrom(t *testing.T) {
	ctx := t.Context()
	got, ok := catalog.ScopesFrom(ctx)
	if ok || !slices.Equal(got, []string{"read"}) {
		t.Errorf("no scopes: got %v, %v; want [read], false", got, ok)
	}
	got, ok = catalog.ScopesFrom(catalog.WithScopes(ctx, "write"))
	if !ok || !slices.Equal(got, []string{"write"}) {
		t.Errorf("got %v, %v", got, ok)
	}
}

func TestPermitted(t *testing.T) {
	read := catalog.Entry{Scopes: []string{"read"}}
	write := catalog.Entry{Scopes: []string{"write"}}
	tests := []struct {
		name   string
		e      catalog.Entry
		scopes []string
		want   bool
	}{
		{"read sees read", read, []string{"read"}, true},
		{"read never sees write", write, []string{"read"}, false},
		{"write implies read", read, []string{"write"}, true},
		{"star sees all", write, []string{"*"}, true},
		{"no scopes see nothing", read, nil, false},
		{"no requirement", catalog.Entry{}, nil, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := catalog.Permitted(tc.e, tc.scopes); got != tc.want {
				t.Errorf("Permitted = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestHitJSON(t *testing.T) {
	b, err := json.Marshal(catalog.Hit{Kind: "k", Tool: "t", Servers: []string{"s"}, Line: "l", Score: 1.5, Loaded: true, AvoidWhen: "x"})
	if err != nil {
		t.Fatal(err)
	}
	want := `{"kind":"k","tool":"t","servers":["s"],"line":"l","score":1.5,"loaded":true,"avoid_when":"x"}`
	if diff := cmp.Diff(want, string(b)); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
	b, _ = json.Marshal(catalog.LoadResult{Loaded: []string{"a"}, AlreadyActive: []string{}})
	if diff := cmp.Diff(`{"loaded":["a"],"already_active":[]}`, string(b)); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
}
