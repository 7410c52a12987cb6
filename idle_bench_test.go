package mcpfleet_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"testing"

	"github.com/mcpfleet/mcpfleet"
	"github.com/mcpfleet/mcpfleet/config"
	"github.com/mcpfleet/mcpfleet/internal/procstat"
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
		rss, anon = procstat.MiB("VmRSS"), procstat.MiB("RssAnon")
		runtime.KeepAlive(mx)
		mx.Close()
		b.StartTimer()
	}
	b.ReportMetric(heap, "heap-MiB")
	b.ReportMetric(rss, "RSS-MiB")
	b.ReportMetric(anon, "RSS-anon-MiB")
}

// BenchmarkIdleRSS measures the same idle fleet as BenchmarkIdleFleet,
// but each side as a small program of its own (testdata/idlerss), so
// that the figure is the process a user runs, not a test binary: a
// library Mux, and one plain mcp-go stdio client per server (initialized,
// tools listed). Each op starts one program of each, in alternating
// order; it reports the median RSS of each and mux/bare.
//
//	go test -run '^$' -bench BenchmarkIdleRSS -benchtime 6x .
func BenchmarkIdleRSS(b *testing.B) {
	dir := b.TempDir()
	bins := map[string]string{"fleetserver": "./examples/incident/fleet/cmd/fleetserver", "idlerss": "./testdata/idlerss"}
	for name, pkg := range bins {
		if out, err := exec.Command("go", "build", "-o", filepath.Join(dir, name), pkg).CombinedOutput(); err != nil {
			b.Fatalf("build %s: %v\n%s", name, err, out)
		}
	}
	run := func(mode string) float64 {
		cmd := exec.Command(filepath.Join(dir, "idlerss"), "-mode", mode, "-config", "examples/incident/fleet.yaml")
		cmd.Env = append(os.Environ(), "MCPFLEET_FLEET_BIN="+filepath.Join(dir, "fleetserver"))
		out, err := cmd.Output()
		if err != nil {
			b.Fatalf("idlerss -mode %s: %v", mode, err)
		}
		var got struct {
			RSS float64 `json:"rss_mib"`
		}
		if err := json.Unmarshal(out, &got); err != nil || got.RSS <= 0 {
			b.Fatalf("idlerss -mode %s printed %q: %v", mode, out, err)
		}
		return got.RSS
	}
	var mux, bare []float64
	i := 0
	for b.Loop() {
		if i%2 == 0 {
			mux, bare = append(mux, run("mux")), append(bare, run("bare"))
		} else {
			bare, mux = append(bare, run("bare")), append(mux, run("mux"))
		}
		i++
	}
	median := func(v []float64) float64 { slices.Sort(v); return v[len(v)/2] }
	m, bb := median(mux), median(bare)
	b.ReportMetric(m, "mux-RSS-MiB")
	b.ReportMetric(bb, "bare-RSS-MiB")
	b.ReportMetric(m/bb, "mux/bare")
}
