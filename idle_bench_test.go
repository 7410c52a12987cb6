package mcpfleet_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"

	"github.com/mcpfleet/mcpfleet"
	"github.com/mcpfleet/mcpfleet/config"
)

// BenchmarkIdleFleet connects a library Mux to the example's fleet
// (examples/incident/fleet.yaml: 23 stdio servers, the simulated
// kubernetes, gitlab, prometheus… servers with their real tool lists) and
// reports what it holds once every server is up: the heap's live bytes
// after a GC, and the process's resident memory after the freed pages
// are returned (RSS, and its anonymous part: RssFile is the test binary's
// own pages). One op is the whole start.
//
//	go test -run '^$' -bench BenchmarkIdleFleet -benchtime 1x -count 3 .
func BenchmarkIdleFleet(b *testing.B) {
	bin := filepath.Join(b.TempDir(), "fleetserver")
	if out, err := exec.Command("go", "build", "-o", bin, "./examples/incident/fleet/cmd/fleetserver").CombinedOutput(); err != nil {
		b.Fatalf("build fleetserver: %v\n%s", err, out)
	}
	cfg, err := config.LoadWith("examples/incident/fleet.yaml", config.LoadOptions{Environ: append(os.Environ(), "MCPFLEET_FLEET_BIN="+bin)})
	if err != nil {
		b.Fatal(err)
	}
	var heap, rss, anon float64
	for b.Loop() {
		mx, err := mcpfleet.New(b.Context(), cfg, mcpfleet.WithHealthInterval(-1))
		if err != nil {
			b.Fatal(err)
		}
		for _, s := range mx.Status() {
			if !s.State.Serving() {
				b.Fatalf("server %s is %s: %s", s.Name, s.State, s.LastError)
			}
		}
		b.StopTimer()
		runtime.GC()
		debug.FreeOSMemory()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		heap = float64(ms.HeapAlloc) / (1 << 20)
		rss, anon = procStatusMiB("VmRSS"), procStatusMiB("RssAnon")
		runtime.KeepAlive(mx)
		mx.Close()
		b.StartTimer()
	}
	b.ReportMetric(heap, "heap-MiB")
	b.ReportMetric(rss, "RSS-MiB")
	b.ReportMetric(anon, "RSS-anon-MiB")
}

// procStatusMiB reads a kB field of /proc/self/status in MiB (Linux; 0
// elsewhere).
func procStatusMiB(field string) float64 {
	st, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for l := range strings.Lines(string(st)) {
		if v, ok := strings.CutPrefix(l, field+":"); ok {
			kb, _ := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 64)
			return kb / 1024
		}
	}
	return 0
}
