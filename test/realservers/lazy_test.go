package realservers

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpfleet/mcpfleet"
	"github.com/mcpfleet/mcpfleet/config"
	"github.com/mcpfleet/mcpfleet/internal/gateway"
	"github.com/mcpfleet/mcpfleet/internal/testfleet"
	"github.com/mcpfleet/mcpfleet/internal/toolcache"
)

// lazySpecs is a small slice of the real fleet for the lazy start tests:
// two filesystem servers and the memory server.
func lazySpecs(t *testing.T, dir string) []spec {
	t.Helper()
	var out []spec
	for _, s := range realFleet(t, realDir(t), dir) {
		if s.kind == "filesystem" || s.kind == "memory" {
			out = append(out, s)
		}
	}
	return out
}

// writeStartConfig writes the fleet file for specs with the fleet-wide
// start key set.
func writeStartConfig(t *testing.T, dir, start string, specs []spec) string {
	t.Helper()
	path := writeConfig(t, dir, specs)
	data, err := os.ReadFile(path)
	must(t, err)
	must(t, os.WriteFile(path, append([]byte("start: "+start+"\n"), data...), 0o644))
	return path
}

// openFleet loads path and starts it, not strictly: a lazy server that
// falls back to eager must still come up.
func openFleet(t *testing.T, path string) *mcpfleet.Mux {
	t.Helper()
	cfg, err := config.Load(path)
	must(t, err)
	ctx, cancel := context.WithTimeout(t.Context(), 3*time.Minute)
	defer cancel()
	mx, err := mcpfleet.New(ctx, cfg, mcpfleet.WithHealthInterval(-1))
	must(t, err)
	t.Cleanup(func() { mx.Close() })
	return mx
}

func states(mx *mcpfleet.Mux) map[string]mcpfleet.State {
	out := map[string]mcpfleet.State{}
	for _, s := range mx.Status() {
		out[s.Name] = s.State
	}
	return out
}

// warmRealCache starts the fleet at path once: with no cache yet it
// starts eagerly, says so, and writes the cache.
func warmRealCache(t *testing.T, path string) string {
	t.Helper()
	mx := openFleet(t, path)
	for _, s := range mx.Status() {
		if s.State != mcpfleet.StateUp || !strings.Contains(s.Warning, "no tool cache yet") {
			t.Fatalf("first start, %s: %s, warning %q; want up with a warning about the missing cache", s.Name, s.State, s.Warning)
		}
	}
	ov := mx.Overview()
	mx.Close()
	_, err := os.Stat(toolcache.Path(path))
	must(t, err)
	return ov
}

