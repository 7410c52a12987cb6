// Command idlerss connects to every server of a fleet file and prints its
// own memory once all are up and idle, as one JSON line: with -mode mux
// through a library Mux (mcpfleet.New), with -mode bare through one plain
// mcp-go stdio client per server, each initialized and its tools listed,
// as any client does. BenchmarkIdleRSS (idle_bench_test.go) builds and
// runs it, so that both are measured as small programs of their own and
// not inside a test binary.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpfleet/mcpfleet"
	"github.com/mcpfleet/mcpfleet/config"
	"github.com/mcpfleet/mcpfleet/internal/procstat"
)

func main() {
	mode := flag.String("mode", "mux", "mux or bare")
	path := flag.String("config", "", "fleet file")
	heapProfile := flag.String("heapprofile", "", "write the idle heap's profile here")
	flag.Parse()
	if *heapProfile != "" {
		runtime.MemProfileRate = 4096
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cfg, err := config.Load(*path)
	if err != nil {
		fail(err)
	}
	var keep any
	switch *mode {
	case "mux":
		mx, err := mcpfleet.New(ctx, cfg, mcpfleet.WithHealthInterval(-1))
		if err != nil {
			fail(err)
		}
		for _, s := range mx.Status() {
			if !s.State.Serving() {
				fail(fmt.Errorf("server %s is %s: %s", s.Name, s.State, s.LastError))
			}
		}
		defer mx.Close()
		keep = mx
	case "bare":
		var cs []*client.Client
		for _, s := range cfg.Servers {
			var env []string
			for k, v := range s.Env {
				env = append(env, k+"="+v)
			}
			c, err := client.NewStdioMCPClient(s.Command, env, s.Args...)
			if err != nil {
				fail(err)
			}
			defer c.Close()
			init := mcp.InitializeRequest{}
			init.Params.ProtocolVersion = mcp.LATEST_PROTOCOL_VERSION
			init.Params.ClientInfo = mcp.Implementation{Name: "idlerss", Version: "1"}
			if _, err := c.Initialize(ctx, init); err != nil {
				fail(fmt.Errorf("%s: %w", s.Name, err))
			}
			if _, err := c.ListTools(ctx, mcp.ListToolsRequest{}); err != nil {
				fail(fmt.Errorf("%s: %w", s.Name, err))
			}
			cs = append(cs, c)
		}
		keep = cs
	default:
		fail(fmt.Errorf("-mode %q: want mux or bare", *mode))
	}
	runtime.GC()
	debug.FreeOSMemory()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	if *heapProfile != "" {
		f, err := os.Create(*heapProfile)
		if err != nil {
			fail(err)
		}
		if err := pprof.WriteHeapProfile(f); err != nil {
			fail(err)
		}
		f.Close()
	}
	out, _ := json.Marshal(map[string]float64{
		"heap_mib":       float64(ms.HeapAlloc) / (1 << 20),
		"rss_mib":        procstat.MiB("VmRSS"),
		"anon_mib":       procstat.MiB("RssAnon"),
		"stack_mib":      float64(ms.StackInuse) / (1 << 20),
		"heap_inuse_mib": float64(ms.HeapInuse) / (1 << 20),
		"sys_mib":        float64(ms.Sys) / (1 << 20),
		"goroutines":     float64(runtime.NumGoroutine()),
	})
	fmt.Println(string(out))
	if os.Getenv("IDLERSS_GOROUTINES") != "" {
		_ = pprof.Lookup("goroutine").WriteTo(os.Stderr, 1)
	}
	runtime.KeepAlive(keep)
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "idlerss:", err)
	os.Exit(1)
}
