package mcpfleet_test

import (
	"fmt"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpfleet/mcpfleet"
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

// A big answer over stdio is decoded by the transport, not by mcp-go (see
// upstream.BigResultBytes); the caller gets the very result mcp-go would
// give: the same answer from an in-process server, which mcp-go decodes,
// comes out of the pipeline identical, offloaded or not, with and without
// structuredContent re-wrapping the text.
func TestBigAnswerOverStdioMatchesMCPGo(t *testing.T) {
	bin := testfleet.StdioBinary(t)
	for _, wraps := range []bool{false, true} {
		t.Run(fmt.Sprintf("bigwraps=%v", wraps), func(t *testing.T) {
			args := []string{"--name", "files"}
			if wraps {
				args = append(args, "--bigwraps")
			}
			cfg := &config.Fleet{
				KindSettings: map[string]config.KindSettings{"roomy": {OffloadTokens: 10 << 20}},
				Servers: []config.Server{
					{Name: "stdio", Kind: "files", Transport: "stdio", Command: bin, Args: args},
					{Name: "inproc", Kind: "files", Transport: "inprocess"},
					{Name: "stdio-roomy", Kind: "roomy", Transport: "stdio", Command: bin, Args: args},
					{Name: "inproc-roomy", Kind: "roomy", Transport: "inprocess"},
				},
			}
			mx := newMux(t, cfg,
				mcpfleet.WithInProcess("inproc", "files", testfleet.NewServer("files", testfleet.Options{BigWraps: wraps})),
				mcpfleet.WithInProcess("inproc-roomy", "roomy", testfleet.NewServer("files", testfleet.Options{BigWraps: wraps})))
			const size = 3 << 20
			arg := fmt.Sprintf(`{"bytes": %d}`, size)
			for _, pair := range [][2]string{{"stdio", "inproc"}, {"stdio-roomy", "inproc-roomy"}} {
				got, err := call(t, mx, pair[0], "big", arg)
				if err != nil {
					t.Fatal(err)
				}
				want, err := call(t, mx, pair[1], "big", arg)
				if err != nil {
					t.Fatal(err)
				}
				if (got.Offload == nil) != (want.Offload == nil) {
					t.Fatalf("%s: offloaded %v, %s: %v", pair[0], got.Offload != nil, pair[1], want.Offload != nil)
				}
				if got.Offload != nil {
					if got.Offload.Bytes != want.Offload.Bytes || got.Offload.Tokens != want.Offload.Tokens {
						t.Errorf("offload %+v, want %+v", got.Offload, want.Offload)
					}
					// The first and the last page, the handle and server named
					// alike.
					for _, off := range []int{0, got.Offload.Lines - 10} {
						g, err := mx.ReadResult(t.Context(), got.Offload.Handle, off, 400)
						if err != nil {
							t.Fatal(err)
						}
						w, err := mx.ReadResult(t.Context(), want.Offload.Handle, off, 400)
						if err != nil {
							t.Fatal(err)
						}
						g = strings.ReplaceAll(strings.ReplaceAll(g, got.Offload.Handle, "H"), pair[0], "S")
						w = strings.ReplaceAll(strings.ReplaceAll(w, want.Offload.Handle, "H"), pair[1], "S")
						if g != w {
							t.Errorf("stored results differ at line %d: %.300q vs %.300q", off, g, w)
						}
					}
					continue
				}
				if len(got.Content) != len(want.Content) || got.StructuredRepeatsText != want.StructuredRepeatsText {
					t.Fatalf("%d parts (repeats %v), want %d (repeats %v)", len(got.Content), got.StructuredRepeatsText, len(want.Content), want.StructuredRepeatsText)
				}
				for i := range got.Content {
					g, w := got.Content[i].(mcp.TextContent), want.Content[i].(mcp.TextContent)
					// The envelope names the server.
					if strings.ReplaceAll(g.Text, pair[0], "S") != strings.ReplaceAll(w.Text, pair[1], "S") {
						t.Errorf("content %d differs (%d and %d bytes)", i, len(g.Text), len(w.Text))
					}
				}
				if fmt.Sprint(got.StructuredContent) != fmt.Sprint(want.StructuredContent) {
					t.Errorf("structuredContent differs")
				}
			}
		})
	}
}
