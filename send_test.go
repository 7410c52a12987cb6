package mcpfleet_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpfleet/mcpfleet"
	"github.com/mcpfleet/mcpfleet/config"
	"github.com/mcpfleet/mcpfleet/internal/testfleet"
)

// TestInProcessCallCarriesNoOuterRequestState relays a call made inside an
// outer MCP server's tool handler (whose ctx carries that request's headers
// and session) to an in-process upstream. The upstream must see a clean
// request: before the fix mcp-go read the outer headers and refused the
// call ("Mcp-Name header value … does not match body value …").
func TestInProcessCallCarriesNoOuterRequestState(t *testing.T) {
	mx := newMux(t, &config.Fleet{}, mcpfleet.WithInProcess("inner", "test", testfleet.NewServer("inner", testfleet.Options{})))
	outer := server.NewMCPServer("outer", "1")
	outer.AddTool(mcp.Tool{Name: "relay", RawInputSchema: json.RawMessage(`{"type":"object"}`)},
		func(ctx context.Context, r mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			res, err := mx.CallTool(ctx, "inner", "echo", json.RawMessage(`{"text":"through"}`))
			if err != nil {
				return mcp.NewToolResultError(err.Error()), nil
			}
			return &res.CallToolResult, nil
		})
	url := testfleet.ServeHTTP(t, outer)
	outerMx := newMux(t, &config.Fleet{Servers: []config.Server{{Name: "outer", Kind: "outer", Transport: "http", URL: url,
		Headers: map[string]string{"X-Test": http.CanonicalHeaderKey("x")}}}}, mcpfleet.WithoutNeutralize())
	res, err := call(t, outerMx, "outer", "relay", `{}`)
	if err != nil {
		t.Fatal(err)
	}
	if res.IsError {
		t.Fatalf("relayed call failed: %s", res.Text())
	}
	if got := res.Text(); !strings.Contains(got, "inner: through") {
		t.Errorf("relayed result = %q, want the inner echo", res.Text())
	}
}

// TestCancelReachesServer proves that a call's timeout and the caller's own
// cancellation reach the stdio server as notifications/cancelled: the
// handler's ctx ends, which the server counts.
func TestCancelReachesServer(t *testing.T) {
	bin := testfleet.StdioBinary(t)
	cfg := &config.Fleet{Servers: []config.Server{
		{Name: "cx", Kind: "test", Transport: "stdio", Command: bin, Args: []string{"--name", "cx", "--diag"}, CallTimeout: 300 * time.Millisecond},
	}}
	mx := newMux(t, cfg)
	cancelled := func() int {
		res, err := call(t, mx, "cx", "stats", `{}`)
		if err != nil {
			t.Fatal(err)
		}
		var st struct{ Cancelled int }
		if err := json.Unmarshal([]byte(plain(res)), &st); err != nil {
			t.Fatal(err)
		}
		return st.Cancelled
	}
	if _, err := call(t, mx, "cx", "slow", `{"ms": 20000}`); err == nil {
		t.Fatal("slow call did not time out")
	}
	waitFor(t, 5*time.Second, "the server handler's ctx to be cancelled by the timeout", func() bool { return cancelled() == 1 })

	ctx, cancel := context.WithCancel(t.Context())
	time.AfterFunc(50*time.Millisecond, cancel)
	if _, err := mx.CallTool(ctx, "cx", "slow", json.RawMessage(`{"ms": 20000}`)); err == nil {
		t.Fatal("cancelled call succeeded")
	}
	waitFor(t, 5*time.Second, "the server handler's ctx to be cancelled by the caller", func() bool { return cancelled() == 2 })
}

// TestQueueTimeout: a call waiting for a slot is rejected as overloaded
// after the queue timeout, well before the call timeout.
func TestQueueTimeout(t *testing.T) {
	cfg := &config.Fleet{Servers: []config.Server{{Name: "one", Kind: "test", Transport: "stdio", Command: "(in-process)", MaxInFlight: 1, CallTimeout: 10 * time.Second}}}
	mx := newMux(t, cfg, mcpfleet.WithInProcess("one", "test", testfleet.NewServer("one", testfleet.Options{})),
		mcpfleet.WithQueueTimeout(100*time.Millisecond))
	done := make(chan error, 1)
	go func() {
		_, err := call(t, mx, "one", "slow", `{"ms": 1500}`)
		done <- err
	}()
	waitFor(t, 5*time.Second, "the slot to be taken", func() bool { return statusOf(mx, "one").InFlight == 1 })
	start := time.Now()
	_, err := call(t, mx, "one", "echo", `{"text":"x"}`)
	var rej *mcpfleet.RejectError
	if !errors.As(err, &rej) || rej.Reason != mcpfleet.ReasonOverloaded {
		t.Fatalf("queued call: %v, want overloaded", err)
	}
	if el := time.Since(start); el > time.Second {
		t.Errorf("queued call waited %v; the queue timeout is 100ms", el)
	}
	if err := <-done; err != nil {
		t.Errorf("the slot holder failed: %v", err)
	}
}

func TestCallTimeoutAndCancel(t *testing.T) {
	bin := testfleet.StdioBinary(t)
	cfg := &config.Fleet{Servers: []config.Server{
		{Name: "slowpoke", Kind: "test", Transport: "stdio", Command: bin, Args: []string{"--name", "slowpoke"}, CallTimeout: 200 * time.Millisecond},
	}}
	mx := newMux(t, cfg)
	start := time.Now()
	_, err := call(t, mx, "slowpoke", "slow", `{"ms": 5000}`)
	var up *mcpfleet.UpstreamError
	if !errors.As(err, &up) || !up.Timeout {
		t.Fatalf("err = %v, want a timeout UpstreamError", err)
	}
	if el := time.Since(start); el > 4*time.Second {
		t.Errorf("timeout took %v: the call was not cut off", el)
	}
	// The caller's own cancellation ends the call too.
	ctx, cancel := context.WithCancel(t.Context())
	go func() { time.Sleep(50 * time.Millisecond); cancel() }()
	_, err = mx.CallTool(ctx, "slowpoke", "slow", json.RawMessage(`{"ms": 5000}`))
	if !errors.As(err, &up) {
		t.Fatalf("cancelled call: err = %v, want UpstreamError", err)
	}
	// The server is still up and answers afterwards.
	if res, err := call(t, mx, "slowpoke", "echo", `{"text":"ok"}`); err != nil || plain(res) != "slowpoke: ok" {
		t.Errorf("after timeout: %v %v", res, err)
	}
}
