package mcpfleet

import (
	"bytes"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpfleet/mcpfleet/config"
	"github.com/mcpfleet/mcpfleet/internal/procstat"
)

func TestMemoryStoreBudgetAndTTL(t *testing.T) {
	now := time.Unix(0, 0)
	m := NewMemoryStore(100, time.Minute)
	m.now = func() time.Time { return now }
	ctx := t.Context()
	a, _ := m.Put(ctx, StoredResult{Text: strings.Repeat("a", 40)})
	b, _ := m.Put(ctx, StoredResult{Text: strings.Repeat("b", 40)})
	if _, err := m.Get(ctx, a); err != nil { // a is now most recent
		t.Fatal(err)
	}
	c, _ := m.Put(ctx, StoredResult{Text: strings.Repeat("c", 40)}) // evicts b, the least recent
	if _, err := m.Get(ctx, b); !errors.Is(err, ErrResultNotFound) {
		t.Errorf("b: err = %v, want evicted", err)
	}
	for _, h := range []string{a, c} {
		if _, err := m.Get(ctx, h); err != nil {
			t.Errorf("%s: %v", h, err)
		}
	}
	if m.Bytes() > 100 {
		t.Errorf("holding %d bytes over a budget of 100", m.Bytes())
	}
	if _, err := m.Put(ctx, StoredResult{Text: strings.Repeat("x", 101)}); !errors.Is(err, ErrResultTooLarge) {
		t.Errorf("oversized: err = %v", err)
	}
	now = now.Add(2 * time.Minute)
	if _, err := m.Get(ctx, a); !errors.Is(err, ErrResultNotFound) {
		t.Errorf("after TTL: err = %v, want ErrResultNotFound", err)
	}
	m.Put(ctx, StoredResult{Text: "fresh"})
	if m.Len() != 1 {
		t.Errorf("expired entries kept: len %d", m.Len())
	}
}

// The store keeps a result's owner as given: the Mux refuses reads by
// anyone else, and can only do so if the owner comes back intact.
func TestMemoryStoreKeepsOwner(t *testing.T) {
	now := time.Unix(100, 0)
	m := NewMemoryStore(0, 0)
	m.now = func() time.Time { return now }
	ctx := t.Context()
	for _, owner := range []string{"", "token:0123abcd"} {
		in := StoredResult{Server: "k8s-1", Tool: "pods_log", Owner: owner, Text: "line 1\nline 2"}
		h, err := m.Put(ctx, in)
		if err != nil {
			t.Fatal(err)
		}
		got, err := m.Get(ctx, h)
		if err != nil {
			t.Fatal(err)
		}
		in.Stored = now
		if diff := cmp.Diff(in, got); diff != "" {
			t.Errorf("owner %q: Get (-want +got):\n%s", owner, diff)
		}
	}
}

