package mcpfleet_test

import (
	"bytes"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/mcpfleet/mcpfleet"
	"github.com/mcpfleet/mcpfleet/config"
	"github.com/mcpfleet/mcpfleet/internal/procstat"
	"github.com/mcpfleet/mcpfleet/internal/testfleet"
)

// spillMux is a Mux over one real stdio test server whose big answers
// re-wrap their text as the filesystem server's read_text_file does,
// storing results as spill says.
func spillMux(t *testing.T, spill config.Spill, opts ...mcpfleet.Option) *mcpfleet.Mux {
	t.Helper()
	cfg := &config.Fleet{ResultStore: config.ResultStore{Spill: spill}, Servers: []config.Server{{Name: "files", Kind: "files",
		Transport: "stdio", Command: testfleet.StdioBinary(t), Args: []string{"--name", "files", "--bigwraps"}}}}
	return newMux(t, cfg, opts...)
}

// openIn is procstat.OpenIn, skipping the test where /proc is missing.
func openIn(t *testing.T, dir string) []string {
	t.Helper()
	got, err := procstat.OpenIn(dir)
	if err != nil {
		t.Skipf("no open-file listing here: %v", err)
	}
	return got
}

// offloaded calls tool and fails the test unless its result was offloaded.
func offloaded(t *testing.T, mx *mcpfleet.Mux, tool, args string) *mcpfleet.Offload {
	t.Helper()
	res, err := call(t, mx, "files", tool, args)
	if err != nil {
		t.Fatal(err)
	}
	if res.Offload == nil || res.Offload.Handle == "" {
		t.Fatalf("%s: not offloaded", tool)
	}
	return res.Offload
}

// Big results from a real stdio server go into files with no name, and
// readResult and grepResult answer from them exactly as from memory: the
// 512 KiB text of big, and echo's 570 kB text with its structuredContent
// stored under its header. Close closes the files.
func TestSpilledResultsReadAsInMemory(t *testing.T) {
	dir := t.TempDir()
	spilled := spillMux(t, config.Spill{Dir: dir, MinBytes: config.MinSpillMinBytes})
	inMemory := spillMux(t, config.Spill{Enabled: new(false)})
	for _, c := range []struct{ tool, args string }{
		{"big", `{"bytes": 524288}`},
		{"echo", `{"text": "a line with \"quotes\", ü and a tab\t\n", "count": 15000}`},
	} {
		s, m := offloaded(t, spilled, c.tool, c.args), offloaded(t, inMemory, c.tool, c.args)
		if ents, _ := os.ReadDir(dir); len(ents) != 0 {
			t.Fatalf("%s: the spill folder lists %v; want nothing", c.tool, ents)
		}
		if *s != (mcpfleet.Offload{Handle: s.Handle, Bytes: m.Bytes, Lines: m.Lines, Tokens: m.Tokens}) {
			t.Errorf("%s: offload %+v, in memory %+v", c.tool, s, m)
		}
		same := func(what, got, want string, gerr, werr error) {
			t.Helper()
			got = strings.ReplaceAll(got+fmt.Sprint(gerr), s.Handle, "H")
			want = strings.ReplaceAll(want+fmt.Sprint(werr), m.Handle, "H")
			if got != want {
				t.Errorf("%s %s:\nspilled   %.400q\nin memory %.400q", c.tool, what, got, want)
			}
		}
		for _, off := range []int{0, 1, 399, 4000, m.Lines / 2, m.Lines - 3, m.Lines, m.Lines + 10} {
			for _, limit := range []int{400, 7} {
				got, gerr := spilled.ReadResult(t.Context(), s.Handle, off, limit)
				want, werr := inMemory.ReadResult(t.Context(), m.Handle, off, limit)
				same(fmt.Sprintf("ReadResult(%d, %d)", off, limit), got, want, gerr, werr)
			}
		}
		for _, pat := range []string{`line 4242:|"server": "files"|structuredContent`, `handled$|ü`, `(`} {
			for _, ctxLines := range []int{0, 2} {
				got, gerr := spilled.GrepResult(t.Context(), s.Handle, pat, ctxLines)
				want, werr := inMemory.GrepResult(t.Context(), m.Handle, pat, ctxLines)
				same(fmt.Sprintf("GrepResult(%q, %d)", pat, ctxLines), got, want, gerr, werr)
			}
		}
		if c.tool == "echo" { // its structuredContent went with the text
			if got, err := spilled.GrepResult(t.Context(), s.Handle, `"server": "files"`, 0); err != nil || !strings.Contains(got, "server") {
				t.Errorf("grep of the spilled structuredContent: %v\n%.600s", err, got)
			}
		}
	}
	if got := openIn(t, dir); len(got) != 2 || !strings.HasSuffix(got[0], " (deleted)") {
		t.Errorf("open files in the spill folder: %q; want 2, deleted", got)
	}
	spilled.Close()
	if got := openIn(t, dir); len(got) != 0 {
		t.Errorf("after Close, open files in the spill folder: %q; want none", got)
	}
}

