package audit_test

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/mcpfleet/mcpfleet/internal/audit"
)

// TestMain doubles as the writer process of TestKilledMidRun.
func TestMain(m *testing.M) {
	if path := os.Getenv("AUDIT_TEST_WRITER"); path != "" {
		writeForever(path)
		return
	}
	os.Exit(m.Run())
}

// writeForever writes from 8 goroutines, with rotation, until killed.
func writeForever(path string) {
	l, err := audit.Open(audit.Config{Path: path, MaxBytes: 64 << 10, MaxFiles: 3})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	var wg sync.WaitGroup
	for w := range 8 {
		wg.Go(func() {
			for i := 0; ; i++ {
				_ = l.Write(record(w, i))
			}
		})
	}
	wg.Wait()
}

// record is a line long enough that torn or interleaved writes would show.
func record(w, i int) audit.Record {
	return audit.Record{Time: time.Now(), Caller: "token:" + strconv.Itoa(w), Server: "k8s-1", Kind: "kubernetes",
		Tool: "pods_log", Outcome: "ok", DurationMS: 1.5, ArgsSHA256: audit.Hash(map[string]any{"w": w, "i": i, "pad": strings.Repeat("x", 300)}),
		Repairs: []string{fmt.Sprintf("w%d-i%d", w, i)}}
}

// lines reads every file of the log and checks each line parses as a
// whole Record.
func lines(t *testing.T, paths ...string) int {
	t.Helper()
	n := 0
	for _, p := range paths {
		f, err := os.Open(p)
		if os.IsNotExist(err) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			var r audit.Record
			dec := json.NewDecoder(strings.NewReader(sc.Text()))
			dec.DisallowUnknownFields()
			if err := dec.Decode(&r); err != nil || r.Tool != "pods_log" || len(r.Repairs) != 1 || !strings.HasPrefix(r.Repairs[0], "w") {
				t.Fatalf("%s line %d does not parse as one record (%v): %.200q", p, n+1, err, sc.Text())
			}
			n++
		}
		f.Close()
	}
	return n
}

// TestConcurrentWriters: lines from many goroutines never interleave,
// across rotations, and rotation keeps MaxFiles files.
func TestConcurrentWriters(t *testing.T) {
	for _, mode := range audit.SyncModes() {
		t.Run(mode, func(t *testing.T) { concurrentWriters(t, mode) })
	}
}

