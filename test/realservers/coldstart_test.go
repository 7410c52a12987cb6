package realservers

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mcpfleet/mcpfleet"
	"github.com/mcpfleet/mcpfleet/config"
)

// TestColdStart measures the twelve-server fleet's startup against its
// slowest single server's, each started alone. It takes a minute or two,
// so it runs only with MCPFLEET_COLDSTART=1 (scripts/realservers-coldstart.sh);
// it prints figures and asserts nothing about time.
//
// The servers' CPU time (from the reaped children's rusage) is printed too:
// a fleet cannot start faster than its total CPU work divided by the cores,
// which on a small machine, not mcpfleet, is usually the bound.
func TestColdStart(t *testing.T) {
	if os.Getenv("MCPFLEET_COLDSTART") == "" {
		t.Skip("set MCPFLEET_COLDSTART=1 (or run scripts/realservers-coldstart.sh) to measure cold start")
	}
	real := realDir(t)
	dir := t.TempDir()
	specs := realFleet(t, real, dir)
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Minute)
	defer cancel()

	measure := func(name string, ss []spec) (time.Duration, time.Duration) {
		sub := t.TempDir()
		before := childCPU()
		mx, took := start(ctx, t, writeConfig(t, sub, ss))
		mx.Close()
		// Close does not wait for the children to be reaped.
		time.Sleep(500 * time.Millisecond)
		return took, childCPU() - before
	}
	// One of each distinct server program, alone; the read-only variants
	// start no slower than their full twins.
	var slowest time.Duration
	var slowestName string
	seen := map[string]bool{}
	for _, s := range specs {
		if seen[s.bin] {
			continue
		}
		seen[s.bin] = true
		took, cpu := measure(s.name, []spec{s})
		fmt.Printf("single %-12s %6.2fs wall %6.2fs cpu\n", s.name, took.Seconds(), cpu.Seconds())
		if took > slowest {
			slowest, slowestName = took, s.name
		}
	}
	took, cpu := measure("fleet", specs)
	fmt.Printf("fleet of %d      %6.2fs wall %6.2fs cpu on %d cores (cpu/cores %.2fs)\n", len(specs), took.Seconds(), cpu.Seconds(), runtime.NumCPU(), cpu.Seconds()/float64(runtime.NumCPU()))
	fmt.Printf("fleet / slowest single (%s): %.2fx (goal <= 1.2x)\n", slowestName, took.Seconds()/slowest.Seconds())
}

