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