func concurrentWriters(t *testing.T, mode string) {
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	l, err := audit.Open(audit.Config{Path: path, MaxBytes: 32 << 10, MaxFiles: 2, Sync: mode, SyncInterval: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for w := range 8 {
		wg.Go(func() {
			for i := range 50 {
				if err := l.Write(record(w, i)); err != nil {
					t.Error(err)
				}
			}
		})
	}
	wg.Wait()
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	n := lines(t, path, path+".1", path+".2")
	if _, err := os.Stat(path + ".3"); !os.IsNotExist(err) {
		t.Errorf("%s.3 exists; MaxFiles 2 keeps two rotated files", path)
	}
	for _, p := range []string{path, path + ".1", path + ".2"} {
		if st, err := os.Stat(p); err != nil || st.Size() > 32<<10 {
			t.Errorf("%s: %v, size over MaxBytes", p, err)
		}
	}
	// 400 lines of ~600 bytes: the rotated-away oldest ones are gone.
	if n == 0 || n >= 400 {
		t.Errorf("%d lines kept, want some but fewer than the 400 written", n)
	}
}

// TestKilledMidRun kills a process that writes from 8 goroutines with
// SIGKILL: every line left parses, and Open appends after the last whole
// line.
func TestKilledMidRun(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "AUDIT_TEST_WRITER="+path)
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(10 * time.Second); ; {
		if _, err := os.Stat(path + ".1"); err == nil {
			break // it has written and rotated
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatal("the writer never rotated")
		}
		time.Sleep(5 * time.Millisecond)
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	// Recovery, as a restarted process does it.
	l, err := audit.Open(audit.Config{Path: path})
	if err != nil {
		t.Fatal(err)
	}
	if err := l.Write(record(99, 0)); err != nil {
		t.Fatal(err)
	}
	l.Close()
	if n := lines(t, path, path+".1", path+".2", path+".3"); n < 100 {
		t.Errorf("%d lines, want the writer's many", n)
	}
}

// TestRepairTornLine: a last line without its newline is cut at Open.
func TestRepairTornLine(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	whole, _ := json.Marshal(record(1, 1))
	if err := os.WriteFile(path, append(append(whole, '\n'), whole[:40]...), 0o600); err != nil {
		t.Fatal(err)
	}
	l, err := audit.Open(audit.Config{Path: path})
	if err != nil {
		t.Fatal(err)
	}
	if err := l.Write(record(2, 2)); err != nil {
		t.Fatal(err)
	}
	l.Close()
	if n := lines(t, path); n != 2 {
		t.Errorf("%d lines after repair, want 2", n)
	}
}

// TestHash: key order does not matter; values do; nothing is escaped.
func TestHash(t *testing.T) {
	a := audit.Hash(map[string]any{"b": 1.0, "a": "<x>"})
	var m map[string]any
	_ = json.Unmarshal([]byte(`{"a":"<x>","b":1}`), &m)
	if a != audit.Hash(m) {
		t.Error("the same arguments in another key order hash differently")
	}
	if a == audit.Hash(map[string]any{"b": 2.0, "a": "<x>"}) {
		t.Error("different arguments hash alike")
	}
	// Canonical: sorted keys, no spaces, "<" as is, 1 not 1.0.
	sum := sha256.Sum256([]byte(`{"a":"<x>","b":1}`))
	if want := hex.EncodeToString(sum[:]); a != want {
		t.Errorf("Hash = %s, want sha256 of {\"a\":\"<x>\",\"b\":1} = %s", a, want)
	}
}

// FuzzOpen: whatever a previous process left in the file, Open then Write
// leaves a file that ends with a whole line, and the new line parses.
func FuzzOpen(f *testing.F) {
	f.Add([]byte("{\"tool\":\"a\"}\n{\"to"))
	f.Add([]byte("no newline at all"))
	f.Add([]byte("\n\n\n"))
	f.Fuzz(func(t *testing.T, old []byte) {
		path := filepath.Join(t.TempDir(), "audit.jsonl")
		if err := os.WriteFile(path, old, 0o600); err != nil {
			t.Fatal(err)
		}
		l, err := audit.Open(audit.Config{Path: path})
		if err != nil {
			t.Fatal(err)
		}
		if err := l.Write(record(1, 1)); err != nil {
			t.Fatal(err)
		}
		l.Close()
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
		var r audit.Record
		if !strings.HasSuffix(string(data), "\n") || json.Unmarshal([]byte(lines[len(lines)-1]), &r) != nil || r.Tool != "pods_log" {
			t.Errorf("after Open and Write: %q", data)
		}
		if kept := strings.TrimSuffix(string(data), lines[len(lines)-1]+"\n"); !strings.HasPrefix(string(old), kept) {
			t.Errorf("Open changed more than a torn tail: kept %q of %q", kept, old)
		}
	})
}

// TestSyncMode: an unknown mode is refused at Open, naming the valid ones;
// under SyncInterval a line is on disk, and a write after the background
// sync schedules another.
func TestSyncMode(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	if _, err := audit.Open(audit.Config{Path: path, Sync: "sometimes"}); err == nil || !strings.Contains(err.Error(), "always interval never") {
		t.Errorf("Open with Sync sometimes: %v, want an error listing the modes", err)
	}
	l, err := audit.Open(audit.Config{Path: path, SyncInterval: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		if err := l.Write(record(0, i)); err != nil {
			t.Fatal(err)
		}
		time.Sleep(5 * time.Millisecond) // the background sync runs meanwhile
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	if err := l.Write(record(0, 3)); err == nil {
		t.Error("Write after Close succeeded")
	}
	if n := lines(t, path); n != 3 {
		t.Errorf("%d lines, want 3", n)
	}
}

// BenchmarkWrite is one line written under each sync mode, on the test's
// temporary folder's file system.
//
//	go test -run '^$' -bench BenchmarkWrite -count 6 ./internal/audit
func BenchmarkWrite(b *testing.B) {
	for _, mode := range audit.SyncModes() {
		b.Run(mode, func(b *testing.B) {
			l, err := audit.Open(audit.Config{Path: filepath.Join(b.TempDir(), "audit.jsonl"), Sync: mode})
			if err != nil {
				b.Fatal(err)
			}
			defer l.Close()
			r := record(0, 0)
			b.ReportAllocs()
			for b.Loop() {
				if err := l.Write(r); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
