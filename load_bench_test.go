package mcpfleet_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpfleet/mcpfleet"
	"github.com/mcpfleet/mcpfleet/config"
	"github.com/mcpfleet/mcpfleet/internal/procstat"
	"github.com/mcpfleet/mcpfleet/internal/testfleet"
)

// BenchmarkLoad is the fleet under load: 20,000 echo calls at concurrency
// 64 over 23 servers, 22 in-process and one stdio server ("churn") that is
// killed with SIGKILL every 100ms and restarted by the Mux; 1% of calls go
// to it. Run it once:
//
//	go test -run '^$' -bench BenchmarkLoad -benchtime 1x .
//
// It reports calls lost (returned neither a result nor an error: must be
// 0), duplicate deliveries (a call text received twice by a server: must be
// 0), and the latency of calls through the Mux against direct mcp-go
// clients to the same in-process servers under the same load.
func BenchmarkLoad(b *testing.B) {
	const (
		calls       = 20_000
		concurrency = 64
		inproc      = 22
	)
	bin := testfleet.StdioBinary(b)
	callLog := filepath.Join(b.TempDir(), "churn.log")
	var received sync.Map // in-process: call text -> *atomic.Int64
	servers := make([]*testfleetServer, inproc)
	opts := []mcpfleet.Option{mcpfleet.WithHealthInterval(-1)}
	for i := range servers {
		name := fmt.Sprintf("s-%02d", i)
		s := testfleet.NewServer(name, testfleet.Options{OnCall: func(r mcp.CallToolRequest) {
			v, _ := received.LoadOrStore(r.GetString("text", ""), new(atomic.Int64))
			v.(*atomic.Int64).Add(1)
		}})
		servers[i] = &testfleetServer{name: name, srv: s}
		opts = append(opts, mcpfleet.WithInProcess(name, "test", s))
	}
	cfg := &config.Fleet{Servers: []config.Server{{Name: "churn", Kind: "test", Transport: "stdio", Command: bin,
		Args: []string{"--name", "churn", "--diag", "--calllog", callLog}, CallTimeout: 5 * time.Second}}}
	mx, err := mcpfleet.New(b.Context(), cfg, opts...)
	if err != nil {
		b.Fatal(err)
	}
	defer mx.Close()

	// Direct clients to the same servers, for the baseline.
	direct := map[string]*client.Client{}
	for _, s := range servers {
		c, err := client.NewInProcessClient(s.srv)
		if err != nil {
			b.Fatal(err)
		}
		direct[s.name] = bareClient(b, c, false)
	}

	target := func(i int) string {
		if i%100 == 42 {
			return "churn"
		}
		return servers[i%inproc].name
	}
	b.ReportAllocs()
	run := 0
	for b.Loop() {
		run++
		// Baseline: direct calls, no churn.
		directLat := drive(calls, concurrency, func(i int) error {
			name := target(i)
			if name == "churn" {
				name = servers[0].name
			}
			req := mcp.CallToolRequest{}
			req.Params.Name = "echo"
			req.Params.Arguments = map[string]any{"text": fmt.Sprintf("d%d-%d", run, i)}
			_, err := direct[name].CallTool(context.Background(), req)
			return err
		})

		// Through the Mux, with the churn server killed every 100ms.
		stop := make(chan struct{})
		var kills atomic.Int64
		var killer sync.WaitGroup
		killer.Add(1)
		go func() {
			defer killer.Done()
			t := time.NewTicker(100 * time.Millisecond)
			defer t.Stop()
			for {
				select {
				case <-stop:
					return
				case <-t.C:
				}
				res, err := mx.CallTool(context.Background(), "churn", "pid", json.RawMessage(`{}`))
				if err != nil {
					continue // down right now
				}
				pid, _ := strconv.Atoi(plain(res))
				if pid > 0 && syscall.Kill(pid, syscall.SIGKILL) == nil {
					kills.Add(1)
				}
			}
		}()
		var outcomes sync.Map // outcome -> *atomic.Int64
		count := func(k string) {
			v, _ := outcomes.LoadOrStore(k, new(atomic.Int64))
			v.(*atomic.Int64).Add(1)
		}
		var returned atomic.Int64
		var okChurn []string
		var okMu sync.Mutex
		muxLat := drive(calls, concurrency, func(i int) error {
			text := fmt.Sprintf("m%d-%d", run, i)
			res, err := mx.CallTool(context.Background(), target(i), "echo", json.RawMessage(`{"text":"`+text+`"}`))
			returned.Add(1)
			var rej *mcpfleet.RejectError
			var up *mcpfleet.UpstreamError
			switch {
			case err == nil && res != nil:
				count("ok")
				if target(i) == "churn" {
					okMu.Lock()
					okChurn = append(okChurn, text)
					okMu.Unlock()
				}
			case errors.As(err, &rej):
				count("rejected:" + string(rej.Reason))
			case errors.As(err, &up) && up.Timeout:
				count("timeout")
			case errors.As(err, &up):
				count("upstream_error")
			default:
				count("lost")
			}
			if target(i) == "churn" {
				return nil // errors here are the point; the others must succeed
			}
			return err
		})
		close(stop)
		killer.Wait()

		lost := int64(calls) - returned.Load()
		if v, ok := outcomes.Load("lost"); ok {
			lost += v.(*atomic.Int64).Load()
		}
		// Duplicates: in-process servers count texts; the stdio server
		// appends each received text to a file that survives its restarts.
		dupes := 0
		received.Range(func(k, v any) bool {
			if strings.HasPrefix(k.(string), fmt.Sprintf("m%d-", run)) && v.(*atomic.Int64).Load() > 1 {
				dupes++
			}
			return true
		})
		logged, _ := os.ReadFile(callLog)
		seen := map[string]int{}
		for _, line := range strings.Split(string(logged), "\n") {
			if text, ok := strings.CutPrefix(line, "echo "); ok && strings.HasPrefix(text, fmt.Sprintf("m%d-", run)) {
				seen[text]++
				if seen[text] == 2 {
					dupes++
				}
			}
		}
		missing := 0
		for _, text := range okChurn {
			if seen[text] == 0 {
				missing++ // an ok answer the server never logged
			}
		}
		var summary []string
		outcomes.Range(func(k, v any) bool {
			summary = append(summary, fmt.Sprintf("%s=%d", k, v.(*atomic.Int64).Load()))
			return true
		})
		slices.Sort(summary)
		st := statusOfB(mx, "churn")
		b.Logf("outcomes: %s; churn kills=%d reconnects=%d; lost=%d dupes=%d ok-but-unlogged=%d",
			strings.Join(summary, " "), kills.Load(), st.Reconnects, lost, dupes, missing)
		b.Logf("direct p50=%v p99=%v; mux p50=%v p99=%v; errors in-process direct=%d mux=%d",
			directLat.p50, directLat.p99, muxLat.p50, muxLat.p99, directLat.errs, muxLat.errs)
		b.ReportMetric(float64(lost), "lost")
		b.ReportMetric(float64(dupes), "dupes")
		b.ReportMetric(float64(directLat.p50.Microseconds()), "direct-p50-µs")
		b.ReportMetric(float64(directLat.p99.Microseconds()), "direct-p99-µs")
		b.ReportMetric(float64(muxLat.p50.Microseconds()), "mux-p50-µs")
		b.ReportMetric(float64(muxLat.p99.Microseconds()), "mux-p99-µs")
		b.ReportMetric(float64(kills.Load()), "kills")
		if lost != 0 || dupes != 0 || missing != 0 || muxLat.errs != 0 {
			b.Errorf("lost=%d dupes=%d ok-but-unlogged=%d in-process errors=%d; want all 0", lost, dupes, missing, muxLat.errs)
		}
	}
	b.ReportMetric(peakRSSMiB(), "peak-RSS-MiB")
}

