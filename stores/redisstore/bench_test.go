package redisstore_test

import (
	"context"
	"math/rand/v2"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/redis/go-redis/v9"

	"github.com/mcpfleet/mcpfleet"
	"github.com/mcpfleet/mcpfleet/catalog"
	"github.com/mcpfleet/mcpfleet/config"
	"github.com/mcpfleet/mcpfleet/internal/gateway"
	"github.com/mcpfleet/mcpfleet/internal/testfleet"
	"github.com/mcpfleet/mcpfleet/internal/testservice"
)

// BenchmarkResultStore is put+get of a 1 MB result in three ways, run
// interleaved put+get by put+get in a new random order each time: the
// in-memory store (the default, which keeps the string without copying
// it), the Redis store on loopback, and the floor of any Redis store (one
// SET of the megabyte under a new key, as each result is new, and one GET
// of it). It reports the median of each and redis/memory (the issue's
// goal: at most 3) and redis/floor. "page" is a readResult-sized page of
// the stored megabyte (ReadLines of 400 lines).
//
//	go test -run '^$' -bench BenchmarkResultStore -benchtime 100x -count 6 ./stores/redisstore
func BenchmarkResultStore(b *testing.B) {
	text := testfleet.BigText(1 << 20)
	ctx := context.Background()
	m := mcpfleet.NewMemoryStore(0, 0)
	st := open(b, testservice.Redis(b), config.ResultStore{})
	c := st.Client()
	n := 0
	ways := []struct {
		name string
		do   func()
	}{
		{"memory", func() {
			h, err := m.Put(ctx, mcpfleet.StoredResult{Owner: "o", Text: text})
			if err != nil {
				b.Fatal(err)
			}
			if _, err := m.Get(ctx, h); err != nil {
				b.Fatal(err)
			}
		}},
		{"redis", func() {
			h, err := st.Results.Put(ctx, mcpfleet.StoredResult{Owner: "o", Text: text})
			if err != nil {
				b.Fatal(err)
			}
			if _, err := st.Results.Get(ctx, h); err != nil {
				b.Fatal(err)
			}
		}},
		{"floor", func() {
			n++
			k := "bench:raw:" + strconv.Itoa(n)
			if err := c.Set(ctx, k, text, time.Hour).Err(); err != nil {
				b.Fatal(err)
			}
			if err := c.Get(ctx, k).Err(); err != nil {
				b.Fatal(err)
			}
		}},
	}
	b.Run("putget", func(b *testing.B) {
		times := make([][]time.Duration, len(ways))
		b.ReportAllocs()
		for b.Loop() {
			for _, j := range rand.Perm(len(ways)) {
				start := time.Now()
				ways[j].do()
				times[j] = append(times[j], time.Since(start))
			}
		}
		med := make([]float64, len(ways))
		for j := range times {
			slices.Sort(times[j])
			med[j] = float64(times[j][len(times[j])/2].Nanoseconds())
			b.ReportMetric(med[j], ways[j].name+"-ns")
		}
		b.ReportMetric(med[1]/med[0], "redis/memory")
		b.ReportMetric(med[1]/med[2], "redis/floor")
	})
	b.Run("page", func(b *testing.B) {
		h, err := st.Results.Put(ctx, mcpfleet.StoredResult{Owner: "o", Text: text})
		if err != nil {
			b.Fatal(err)
		}
		b.ReportAllocs()
		for b.Loop() {
			if _, _, err := st.Results.ReadLines(ctx, h, 10_000, 400); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkGateway measures a gateway client over streamable HTTP with
// state in memory against state in Redis. "stateful" is a round in which
// every request but one touches state: describeTools in a conversation,
// callTool of a small and of a 100 KB (offloaded) result, and a
// readResult page. "calls" is a small callTool alone. The two backends run
// interleaved round by round, in a new random order each round, each on
// its own gateway and Mux, and the benchmark reports the median round of
// each and "redis/memory", the throughput of Redis state as a fraction of
// memory's (median memory round / median Redis round): on a loaded
// machine separate runs swing far more than the ratio.
//
//	go test -run '^$' -bench BenchmarkGateway -benchtime 300x -count 6 ./stores/redisstore
func BenchmarkGateway(b *testing.B) {
	// Both stores get the same byte budget, small enough that the warm
	// rounds fill it: 100 KB a stateful round.
	const benchBudget, warmRounds = 8 << 20, 100
	addr := testservice.Redis(b)
	ctx := context.Background()
	// Round trips and bytes from Redis do not depend on the machine's
	// load, unlike the times: the benchmark counts both.
	trips := &tripCounter{}
	var rdb redis.UniversalClient
	// gatewayClient starts a Mux and gateway with state in the backend and
	// returns a call function of a client in conversation "bench".
	gatewayClient := func(backend string) func(tool string, args map[string]any) string {
		cfg := &config.Fleet{KindSettings: map[string]config.KindSettings{"test": {OffloadTokens: 500}},
			ResultStore: config.ResultStore{MaxBytes: benchBudget}}
		opts := []mcpfleet.Option{mcpfleet.WithHealthInterval(-1),
			mcpfleet.WithInProcess("big-1", "test", testfleet.NewServer("big-1", testfleet.Options{}))}
		gcfg := gateway.Config{Activations: &catalog.MemoryStore{}}
		if backend == "redis" {
			st := open(b, addr, config.ResultStore{MaxBytes: benchBudget})
			rdb = st.Client()
			rdb.AddHook(trips)
			opts = append(opts, mcpfleet.WithResultStore(st.Results))
			gcfg.Activations, gcfg.Store, gcfg.StoreBackend = st.Activations, st, "redis"
		}
		mx, err := mcpfleet.New(ctx, cfg, opts...)
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { mx.Close() })
		gcfg.Mux = mx
		g, err := gateway.New(gcfg)
		if err != nil {
			b.Fatal(err)
		}
		srv := httptest.NewServer(g.Handler())
		b.Cleanup(srv.Close)
		c, err := client.NewStreamableHttpClient(srv.URL+"/mcp", transport.WithHTTPHeaders(map[string]string{gateway.HeaderConversation: "bench"}))
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { c.Close() })
		if err := c.Start(ctx); err != nil {
			b.Fatal(err)
		}
		init := mcp.InitializeRequest{}
		init.Params.ProtocolVersion = mcp.LATEST_PROTOCOL_VERSION
		if _, err := c.Initialize(ctx, init); err != nil {
			b.Fatal(err)
		}
		return func(tool string, args map[string]any) string {
			req := mcp.CallToolRequest{}
			req.Params.Name, req.Params.Arguments = tool, args
			res, err := c.CallTool(ctx, req)
			if err != nil || res.IsError {
				b.Fatalf("%s: %v %+v", tool, err, res)
			}
			return res.Content[0].(mcp.TextContent).Text
		}
	}
	backends := []string{"memory", "redis"}
	calls := make([]func(string, map[string]any) string, len(backends))
	for i, be := range backends {
		calls[i] = gatewayClient(be)
	}
	rounds := map[string]func(call func(string, map[string]any) string){
		"stateful": func(call func(string, map[string]any) string) {
			call("describeTools", map[string]any{"names": []string{"echo"}})
			call("callTool", map[string]any{"server": "big-1", "tool": "echo", "arguments": map[string]any{"text": "hi"}})
			text := call("callTool", map[string]any{"server": "big-1", "tool": "big", "arguments": map[string]any{"bytes": 100_000}})
			i := indexHandle(text)
			if i < 0 {
				b.Fatalf("no handle:\n%.300s", text)
			}
			call("readResult", map[string]any{"handle": text[i : i+14], "offset": 100, "limit": 50})
		},
		// Calls that touch no state: what most of a fleet's traffic is.
		"calls": func(call func(string, map[string]any) string) {
			call("callTool", map[string]any{"server": "big-1", "tool": "echo", "arguments": map[string]any{"text": "hi"}})
		},
	}
	for _, name := range []string{"stateful", "calls"} {
		round := rounds[name]
		b.Run(name, func(b *testing.B) {
			// Warm: connections, scripts, the catalog, and both stores
			// filled to their budget, where they stay in a service that
			// has run for a while. Below it, each result Redis keeps is new
			// memory for redis-server, which costs page faults (about 1 ms
			// for 100 KB on this machine) until evictions free some to
			// reuse.
			for range warmRounds {
				for _, call := range calls {
					round(call)
				}
			}
			times := make([][]time.Duration, len(backends))
			out0 := netOut(b, rdb)
			trips0 := trips.n.Load()
			b.ReportAllocs()
			for b.Loop() {
				for _, j := range rand.Perm(len(backends)) {
					start := time.Now()
					round(calls[j])
					times[j] = append(times[j], time.Since(start))
				}
			}
			med := make([]float64, len(backends))
			for j := range times {
				slices.Sort(times[j])
				med[j] = float64(times[j][len(times[j])/2].Nanoseconds())
				b.ReportMetric(med[j], backends[j]+"-ns/round")
			}
			b.ReportMetric(med[0]/med[1], "redis/memory")
			n := float64(len(times[1]))
			b.ReportMetric(float64(trips.n.Load()-trips0)/n, "redis-trips/round")
			b.ReportMetric(float64(netOut(b, rdb)-out0)/n, "redis-out-B/round")
		})
	}
}

// tripCounter is a go-redis hook that counts round trips: a command or a
// pipeline each count one.
type tripCounter struct{ n atomic.Int64 }

func (t *tripCounter) DialHook(next redis.DialHook) redis.DialHook { return next }
func (t *tripCounter) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error { t.n.Add(1); return next(ctx, cmd) }
}
func (t *tripCounter) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return func(ctx context.Context, cmds []redis.Cmder) error { t.n.Add(1); return next(ctx, cmds) }
}

