package redisstore_test

import (
	"context"
	"net/http/httptest"
	"strconv"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpfleet/mcpfleet"
	"github.com/mcpfleet/mcpfleet/catalog"
	"github.com/mcpfleet/mcpfleet/config"
	"github.com/mcpfleet/mcpfleet/internal/gateway"
	"github.com/mcpfleet/mcpfleet/internal/testfleet"
	"github.com/mcpfleet/mcpfleet/internal/testservice"
)

// BenchmarkResultStore is put+get of a 1 MB result: the in-memory store
// (the default, which keeps the string without copying it) against Redis
// on loopback, against the floor of any Redis store (one SET and one GET
// of the megabyte), and a readResult-sized page (ReadLines of 400 lines).
func BenchmarkResultStore(b *testing.B) {
	text := testfleet.BigText(1 << 20)
	ctx := context.Background()
	b.Run("memory", func(b *testing.B) {
		m := mcpfleet.NewMemoryStore(0, 0)
		b.ReportAllocs()
		b.SetBytes(int64(len(text)))
		for b.Loop() {
			h, err := m.Put(ctx, mcpfleet.StoredResult{Owner: "o", Text: text})
			if err != nil {
				b.Fatal(err)
			}
			if _, err := m.Get(ctx, h); err != nil {
				b.Fatal(err)
			}
		}
	})
	addr := testservice.Redis(b)
	st := open(b, addr, config.ResultStore{})
	b.Run("redis", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(text)))
		for b.Loop() {
			h, err := st.Results.Put(ctx, mcpfleet.StoredResult{Owner: "o", Text: text})
			if err != nil {
				b.Fatal(err)
			}
			if _, err := st.Results.Get(ctx, h); err != nil {
				b.Fatal(err)
			}
		}
	})
	// The floor of any Redis store: one SET of the megabyte under a new
	// key (as each result is new: Redis allocates it afresh, which costs
	// far more here than overwriting one key) and one GET of it.
	b.Run("redis_raw_setget", func(b *testing.B) {
		c := st.Client()
		b.ReportAllocs()
		b.SetBytes(int64(len(text)))
		n := 0
		for b.Loop() {
			n++
			k := "bench:raw:" + strconv.Itoa(n)
			if err := c.Set(ctx, k, text, time.Hour).Err(); err != nil {
				b.Fatal(err)
			}
			if err := c.Get(ctx, k).Err(); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("redis_page", func(b *testing.B) {
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
// readResult page. "calls" is a small callTool alone.
func BenchmarkGateway(b *testing.B) {
	addr := testservice.Redis(b)
	for _, backend := range []string{"memory", "redis"} {
		b.Run(backend, func(b *testing.B) {
			ctx := context.Background()
			cfg := &config.Fleet{KindSettings: map[string]config.KindSettings{"test": {OffloadTokens: 500}}}
			opts := []mcpfleet.Option{mcpfleet.WithHealthInterval(-1),
				mcpfleet.WithInProcess("big-1", "test", testfleet.NewServer("big-1", testfleet.Options{}))}
			gcfg := gateway.Config{Activations: &catalog.MemoryStore{}}
			if backend == "redis" {
				st := open(b, addr, config.ResultStore{})
				opts = append(opts, mcpfleet.WithResultStore(st.Results))
				gcfg.Activations, gcfg.Store, gcfg.StoreBackend = st.Activations, st, "redis"
			}
			mx, err := mcpfleet.New(ctx, cfg, opts...)
			if err != nil {
				b.Fatal(err)
			}
			defer mx.Close()
			gcfg.Mux = mx
			g, err := gateway.New(gcfg)
			if err != nil {
				b.Fatal(err)
			}
			srv := httptest.NewServer(g.Handler())
			defer srv.Close()
			c, err := client.NewStreamableHttpClient(srv.URL+"/mcp", transport.WithHTTPHeaders(map[string]string{gateway.HeaderConversation: "bench"}))
			if err != nil {
				b.Fatal(err)
			}
			defer c.Close()
			if err := c.Start(ctx); err != nil {
				b.Fatal(err)
			}
			init := mcp.InitializeRequest{}
			init.Params.ProtocolVersion = mcp.LATEST_PROTOCOL_VERSION
			if _, err := c.Initialize(ctx, init); err != nil {
				b.Fatal(err)
			}
			call := func(tool string, args map[string]any) string {
				req := mcp.CallToolRequest{}
				req.Params.Name, req.Params.Arguments = tool, args
				res, err := c.CallTool(ctx, req)
				if err != nil || res.IsError {
					b.Fatalf("%s: %v %+v", tool, err, res)
				}
				return res.Content[0].(mcp.TextContent).Text
			}
			b.Run("stateful", func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					call("describeTools", map[string]any{"names": []string{"echo"}})
					call("callTool", map[string]any{"server": "big-1", "tool": "echo", "arguments": map[string]any{"text": "hi"}})
					text := call("callTool", map[string]any{"server": "big-1", "tool": "big", "arguments": map[string]any{"bytes": 100_000}})
					i := indexHandle(text)
					if i < 0 {
						b.Fatalf("no handle:\n%.300s", text)
					}
					call("readResult", map[string]any{"handle": text[i : i+14], "offset": 100, "limit": 50})
				}
			})
			// Calls that touch no state: what most of a fleet's traffic is.
			b.Run("calls", func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					call("callTool", map[string]any{"server": "big-1", "tool": "echo", "arguments": map[string]any{"text": "hi"}})
				}
			})
		})
	}
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