// spillStore is a store that spills results of 64 KiB or more into dir,
// with room for spillBudget bytes of them.
func spillStore(t *testing.T, dir string, spillBudget int64, log *slog.Logger) *MemoryStore {
	t.Helper()
	m := NewMemoryStoreFrom(config.ResultStore{MaxBytes: 1 << 20, TTL: time.Minute,
		Spill: config.Spill{MinBytes: config.MinSpillMinBytes, Dir: dir, MaxBytes: spillBudget}}, log)
	t.Cleanup(func() { m.Close() })
	return m
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

// A big result leaves the heap for a file with no name, reads back the
// same, and its file is closed when the result is evicted by the spill
// budget, by its TTL, or by Close; small results stay in memory under
// their own budget.
func TestMemoryStoreSpills(t *testing.T) {
	dir := t.TempDir()
	now := time.Unix(0, 0)
	m := spillStore(t, dir, 330<<10, nil) // room for three results of 107 KB
	m.now = func() time.Time { return now }
	ctx := t.Context()
	big := func(c string) string { return strings.Repeat(c+" line of a big result\n", 100<<10/22) }

	small, _ := m.Put(ctx, StoredResult{Text: "small"})
	var hs []string
	for _, c := range []string{"a", "b", "c"} {
		h, err := m.Put(ctx, StoredResult{Server: "s", Owner: "o", Text: big(c)})
		if err != nil {
			t.Fatal(err)
		}
		hs = append(hs, h)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Errorf("spill folder lists %v; want nothing: the files have no name", ents)
	}
	if got := openIn(t, dir); len(got) != 3 || !strings.HasSuffix(got[0], " (deleted)") {
		t.Errorf("open files in the spill folder: %q; want 3, deleted", got)
	}
	if m.Bytes() != 5 || m.disk != int64(3*len(big("a"))) {
		t.Errorf("in memory %d, spilled %d bytes; want 5 and %d", m.Bytes(), m.disk, 3*len(big("a")))
	}
	sr, err := m.Get(ctx, hs[1])
	if err != nil || sr.Text != big("b") || sr.Server != "s" || sr.Owner != "o" {
		t.Errorf("Get of a spilled result: %d bytes, %+v, %v; want the text back", len(sr.Text), sr.Server, err)
	}

	// A fourth goes over the 330 KiB spill budget: the least recently used
	// spilled result goes (a; b was just read), the small one stays.
	d, _ := m.Put(ctx, StoredResult{Text: big("d")})
	if _, err := m.Get(ctx, hs[0]); !errors.Is(err, ErrResultNotFound) {
		t.Errorf("a: err = %v; want evicted", err)
	}
	for _, h := range []string{small, hs[1], hs[2], d} {
		if _, err := m.Get(ctx, h); err != nil {
			t.Errorf("%s: %v", h, err)
		}
	}
	if got := openIn(t, dir); len(got) != 3 {
		t.Errorf("after eviction, open files: %q; want 3", got)
	}

	now = now.Add(2 * time.Minute)
	m.Put(ctx, StoredResult{Text: big("e")})
	if got := openIn(t, dir); len(got) != 1 {
		t.Errorf("after the TTL, open files: %q; want only the new one", got)
	}
	m.Close()
	if got := openIn(t, dir); len(got) != 0 || m.Len() != 0 {
		t.Errorf("after Close, open files %q, %d results; want none", got, m.Len())
	}
}

// A spill folder where no file can be made keeps results in memory, under
// the memory budget, with one warning however many results come.
func TestMemoryStoreSpillFallsBack(t *testing.T) {
	var logged bytes.Buffer
	missing := filepath.Join(t.TempDir(), "missing")
	m := spillStore(t, missing, 0, slog.New(slog.NewTextHandler(&logged, nil)))
	text := strings.Repeat("x", 100<<10)
	for range 3 {
		h, err := m.Put(t.Context(), StoredResult{Text: text})
		if err != nil {
			t.Fatal(err)
		}
		if sr, err := m.Get(t.Context(), h); err != nil || sr.Text != text {
			t.Fatalf("Get: %d bytes, %v", len(sr.Text), err)
		}
	}
	if m.Bytes() != 3*int64(len(text)) {
		t.Errorf("in memory %d bytes; want the 3 results", m.Bytes())
	}
	if n := strings.Count(logged.String(), "level=WARN"); n != 1 || !strings.Contains(logged.String(), missing) {
		t.Errorf("logged %d warnings, want 1 naming the folder:\n%s", n, logged.String())
	}
	if _, err := m.Put(t.Context(), StoredResult{Text: strings.Repeat("x", 2<<20)}); !errors.Is(err, ErrResultTooLarge) {
		t.Errorf("over the memory budget, unspillable: err = %v; want ErrResultTooLarge", err)
	}
}

// The near tier (keep, under another store's handle) spills the same way.
func TestMemoryStoreKeepSpills(t *testing.T) {
	dir := t.TempDir()
	m := spillStore(t, dir, 0, nil)
	text := strings.Repeat("y\n", 64<<10)
	m.keep("r-0123456789ab", StoredResult{Text: text})
	m.keep("r-0123456789ab", StoredResult{Text: text}) // kept again: the first file is closed
	if got := openIn(t, dir); len(got) != 1 || m.Bytes() != 0 {
		t.Errorf("open files %q, %d bytes in memory; want one file, none in memory", got, m.Bytes())
	}
	_, f, err := m.lookup("r-0123456789ab")
	if err != nil || f == nil {
		t.Fatalf("lookup: file %v, err %v; want the spilled file", f, err)
	}
	m.Close()
	if _, err := f.Read(0, 1); !errors.Is(spillErr(err), ErrResultNotFound) {
		t.Errorf("read after Close: %v; want it reported as ErrResultNotFound", spillErr(err))
	}
}
