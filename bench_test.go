package mcpfleet_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"

	"github.com/mcpfleet/mcpfleet"
	"github.com/mcpfleet/mcpfleet/config"
	"github.com/mcpfleet/mcpfleet/internal/testfleet"
)

// BenchmarkCallTool compares one call through the multiplexer (resolve,
// normalize, placeholder walk, schema validation, hooks) with the same call
// made by an mcp-go client straight to the same in-process server.
func BenchmarkCallTool(b *testing.B) {
	raw := benchArgs()
	// direct-listed is direct after one tools/list, as every real client
	// does: mcp-go then derives Mcp-Param-* headers from the cached schema
	// on each call, which the Mux, having listed tools, always pays.
	for _, listed := range []bool{false, true} {
		name := "direct"
		if listed {
			name = "direct-listed"
		}
		b.Run(name, func(b *testing.B) {
			c := benchClient(b, listed)
			b.ReportAllocs()
			defer reportCPU(b)()
			for b.Loop() {
				directCall(b, c, raw)
			}
		})
	}
	// direct-listed-meta sends a traceparent in _meta, as a traced Mux
	// does: what mcp-go's client and server spend on carrying it.
	b.Run("direct-listed-meta", func(b *testing.B) {
		c := benchClient(b, true)
		meta := &mcp.Meta{AdditionalFields: map[string]any{"traceparent": "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"}}
		b.ReportAllocs()
		defer reportCPU(b)()
		for b.Loop() {
			directCallMeta(b, c, raw, meta)
		}
	})
	// mux is the default: neutralization envelope and offload check on.
	// mux-bare turns both off, to show what they cost on a small result.
	for _, v := range []struct {
		name string
		opts []mcpfleet.Option
	}{
		{"mux", nil},
		{"mux-bare", []mcpfleet.Option{mcpfleet.WithoutNeutralize(), mcpfleet.WithoutOffload()}},
		// mux-traced is mux with tracing on, spans batched to an exporter
		// that drops them: the cost of the spans, not of shipping them.
		{"mux-traced", []mcpfleet.Option{mcpfleet.WithTracerProvider(discardTracing(b))}},
		// mux-traced-sync ends spans straight into the exporter, with no
		// batching goroutine to wake per span.
		{"mux-traced-sync", []mcpfleet.Option{mcpfleet.WithTracerProvider(syncTracing(b))}},
	} {
		b.Run(v.name, func(b *testing.B) {
			mx := benchMux(b, v.opts...)
			b.ReportAllocs()
			defer reportCPU(b)()
			for b.Loop() {
				if _, err := mx.CallTool(b.Context(), "k8s-1", "pods_log", raw); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkCallToolPaired makes, in each iteration, one call each through
// direct, direct-listed, mux and mux-bare (in rotating order) and reports
// the median time of each and the ratios of the medians. On a machine
// shared with other work, separate benchmark runs see different neighbours
// and their ratios swing by ±30%; calls interleaved microseconds apart see
// the same ones, and medians ignore the calls a neighbour preempted.
func BenchmarkCallToolPaired(b *testing.B) {
	raw := benchArgs()
	direct, listed := benchClient(b, false), benchClient(b, true)
	mx, bare := benchMux(b), benchMux(b, mcpfleet.WithoutNeutralize(), mcpfleet.WithoutOffload())
	traced := benchMux(b, mcpfleet.WithTracerProvider(discardTracing(b)))
	tracedSync := benchMux(b, mcpfleet.WithTracerProvider(syncTracing(b)))
	viaMux := func(mx *mcpfleet.Mux) func() {
		return func() {
			if _, err := mx.CallTool(b.Context(), "k8s-1", "pods_log", raw); err != nil {
				b.Fatal(err)
			}
		}
	}
	calls := []func(){
		func() { directCall(b, direct, raw) },
		func() { directCall(b, listed, raw) },
		viaMux(mx),
		viaMux(bare),
		viaMux(traced),
		viaMux(tracedSync),
	}
	times := rotate(b, len(calls), func(j int) time.Duration { return timed(calls[j]) })
	med := make([]float64, len(calls))
	for j := range times {
		slices.Sort(times[j])
		med[j] = float64(times[j][len(times[j])/2].Nanoseconds())
	}
	b.ReportMetric(med[0], "direct-ns/call")
	b.ReportMetric(med[1], "direct-listed-ns/call")
	b.ReportMetric(med[2], "mux-ns/call")
	b.ReportMetric(med[3], "mux-bare-ns/call")
	b.ReportMetric(med[2]/med[1], "mux/direct-listed")
	b.ReportMetric(med[2]/med[0], "mux/direct")
	b.ReportMetric(med[3]/med[1], "mux-bare/direct-listed")
	b.ReportMetric(med[4], "mux-traced-ns/call")
	b.ReportMetric(med[4]/med[2], "mux-traced/mux")
	b.ReportMetric(med[5]/med[2], "mux-traced-sync/mux")
}

// discardTracing is an SDK tracer provider whose batched spans go to an
// exporter that drops them.
func discardTracing(b *testing.B) *sdktrace.TracerProvider {
	tp := sdktrace.NewTracerProvider(sdktrace.WithBatcher(discardExporter{}))
	b.Cleanup(func() { _ = tp.Shutdown(context.Background()) })
	return tp
}

// syncTracing is an SDK tracer provider that hands each ended span to an
// exporter that drops it, synchronously.
func syncTracing(b *testing.B) *sdktrace.TracerProvider {
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(discardExporter{}))
	b.Cleanup(func() { _ = tp.Shutdown(context.Background()) })
	return tp
}

type discardExporter struct{}

func (discardExporter) ExportSpans(context.Context, []sdktrace.ReadOnlySpan) error { return nil }
func (discardExporter) Shutdown(context.Context) error                             { return nil }

// benchArgs are the pods_log arguments every CallTool benchmark sends.
func benchArgs() json.RawMessage {
	raw, _ := json.Marshal(map[string]any{"name": "api-7f9c", "namespace": "prod", "tailLines": 100})
	return raw
}

// benchClient is an mcp-go client of an in-process k8s-1, after one
// tools/list if listed.
func benchClient(b *testing.B, listed bool) *client.Client {
	c, err := client.NewInProcessClient(testfleet.NewServer("k8s-1", testfleet.Options{}))
	if err != nil {
		b.Fatal(err)
	}
	return bareClient(b, c, listed)
}

// bareClient starts and initializes c, a plain mcp-go client that a
// benchmark measures the Mux against, lists its tools when listed (as a
// real client does, and as the Mux must), and closes it when tb ends.
func bareClient(tb testing.TB, c *client.Client, listed bool) *client.Client {
	tb.Helper()
	tb.Cleanup(func() { c.Close() })
	if err := c.Start(tb.Context()); err != nil {
		tb.Fatal(err)
	}
	init := mcp.InitializeRequest{}
	init.Params.ClientInfo = mcp.Implementation{Name: "bench", Version: "1"}
	if _, err := c.Initialize(tb.Context(), init); err != nil {
		tb.Fatal(err)
	}
	if listed {
		if _, err := c.ListTools(tb.Context(), mcp.ListToolsRequest{}); err != nil {
			tb.Fatal(err)
		}
	}
	return c
}

func directCall(b *testing.B, c *client.Client, raw json.RawMessage) { directCallMeta(b, c, raw, nil) }

func directCallMeta(b *testing.B, c *client.Client, raw json.RawMessage, meta *mcp.Meta) {
	req := mcp.CallToolRequest{}
	req.Params.Meta = meta
	req.Params.Name = "pods_log"
	// Decoding is part of the work either way: the model's arguments
	// arrive as JSON.
	var a map[string]any
	_ = json.Unmarshal(raw, &a)
	req.Params.Arguments = a
	if _, err := c.CallTool(b.Context(), req); err != nil {
		b.Fatal(err)
	}
}

// benchMux is a Mux over an in-process k8s-1 with the kubernetes kind's
// usual transformers.
func benchMux(b *testing.B, opts ...mcpfleet.Option) *mcpfleet.Mux {
	cfg := &config.Fleet{KindSettings: map[string]config.KindSettings{
		"kubernetes": {ArgsTransformer: []string{"camelCase", "singularResourceType"}},
	}}
	opts = append([]mcpfleet.Option{mcpfleet.WithHealthInterval(-1),
		mcpfleet.WithInProcess("k8s-1", "kubernetes", testfleet.NewServer("k8s-1", testfleet.Options{}))}, opts...)
	mx, err := mcpfleet.New(b.Context(), cfg, opts...)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { mx.Close() })
	return mx
}

// BenchmarkOffload50MB returns a 50 MB result: direct is an mcp-go client
// straight to the in-process server, mux goes through the Mux, which
// offloads it so that the model sees a preview of a few hundred tokens.
// Each op is one call. The default store's 256 MiB budget bounds what is
// kept, so peak RSS stops growing after five results. B/op includes the
// server building the text and mcp-go encoding and decoding it, which is
// nearly all of it: compare with direct.
func BenchmarkOffload50MB(b *testing.B) {
	const size = 50 << 20
	args := json.RawMessage(fmt.Sprintf(`{"bytes": %d}`, size))
	b.Run("direct", func(b *testing.B) {
		c, err := client.NewInProcessClient(testfleet.NewServer("logs-1", testfleet.Options{}))
		if err != nil {
			b.Fatal(err)
		}
		bareClient(b, c, false)
		b.ReportAllocs()
		for b.Loop() {
			req := mcp.CallToolRequest{}
			req.Params.Name = "big"
			req.Params.Arguments = map[string]any{"bytes": size}
			if _, err := c.CallTool(b.Context(), req); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("mux", func(b *testing.B) {
		mx, err := mcpfleet.New(b.Context(), &config.Fleet{}, mcpfleet.WithHealthInterval(-1),
			mcpfleet.WithInProcess("logs-1", "logs", testfleet.NewServer("logs-1", testfleet.Options{})))
		if err != nil {
			b.Fatal(err)
		}
		defer mx.Close()
		b.ReportAllocs()
		var preview int
		for b.Loop() {
			res, err := mx.CallTool(b.Context(), "logs-1", "big", args)
			if err != nil {
				b.Fatal(err)
			}
			if res.Offload == nil || res.Offload.Bytes != size {
				b.Fatalf("not offloaded: %+v", res.Offload)
			}
			preview = len(res.Text())
		}
		b.ReportMetric(float64(preview), "preview-bytes")
		b.ReportMetric(peakRSSMiB(), "peak-RSS-MiB")
	})
}

// reportCPU reports the process's CPU time (user+system) per op. On a
// machine shared with other work, wall time per op mostly measures the
// neighbours; CPU time measures the code. Call as defer reportCPU(b)().
func reportCPU(b *testing.B) func() {
	start := cpuTime()
	return func() {
		if b.N > 0 {
			b.ReportMetric(float64((cpuTime()-start).Nanoseconds())/float64(b.N), "cpu-ns/op")
		}
	}
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkCallToolStdio compares calls to a stdio server (the testfleet
// binary serving k8s-1) through the Mux, all gates on (the kind's
// transformers, placeholders, schema validation, neutralization, offload
// check), with the same calls from an mcp-go client that listed the tools.
// Each sub-benchmark interleaves the two, so that both see the same
// neighbours on a loaded machine:
//
//   - p50: one call of each per iteration, in alternating order; it
//     reports the median of each and mux/direct;
//
//   - parallel64: one burst of 64 goroutines × 4 calls of each per
//     iteration, in rotating order; it reports the median throughput
//     of each (calls/s) and mux/direct. A Mux lets 16 calls a server
//     run at once by default (max_in_flight) and queues the rest, where
//     the direct client sends all 64: mux64, a Mux with max_in_flight
//     64, is the same concurrency as direct.
//
//     go test -run '^$' -bench 'BenchmarkCallToolStdio/p50' -benchtime 400x -count 8 .
//     go test -run '^$' -bench 'BenchmarkCallToolStdio/parallel64' -benchtime 20x -count 8 .
func BenchmarkCallToolStdio(b *testing.B) {
	bin := testfleet.StdioBinary(b)
	raw := benchArgs()
	direct := bareClient(b, client.NewClient(transport.NewStdio(bin, nil, "--name", "k8s-1")), true)
	cfg := &config.Fleet{
		Servers: []config.Server{{Name: "k8s-1", Kind: "kubernetes", Transport: "stdio", Command: bin, Args: []string{"--name", "k8s-1"}}},
		KindSettings: map[string]config.KindSettings{
			"kubernetes": {ArgsTransformer: []string{"camelCase", "singularResourceType"}},
		},
	}
	mx, err := mcpfleet.New(b.Context(), cfg, mcpfleet.WithHealthInterval(-1))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { mx.Close() })
	cfg64 := *cfg
	cfg64.Servers = slices.Clone(cfg.Servers)
	cfg64.Servers[0].MaxInFlight = 64
	mx64, err := mcpfleet.New(b.Context(), &cfg64, mcpfleet.WithHealthInterval(-1))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { mx64.Close() })
	// They run from many goroutines in parallel64: they report with
	// b.Error, never b.Fatal.
	calls := []func(){
		func() {
			req := mcp.CallToolRequest{}
			req.Params.Name = "pods_log"
			var a map[string]any
			_ = json.Unmarshal(raw, &a)
			req.Params.Arguments = a
			if _, err := direct.CallTool(b.Context(), req); err != nil {
				b.Error(err)
			}
		},
		func() {
			if _, err := mx.CallTool(b.Context(), "k8s-1", "pods_log", raw); err != nil {
				b.Error(err)
			}
		},
		func() {
			if _, err := mx64.CallTool(b.Context(), "k8s-1", "pods_log", raw); err != nil {
				b.Error(err)
			}
		},
	}
	b.Run("p50", func(b *testing.B) {
		times := rotate(b, 2, func(j int) time.Duration { return timed(calls[j]) })
		d, m := median(times[0]), median(times[1])
		b.ReportMetric(d, "direct-ns/call")
		b.ReportMetric(m, "mux-ns/call")
		b.ReportMetric(m/d, "mux/direct")
	})
	b.Run("parallel64", func(b *testing.B) {
		const workers, each = 64, 4
		burst := func(call func()) time.Duration {
			var wg sync.WaitGroup
			start := time.Now()
			for range workers {
				wg.Go(func() {
					for range each {
						call()
					}
				})
			}
			wg.Wait()
			return time.Since(start)
		}
		times := rotate(b, len(calls), func(j int) time.Duration { return burst(calls[j]) })
		perSec := func(ts []time.Duration) float64 { return workers * each / (median(ts) / 1e9) }
		d, m, m64 := perSec(times[0]), perSec(times[1]), perSec(times[2])
		b.ReportMetric(d, "direct-calls/s")
		b.ReportMetric(m, "mux-calls/s")
		b.ReportMetric(m64, "mux64-calls/s")
		b.ReportMetric(m/d, "mux/direct-throughput")
		b.ReportMetric(m64/d, "mux64/direct-throughput")
	})
}

// rotate runs, in each iteration of b, all n variants once, in an order
// that rotates from one iteration to the next, and returns the times
// run(j) reported for variant j: interleaved, the variants see the same
// neighbours on a loaded machine.
func rotate(b *testing.B, n int, run func(j int) time.Duration) [][]time.Duration {
	times := make([][]time.Duration, n)
	for i := 0; b.Loop(); i++ {
		for k := range n {
			j := (i + k) % n
			times[j] = append(times[j], run(j))
		}
	}
	return times
}

// timed is how long call took.
func timed(call func()) time.Duration {
	start := time.Now()
	call()
	return time.Since(start)
}

// median is the median of ts, in nanoseconds; it sorts ts.
func median(ts []time.Duration) float64 {
	slices.Sort(ts)
	return float64(ts[len(ts)/2].Nanoseconds())
}
