package realservers

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"syscall"
	"testing"
	"time"
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
