package mcpfleet_test

import (
	"fmt"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpfleet/mcpfleet/config"
	"github.com/mcpfleet/mcpfleet/internal/testfleet"
)

// A result over max_result_bytes is cut at the transport, before mcp-go
// decodes it, and ends with a note naming the bound and the size sent.
// Over stdio the server is another process, so the heap sampled here is
// the Mux's and mcp-go's alone: it must stay within a budget of a dozen
// times the bound (mcp-go decodes a message in several copies), where
// taking the 100 MB result whole costs several hundred MB.
func TestMaxResultBytesCutsLargeResults(t *testing.T) {
	const limit, size = 8 << 20, 100 << 20
	bin := testfleet.StdioBinary(t)
	httpURL := testfleet.ServeHTTP(t, testfleet.NewServer("web", testfleet.Options{}))
	cfg := &config.Fleet{
		Reliability: config.Reliability{MaxResultBytes: limit},
		Servers: []config.Server{
			{Name: "logs", Kind: "logs", Transport: "stdio", Command: bin, Args: []string{"--name", "logs"}, CallTimeout: 5 * time.Minute},
			{Name: "web", Kind: "web", Transport: "http", URL: httpURL, CallTimeout: 5 * time.Minute},
			// A server's own bound wins over the fleet's.
			{Name: "roomy", Kind: "roomy", Transport: "stdio", Command: bin, Args: []string{"--name", "roomy"}, MaxResultBytes: 12 << 20, CallTimeout: 5 * time.Minute},
		},
	}
	mx := newMux(t, cfg)
	check := func(t *testing.T, server string, limit, size int) {
		t.Helper()
		res, err := call(t, mx, server, "big", fmt.Sprintf(`{"bytes": %d}`, size))
		if err != nil {
			t.Fatal(err)
		}
		last, ok := res.Content[len(res.Content)-1].(mcp.TextContent)
		if !ok || !strings.Contains(last.Text, "was cut") || !strings.Contains(last.Text, "max_result_bytes of "+strconv.Itoa(limit)) {
			t.Fatalf("no cut note at the end: %#v", res.Content[len(res.Content)-1])
		}
		var sent int
		if _, err := fmt.Sscanf(last.Text[strings.Index(last.Text, "sent "):], "sent %d bytes", &sent); err != nil || sent < size {
			t.Errorf("note does not name the size sent (%d, %v): %q", sent, err, last.Text)
		}
		if res.Offload == nil || res.Offload.Bytes > limit || res.Offload.Bytes < limit*9/10 {
			t.Errorf("offload = %+v, want about %d bytes kept", res.Offload, limit)
		}
		if res.Meta != nil && res.Meta.AdditionalFields["mcpfleet/cut"] != nil {
			t.Errorf("the transport's cut mark reached the caller: %v", res.Meta.AdditionalFields)
		}
		// Results under the bound are untouched.
		small, err := call(t, mx, server, "big", `{"bytes": 1000}`)
		if err != nil || len(small.Content) != 1 || small.Offload != nil {
			t.Errorf("small result: %+v, %v", small, err)
		}
	}
	t.Run("stdio", func(t *testing.T) {
		runtime.GC()
		stop := sampleHeap()
		check(t, "logs", limit, size)
		peak := stop()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		t.Logf("heap peak %.0f MiB while a %d MiB result was cut at %d MiB", peak, size>>20, limit>>20)
		if budget := float64(12*limit>>20) + 48; peak > budget {
			t.Errorf("heap peaked at %.0f MiB, over the budget of %.0f MiB", peak, budget)
		}
	})
	// The HTTP server runs in this process, so its own copies would
	// swamp the heap figure: these legs check the cut, not the heap.
	t.Run("http", func(t *testing.T) { check(t, "web", limit, 3*limit) })
	t.Run("server bound", func(t *testing.T) { check(t, "roomy", 12<<20, 24<<20) })
}
