package mcpfleet_test

import (
	"encoding/json"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpfleet/mcpfleet"
	"github.com/mcpfleet/mcpfleet/config"
	"github.com/mcpfleet/mcpfleet/internal/testfleet"
	"github.com/mcpfleet/mcpfleet/internal/toolcache"
)

// lazyFleet is one in-process test server "a" of kind "test" in a fleet
// loaded (as far as the tool cache knows) from dir/fleet.yaml.
type lazyFleet struct {
	cfg   *config.Fleet
	calls *atomic.Int64
	logs  *lockedBuffer
	opts  []mcpfleet.Option
}

func newLazyFleet(t *testing.T, dir, start string, extra ...mcp.Tool) lazyFleet {
	t.Helper()
	f := lazyFleet{calls: new(atomic.Int64), logs: new(lockedBuffer)}
	f.cfg = &config.Fleet{Start: start, Path: filepath.Join(dir, "fleet.yaml"), Dir: dir}
	srv := testfleet.NewServer("a", testfleet.Options{Calls: f.calls, Tools: extra})
	f.opts = []mcpfleet.Option{mcpfleet.WithInProcess("a", "test", srv), mcpfleet.WithHealthInterval(-1),
		mcpfleet.WithLogger(slog.New(slog.NewTextHandler(f.logs, nil)))}
	return f
}

func (f lazyFleet) open(t *testing.T) *mcpfleet.Mux {
	t.Helper()
	mx, err := mcpfleet.New(t.Context(), f.cfg, f.opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { mx.Close() })
	return mx
}

func toolNames(mx *mcpfleet.Mux) []string {
	var out []string
	for _, s := range mx.Servers() {
		for _, tl := range s.Tools {
			out = append(out, tl.Name)
		}
	}
	slices.Sort(out)
	return out
}

// warm runs the fleet once eagerly (no cache yet) so that it writes the
// tool cache, and checks the fallback's warning.
func warm(t *testing.T, dir, start string) {
	t.Helper()
	f := newLazyFleet(t, dir, start)
	mx := f.open(t)
	st := mx.Status()[0]
	if st.State != mcpfleet.StateUp || !strings.Contains(st.Warning, "no tool cache yet") {
		t.Fatalf("first start: got %s, warning %q; want up, warning about no tool cache", st.State, st.Warning)
	}
	if !strings.Contains(f.logs.String(), "lazy start falls back to eager") {
		t.Errorf("no fallback warning logged:\n%s", f.logs.String())
	}
	mx.Close()
	if _, err := os.Stat(toolcache.Path(f.cfg.Path)); err != nil {
		t.Fatalf("tool cache not written: %v", err)
	}
}

func TestLazyStart(t *testing.T) {
	dir := t.TempDir()
	warm(t, dir, config.StartLazy)

	// The server now lists one tool more than the cache holds.
	extra := mcp.NewTool("extra_tool", mcp.WithDescription("a tool added since the cache was written"))
	f := newLazyFleet(t, dir, config.StartLazy, extra)
	mx := f.open(t)
	st := mx.Status()[0]
	if st.State != mcpfleet.StateIdle || !st.FromCache || st.Start != config.StartLazy || st.Warning != "" {
		t.Fatalf("after New: got %+v; want idle, from cache, lazy, no warning", st)
	}
	if !strings.Contains(mx.Overview(), "test") || slices.Contains(toolNames(mx), "extra_tool") || !slices.Contains(toolNames(mx), "echo") {
		t.Fatalf("cached view: overview %q, tools %v", mx.Overview(), toolNames(mx))
	}
	v0 := mx.Version()

	res, err := mx.CallTool(t.Context(), "a", "echo", json.RawMessage(`{"text":"hi"}`))
	if err != nil {
		t.Fatalf("first call: %v", err)
	}
	if !strings.Contains(plain(res), "hi") || f.calls.Load() != 1 {
		t.Fatalf("first call: %q, %d calls received", plain(res), f.calls.Load())
	}
	st = mx.Status()[0]
	if st.State != mcpfleet.StateUp || st.FromCache {
		t.Errorf("after the first call: %+v; want up, live tools", st)
	}
	if !slices.Contains(toolNames(mx), "extra_tool") || mx.Version() <= v0 {
		t.Errorf("live list not taken: tools %v, version %d -> %d", toolNames(mx), v0, mx.Version())
	}
	mx.Close()

	// The changed list was written back: the next start shows it at once.
	mx = newLazyFleet(t, dir, config.StartLazy, extra).open(t)
	if !slices.Contains(toolNames(mx), "extra_tool") {
		t.Errorf("cache not updated: %v", toolNames(mx))
	}
}