type testfleetServer struct {
	name string
	srv  *server.MCPServer
}

type latencies struct {
	p50, p99 time.Duration
	errs     int64
}

// drive runs n calls of fn at the given concurrency and returns their
// latency percentiles and error count.
func drive(n, concurrency int, fn func(i int) error) latencies {
	lat := make([]time.Duration, n)
	var next atomic.Int64
	var errs atomic.Int64
	var wg sync.WaitGroup
	for range concurrency {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1)) - 1
				if i >= n {
					return
				}
				start := time.Now()
				if err := fn(i); err != nil {
					errs.Add(1)
				}
				lat[i] = time.Since(start)
			}
		}()
	}
	wg.Wait()
	slices.Sort(lat)
	return latencies{p50: lat[n/2], p99: lat[n*99/100], errs: errs.Load()}
}

func statusOfB(mx *mcpfleet.Mux, name string) mcpfleet.ServerStatus {
	for _, s := range mx.Status() {
		if s.Name == name {
			return s
		}
	}
	return mcpfleet.ServerStatus{}
}

// peakRSSMiB reads the process's peak resident set from /proc (Linux); it
// falls back to the Go runtime's view of memory obtained from the OS.
func peakRSSMiB() float64 {
	if peak := procstat.MiB("VmHWM"); peak > 0 {
		return peak
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return float64(ms.Sys) / (1 << 20)
}