func gatewayCall(t *testing.T, mx *mcpfleet.Mux, tool string, args map[string]any) string {
	t.Helper()
	g, err := gateway.New(gateway.Config{Mux: mx, Scopes: []string{"*"}})
	must(t, err)
	c := testfleet.Client(t, g.MCPServer())
	req := mcp.CallToolRequest{}
	req.Params.Name, req.Params.Arguments = tool, args
	res, err := c.CallTool(t.Context(), req)
	must(t, err)
	var b strings.Builder
	for _, ct := range res.Content {
		if tc, ok := ct.(mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	if res.IsError {
		t.Fatalf("%s: %s", tool, b.String())
	}
	return b.String()
}

// TestLazyStartReal: with a warm cache, New returns with every server
// idle; the overview, listKinds, searchTools and describeTools answer
// while no server runs; a call starts its server, and only it.
func TestLazyStartReal(t *testing.T) {
	dir := t.TempDir()
	specs := lazySpecs(t, dir)
	path := writeStartConfig(t, dir, config.StartLazy, specs)
	eagerOverview := warmRealCache(t, path)

	mx := openFleet(t, path)
	for name, st := range states(mx) {
		if st != mcpfleet.StateIdle {
			t.Fatalf("%s is %s after New; want idle", name, st)
		}
	}
	if got := mx.Overview(); got != eagerOverview {
		t.Errorf("overview from the cache differs from the live one:\n%s\nwant:\n%s", got, eagerOverview)
	}
	if got := gatewayCall(t, mx, "listKinds", map[string]any{}); !strings.Contains(got, "filesystem") || !strings.Contains(got, "memory") {
		t.Errorf("listKinds = %q", got)
	}
	if got := gatewayCall(t, mx, "searchTools", map[string]any{"query": "read a text file"}); !strings.Contains(got, "filesystem.read_text_file") {
		t.Errorf("searchTools = %q", got)
	}
	if got := gatewayCall(t, mx, "describeTools", map[string]any{"names": []string{"filesystem.read_text_file"}}); !strings.Contains(got, `"path"`) {
		t.Errorf("describeTools = %q", got)
	}
	for name, st := range states(mx) {
		if st != mcpfleet.StateIdle {
			t.Errorf("%s is %s after overview and search; want idle", name, st)
		}
	}

	root := filepath.Join(dir, "fs-1")
	if got := callOK(t, mx, "fs-1", "read_text_file", `{"path": "`+root+`/logs/app.log"}`).Text(); !strings.Contains(got, "payments-api timeout") {
		t.Errorf("read_text_file = %q", got)
	}
	want := map[string]mcpfleet.State{"fs-1": mcpfleet.StateUp, "fs-2": mcpfleet.StateIdle, "memory": mcpfleet.StateIdle}
	if got := states(mx); !mapsEqual(got, want) {
		t.Errorf("after one call: %v, want %v", got, want)
	}
}

// TestLazyStartRealChangedList: the cache says memory has a tool it does
// not, and lacks one it has; once memory starts, the kinds follow the
// live list.
func TestLazyStartRealChangedList(t *testing.T) {
	dir := t.TempDir()
	path := writeStartConfig(t, dir, config.StartLazy, lazySpecs(t, dir))
	warmRealCache(t, path)

	data, err := os.ReadFile(toolcache.Path(path))
	must(t, err)
	f, err := toolcache.Parse(data)
	must(t, err)
	e := f.Servers["memory"]
	dropped := e.Tools[0].Name
	e.Tools = append(e.Tools[1:], mcp.NewTool("ghost_tool", mcp.WithDescription("listed in the cache only")))
	f.Servers["memory"] = e
	_, err = toolcache.Write(path, f)
	must(t, err)

	mx := openFleet(t, path)
	tools := memoryTools(mx)
	if !slices.Contains(tools, "ghost_tool") || slices.Contains(tools, dropped) {
		t.Fatalf("cached kinds: memory has %v; want ghost_tool and not %s", tools, dropped)
	}
	v0 := mx.Version()
	callOK(t, mx, "memory", "read_graph", `{}`)
	tools = memoryTools(mx)
	if slices.Contains(tools, "ghost_tool") || !slices.Contains(tools, dropped) || mx.Version() <= v0 {
		t.Errorf("after start: memory has %v (version %d -> %d); want %s back and no ghost_tool", tools, v0, mx.Version(), dropped)
	}
}

func memoryTools(mx *mcpfleet.Mux) []string {
	for _, g := range mx.KindGroups() {
		if g.Kind == "memory" {
			return g.Tools
		}
	}
	return nil
}

// TestLazyStartRealFallsBack: a corrupt cache, or one written for another
// fleet file, is not used: every server starts eagerly, with a warning.
func TestLazyStartRealFallsBack(t *testing.T) {
	cases := []struct {
		name  string
		spoil func(t *testing.T, path string)
		want  string
	}{
		{"corrupt", func(t *testing.T, path string) {
			must(t, os.WriteFile(toolcache.Path(path), []byte("{\"version\": 1, \"fleet\": \x00"), 0o644))
		}, "unusable"},
		{"another fleet file", func(t *testing.T, path string) {
			other := t.TempDir()
			opath := writeStartConfig(t, other, config.StartLazy, lazySpecs(t, other))
			warmRealCache(t, opath)
			data, err := os.ReadFile(toolcache.Path(opath))
			must(t, err)
			must(t, os.WriteFile(toolcache.Path(path), data, 0o644))
		}, "another fleet file"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			path := writeStartConfig(t, dir, config.StartLazy, lazySpecs(t, dir))
			tc.spoil(t, path)
			mx := openFleet(t, path)
			for _, s := range mx.Status() {
				if s.State != mcpfleet.StateUp || !strings.Contains(s.Warning, tc.want) {
					t.Errorf("%s: %s, warning %q; want up (eager) with a warning saying %q", s.Name, s.State, s.Warning, tc.want)
				}
			}
		})
	}
}

func mapsEqual[K comparable, V comparable](a, b map[K]V) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}