// netOut is the bytes Redis has sent to its clients (INFO stats).
func netOut(b *testing.B, rdb redis.UniversalClient) int64 {
	info, err := rdb.Info(context.Background(), "stats").Result()
	if err != nil {
		b.Fatal(err)
	}
	for line := range strings.SplitSeq(info, "\r\n") {
		if v, ok := strings.CutPrefix(line, "total_net_output_bytes:"); ok {
			n, _ := strconv.ParseInt(v, 10, 64)
			return n
		}
	}
	b.Fatal("INFO stats has no total_net_output_bytes")
	return 0
}

func indexHandle(s string) int {
	for i := 0; i+14 <= len(s); i++ {
		if s[i] == 'r' && s[i+1] == '-' && isHex(s[i+2:i+14]) {
			return i
		}
	}
	return -1
}

func isHex(s string) bool {
	for _, r := range s {
		if !(r >= '0' && r <= '9' || r >= 'a' && r <= 'f') {
			return false
		}
	}
	return true
}

// BenchmarkRedisNewMemory is why BenchmarkGateway fills its stores to
// their budget before timing: a plain SET of 100 KB under a new key, with
// redis-server's memory growing ("grow"), against the same with the key
// set 20 SETs earlier deleted, so that redis-server reuses freed memory
// ("reuse", as a store at its budget does through evictions).
//
//	go test -run '^$' -bench BenchmarkRedisNewMemory -benchtime 2000x ./stores/redisstore
func BenchmarkRedisNewMemory(b *testing.B) {
	rdb := open(b, testservice.Redis(b), config.ResultStore{}).Client()
	ctx := context.Background()
	value := strings.Repeat("line of some text 0123456789\n", 100_000/29)
	for _, reuse := range []bool{false, true} {
		name := "grow"
		if reuse {
			name = "reuse"
		}
		b.Run(name, func(b *testing.B) {
			i := 0
			for b.Loop() {
				i++
				key := "bench:" + name + ":" + strconv.Itoa(i)
				if err := rdb.Set(ctx, key, value, time.Hour).Err(); err != nil {
					b.Fatal(err)
				}
				if reuse && i > 20 {
					if err := rdb.Del(ctx, "bench:"+name+":"+strconv.Itoa(i-20)).Err(); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}
