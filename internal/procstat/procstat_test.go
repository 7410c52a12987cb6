package procstat_test

import (
	"os"
	"runtime"
	"testing"

	"github.com/mcpfleet/mcpfleet/internal/procstat"
)

// TestMiB: on Linux the resident set is positive, its peak is at least
// as large, and an unknown field reads 0.
func TestMiB(t *testing.T) {
	if runtime.GOOS != "linux" {
		if got := procstat.MiB("VmRSS"); got != 0 {
			t.Fatalf("VmRSS off Linux = %v, want 0", got)
		}
		return
	}
	if _, err := os.Stat("/proc/self/status"); err != nil {
		t.Skip("no /proc here")
	}
	rss, peak := procstat.MiB("VmRSS"), procstat.MiB("VmHWM")
	if rss <= 0 || peak < rss {
		t.Errorf("VmRSS %v MiB, VmHWM %v MiB: want 0 < rss <= peak", rss, peak)
	}
	if got := procstat.MiB("NoSuchField"); got != 0 {
		t.Errorf("an unknown field = %v, want 0", got)
	}
}

// TestOpenIn: a file open under a folder is listed until it is closed,
// and marked deleted once its name is removed.
func TestOpenIn(t *testing.T) {
	if _, err := os.Stat("/proc/self/fd"); err != nil {
		t.Skip("no /proc/self/fd here")
	}
	dir := t.TempDir()
	f, err := os.CreateTemp(dir, "x")
	if err != nil {
		t.Fatal(err)
	}
	if got, err := procstat.OpenIn(dir); err != nil || len(got) != 1 || got[0] != f.Name() {
		t.Errorf("open: OpenIn = %q, %v; want [%q]", got, err, f.Name())
	}
	os.Remove(f.Name())
	if got, _ := procstat.OpenIn(dir); len(got) != 1 || got[0] != f.Name()+" (deleted)" {
		t.Errorf("removed: OpenIn = %q; want [%q]", got, f.Name()+" (deleted)")
	}
	f.Close()
	if got, _ := procstat.OpenIn(dir); len(got) != 0 {
		t.Errorf("closed: OpenIn = %q; want none", got)
	}
}
