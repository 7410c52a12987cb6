package mcpfleet_test

import (
	"context"
	"flag"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"runtime/pprof"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpfleet/mcpfleet"
	"github.com/mcpfleet/mcpfleet/config"
	"github.com/mcpfleet/mcpfleet/internal/testfleet"
)

// BenchmarkBigResults makes five calls that each return 20 MB, over stdio
// to a real mcp-go server answering as the reference filesystem server's
// read_text_file does (the text, and structuredContent re-wrapping it):
// bare is an mcp-go client, mux the Mux with its default offloading. One
// op is the five calls. It reports the heap's peak (sampled every 100 µs
// through runtime/metrics), the process's peak RSS over the op (VmHWM,
// reset first through /proc/self/clear_refs), and the heap retained after
// a GC with the client still open: for the Mux, the offloaded results it
// holds in memory (none by default: results of 1 MiB or more spill into
// temp files, result_store.spill).
//
// Run the variants interleaved, each op from a freed heap:
//
//	go test -run '^$' -bench BenchmarkBigResults -benchtime 1x -count 6 .
//
// -bigresults.heapprofile=/tmp/big writes /tmp/big.BenchmarkBigResults-mux
// (and -bare) after the last op: what each keeps (go tool pprof -sample_index=inuse_space).
func BenchmarkBigResults(b *testing.B) {
	const size, calls = 20 << 20, 5
	bin := testfleet.StdioBinary(b)
	args := []string{"--name", "files", "--bigwraps"}
	b.Run("bare", func(b *testing.B) {
		c := bareClient(b, client.NewClient(transport.NewStdio(bin, nil, args...)), false)
		bigResults(b, calls, func(ctx context.Context) int {
			req := mcp.CallToolRequest{}
			req.Params.Name = "big"
			req.Params.Arguments = map[string]any{"bytes": size}
			res, err := c.CallTool(ctx, req)
			if err != nil {
				b.Fatal(err)
			}
			return len(res.Content[0].(mcp.TextContent).Text)
		})
	})
	b.Run("mux", func(b *testing.B) {
		cfg := &config.Fleet{Servers: []config.Server{{Name: "files", Kind: "files", Transport: "stdio", Command: bin, Args: args}}}
		mx, err := mcpfleet.New(b.Context(), cfg, mcpfleet.WithHealthInterval(-1))
		if err != nil {
			b.Fatal(err)
		}
		defer mx.Close()
		raw := []byte(`{"bytes": 20971520}`)
		bigResults(b, calls, func(ctx context.Context) int {
			res, err := mx.CallTool(ctx, "files", "big", raw)
			if err != nil {
				b.Fatal(err)
			}
			if res.Offload == nil {
				b.Fatal("not offloaded")
			}
			return res.Offload.Bytes
		})
	})
}

// bigResults runs calls calls per op and reports the memory figures of
// BenchmarkBigResults.
func bigResults(b *testing.B, calls int, call func(context.Context) int) {
	var peakHeap, peakRSS float64
	for b.Loop() {
		b.StopTimer()
		runtime.GC()
		debug.FreeOSMemory()
		resetPeakRSS()
		stop := sampleHeap()
		b.StartTimer()
		for range calls {
			if n := call(b.Context()); n < 20<<20 {
				b.Fatalf("got %d bytes", n)
			}
		}
		b.StopTimer()
		peakHeap = max(peakHeap, stop())
		peakRSS = max(peakRSS, peakRSSMiB())
		b.StartTimer()
	}
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	if *bigHeapProfile != "" {
		writeHeapProfile(b, *bigHeapProfile+"."+strings.ReplaceAll(b.Name(), "/", "-"))
	}
	b.ReportMetric(peakHeap, "peak-heap-MiB")
	b.ReportMetric(peakRSS, "peak-RSS-MiB")
	b.ReportMetric(float64(ms.HeapAlloc)/(1<<20), "retained-MiB")
}

// bigHeapProfile names the heap profiles BenchmarkBigResults writes after
// its last op, the client still open: what each variant keeps.
var bigHeapProfile = flag.String("bigresults.heapprofile", "", "BenchmarkBigResults: write a heap profile to this path plus the variant's name after the last op")

func writeHeapProfile(b *testing.B, path string) {
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	if err := pprof.WriteHeapProfile(f); err != nil {
		b.Fatal(err)
	}
}

// resetPeakRSS resets VmHWM to the current RSS (Linux; elsewhere a no-op).
func resetPeakRSS() { _ = os.WriteFile("/proc/self/clear_refs", []byte("5"), 0) }

// sampleHeap samples the bytes of heap objects every 100 µs until the
// returned func is called, which returns the peak in MiB.
func sampleHeap() func() float64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	var peak uint64
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(100 * time.Microsecond)
		defer t.Stop()
		for {
			metrics.Read(s)
			peak = max(peak, s[0].Value.Uint64())
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	}()
	return func() float64 {
		close(done)
		wg.Wait()
		return float64(peak) / (1 << 20)
	}
}