// Over the spill budget the least recently used spilled result goes and
// its file is closed; reads racing an eviction see either the result or
// an unknown handle, never a closed file.
func TestSpilledResultEvicted(t *testing.T) {
	dir := t.TempDir()
	mx := spillMux(t, config.Spill{Dir: dir, MinBytes: config.MinSpillMinBytes, MaxBytes: 1 << 20})
	const args = `{"bytes": 393216}` // 384 KiB: two fit in the 1 MiB budget, not three
	first, second := offloaded(t, mx, "big", args), offloaded(t, mx, "big", args)
	third := offloaded(t, mx, "big", args)
	if _, err := mx.ReadResult(t.Context(), first.Handle, 0, 10); !errors.Is(err, mcpfleet.ErrResultNotFound) {
		t.Errorf("first result: err = %v; want evicted", err)
	}
	for _, o := range []*mcpfleet.Offload{second, third} {
		if _, err := mx.ReadResult(t.Context(), o.Handle, 0, 10); err != nil {
			t.Errorf("%s: %v", o.Handle, err)
		}
	}
	if got := openIn(t, dir); len(got) != 2 {
		t.Errorf("open files in the spill folder: %q; want the 2 results held", got)
	}
	var wg sync.WaitGroup
	for _, o := range []*mcpfleet.Offload{second, third} {
		wg.Go(func() {
			for range 10 {
				_, err := mx.ReadResult(t.Context(), o.Handle, 5000, 400)
				if err == nil {
					_, err = mx.GrepResult(t.Context(), o.Handle, "line 9999:", 1)
				}
				if err != nil && !errors.Is(err, mcpfleet.ErrResultNotFound) {
					t.Errorf("read during eviction: %v", err)
					return
				}
			}
		})
	}
	offloaded(t, mx, "big", args)
	offloaded(t, mx, "big", args)
	wg.Wait()
	if got := openIn(t, dir); len(got) != 2 {
		t.Errorf("open files in the spill folder: %q; want the 2 results held", got)
	}
}

// A spill folder where no file can be made keeps results in memory: they
// are offloaded and readable as ever, with one warning for all of them.
func TestSpillFolderUnusable(t *testing.T) {
	var logged bytes.Buffer
	missing := filepath.Join(t.TempDir(), "missing")
	mx := spillMux(t, config.Spill{Dir: missing, MinBytes: config.MinSpillMinBytes},
		mcpfleet.WithLogger(slog.New(slog.NewTextHandler(&logged, nil))))
	for range 2 {
		o := offloaded(t, mx, "big", `{"bytes": 200000}`)
		if page, err := mx.ReadResult(t.Context(), o.Handle, 100, 1); err != nil || !strings.Contains(page, "line 100:") {
			t.Errorf("ReadResult: %v\n%.400s", err, page)
		}
	}
	warnings := 0
	for l := range strings.Lines(logged.String()) {
		if strings.Contains(l, "level=WARN") && strings.Contains(l, "spill") {
			warnings++
			if !strings.Contains(l, missing) {
				t.Errorf("the warning does not name the folder %s:\n%s", missing, l)
			}
		}
	}
	if warnings != 1 {
		t.Errorf("%d spill warnings; want 1:\n%s", warnings, logged.String())
	}
}