// childCPU returns the user+system time of this process's reaped children.
func childCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_CHILDREN, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// TestLazyStartFigures measures, on the twelve-server fleet, the time from
// New to the first overview and to the first searchTools answer (through
// the gateway, catalog built), eager against lazy with a warm tool cache;
// and the first call to a lazy server against that server's own cold
// start (New of it alone, eager, plus the same call). Rounds interleave
// the variants; it prints medians and asserts nothing about time. Run:
//
//	MCPFLEET_LAZYSTART=1 MCPFLEET_REAL_SERVERS=~/.cache/mcpfleet/real-servers \
//	  go test -count=1 -run '^TestLazyStartFigures$' -v ./test/realservers
func TestLazyStartFigures(t *testing.T) {
	if os.Getenv("MCPFLEET_LAZYSTART") == "" {
		t.Skip("set MCPFLEET_LAZYSTART=1 to measure lazy start")
	}
	rounds := 3
	if n, err := strconv.Atoi(os.Getenv("MCPFLEET_LAZYSTART_ROUNDS")); err == nil && n > 0 {
		rounds = n
	}
	real := realDir(t)
	dir := t.TempDir()
	specs := realFleet(t, real, dir)
	lazyDir := t.TempDir()
	lazyPath := writeStartConfig(t, lazyDir, config.StartLazy, specs)
	// Warm the cache; on a loaded machine a server may miss its connect
	// timeout, so start again. A server that never starts is left out of
	// both fleets, and the figures say how many were measured.
	for try := 1; ; try++ {
		mx := openFleet(t, lazyPath)
		var up []spec
		var missing []string
		for _, s := range mx.Status() {
			if s.State.Serving() {
				up = append(up, specs[slices.IndexFunc(specs, func(p spec) bool { return p.name == s.Name })])
			} else {
				missing = append(missing, s.Name+" ("+s.LastError+")")
			}
		}
		mx.Close()
		if len(missing) == 0 {
			break
		}
		t.Logf("warming the cache, try %d: down: %v", try, missing)
		if try == 2 {
			specs = up
			lazyPath = writeStartConfig(t, lazyDir, config.StartLazy, specs)
			break
		}
	}
	eagerPath := writeConfig(t, t.TempDir(), specs)
	fmt.Printf("fleet of %d real servers\n", len(specs))
	var fs1 []spec
	for _, s := range specs {
		if s.name == "fs-1" {
			fs1 = append(fs1, s)
		}
	}
	singlePath := writeConfig(t, t.TempDir(), fs1)
	call := `{"path": "` + filepath.Join(dir, "fs-1") + `"}`

	// firstAnswers opens path and times New -> overview and New ->
	// searchTools answered.
	firstAnswers := func(path string) (ov, search time.Duration, mx *mcpfleet.Mux) {
		cfg, err := config.Load(path)
		must(t, err)
		begin := time.Now()
		mx, err = mcpfleet.New(t.Context(), cfg, mcpfleet.WithHealthInterval(-1))
		must(t, err)
		if mx.Overview() == "" {
			t.Fatal("empty overview")
		}
		ov = time.Since(begin)
		// Any answer counts: on a loaded machine some eager servers
		// may be down, which changes the hits but not the timing.
		if got := gatewayCall(t, mx, "searchTools", map[string]any{"query": "list pods"}); strings.TrimSpace(got) == "" {
			t.Fatal("searchTools answered nothing")
		}
		return ov, time.Since(begin), mx
	}
	var eagerOv, eagerSearch, lazyOv, lazySearch, lazyCall, coldCall []time.Duration
	for r := range rounds {
		ov, s, mx := firstAnswers(eagerPath)
		mx.Close()
		eagerOv, eagerSearch = append(eagerOv, ov), append(eagerSearch, s)

		ov, s, mx = firstAnswers(lazyPath)
		lazyOv, lazySearch = append(lazyOv, ov), append(lazySearch, s)
		begin := time.Now()
		callOK(t, mx, "fs-1", "list_directory", call)
		lazyCall = append(lazyCall, time.Since(begin))
		mx.Close()

		cfg, err := config.Load(singlePath)
		must(t, err)
		begin = time.Now()
		one, err := mcpfleet.New(t.Context(), cfg, mcpfleet.WithStrict(), mcpfleet.WithHealthInterval(-1))
		must(t, err)
		callOK(t, one, "fs-1", "list_directory", call)
		coldCall = append(coldCall, time.Since(begin))
		one.Close()
		fmt.Printf("round %d: eager %.2fs/%.2fs lazy %.3fs/%.3fs first call lazy %.2fs cold %.2fs\n", r+1,
			eagerOv[r].Seconds(), eagerSearch[r].Seconds(), lazyOv[r].Seconds(), lazySearch[r].Seconds(), lazyCall[r].Seconds(), coldCall[r].Seconds())
		time.Sleep(500 * time.Millisecond) // let the children be reaped
	}
	med := func(d []time.Duration) time.Duration { slices.Sort(d); return d[len(d)/2] }
	fmt.Printf("New -> overview:      eager %6.2fs  lazy %6.3fs  (lazy/eager %.3f)\n", med(eagerOv).Seconds(), med(lazyOv).Seconds(), med(lazyOv).Seconds()/med(eagerOv).Seconds())
	fmt.Printf("New -> searchTools:   eager %6.2fs  lazy %6.3fs  (lazy/eager %.3f)\n", med(eagerSearch).Seconds(), med(lazySearch).Seconds(), med(lazySearch).Seconds()/med(eagerSearch).Seconds())
	fmt.Printf("first call fs-1:      lazy %6.2fs  own cold start %6.2fs  (ratio %.3f, goal <= 1.10)\n", med(lazyCall).Seconds(), med(coldCall).Seconds(), med(lazyCall).Seconds()/med(coldCall).Seconds())
	var la [3]float64
	if data, err := os.ReadFile("/proc/loadavg"); err == nil {
		fmt.Sscan(string(data), &la[0], &la[1], &la[2])
	}
	fmt.Printf("medians of %d rounds, load average %.1f\n", rounds, la[0])
}