func TestLazyStartConcurrentFirstCalls(t *testing.T) {
	dir := t.TempDir()
	warm(t, dir, config.StartLazy)
	f := newLazyFleet(t, dir, config.StartLazy)
	mx := f.open(t)
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	for range 16 {
		wg.Go(func() {
			if _, err := mx.CallTool(t.Context(), "a", "echo", json.RawMessage(`{"text":"x"}`)); err != nil {
				errs <- err
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if n := f.calls.Load(); n != 16 {
		t.Errorf("server received %d calls, want 16", n)
	}
}

func TestBackgroundStart(t *testing.T) {
	dir := t.TempDir()
	warm(t, dir, config.StartBackground)
	f := newLazyFleet(t, dir, config.StartBackground)
	mx := f.open(t)
	if st := mx.Status()[0]; st.Start != config.StartBackground || !st.FromCache && st.State != mcpfleet.StateUp {
		t.Fatalf("after New: %+v", st)
	}
	deadline := time.Now().Add(30 * time.Second)
	for mx.Status()[0].State != mcpfleet.StateUp {
		if time.Now().After(deadline) {
			t.Fatalf("background server never came up: %+v", mx.Status()[0])
		}
		time.Sleep(10 * time.Millisecond)
	}
	if f.calls.Load() != 0 {
		t.Error("starting in the background made a call")
	}
}

func TestLazyStartFallsBack(t *testing.T) {
	cases := []struct {
		name  string
		spoil func(t *testing.T, dir string)
		want  string
	}{
		{"corrupt", func(t *testing.T, dir string) {
			if err := os.WriteFile(filepath.Join(dir, "fleet.tools.json"), []byte(`{"version":1,"fleet":`), 0o644); err != nil {
				t.Fatal(err)
			}
		}, "unusable"},
		{"another fleet file", func(t *testing.T, dir string) {
			other := t.TempDir()
			warm(t, other, config.StartLazy)
			data, err := os.ReadFile(filepath.Join(other, "fleet.tools.json"))
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, "fleet.tools.json"), data, 0o644); err != nil {
				t.Fatal(err)
			}
		}, "another fleet file"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			tc.spoil(t, dir)
			f := newLazyFleet(t, dir, config.StartLazy)
			mx := f.open(t)
			st := mx.Status()[0]
			if st.State != mcpfleet.StateUp || !strings.Contains(st.Warning, tc.want) {
				t.Errorf("got %s, warning %q; want up (eager), warning saying %q", st.State, st.Warning, tc.want)
			}
			if !strings.Contains(f.logs.String(), tc.want) {
				t.Errorf("log does not say %q:\n%s", tc.want, f.logs.String())
			}
		})
	}
}

func TestLazyCloseLeaksNothing(t *testing.T) {
	dir := t.TempDir()
	warm(t, dir, config.StartLazy)
	base := runtime.NumGoroutine()
	for _, start := range []string{config.StartLazy, config.StartBackground} {
		for range 5 {
			f := newLazyFleet(t, dir, start)
			mx, err := mcpfleet.New(t.Context(), f.cfg, f.opts...)
			if err != nil {
				t.Fatal(err)
			}
			if start == config.StartLazy {
				go mx.CallTool(t.Context(), "a", "echo", json.RawMessage(`{"text":"x"}`)) //nolint:errcheck // racing Close on purpose
			}
			mx.Close()
		}
	}
	deadline := time.Now().Add(10 * time.Second)
	for runtime.NumGoroutine() > base+2 {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<20)
			t.Fatalf("goroutines: %d before, %d after Close:\n%s", base, runtime.NumGoroutine(), buf[:runtime.Stack(buf, true)])
		}
		time.Sleep(20 * time.Millisecond)
	}
}
