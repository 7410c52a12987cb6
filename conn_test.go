package mcpfleet_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpfleet/mcpfleet"
	"github.com/mcpfleet/mcpfleet/config"
	"github.com/mcpfleet/mcpfleet/internal/testfleet"
)

func statusOf(mx *mcpfleet.Mux, name string) mcpfleet.ServerStatus {
	for _, s := range mx.Status() {
		if s.Name == name {
			return s
		}
	}
	return mcpfleet.ServerStatus{}
}

// waitFor polls cond until it holds or d passes.
func waitFor(t *testing.T, d time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(d)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %v waiting for %s", d, what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func pidOf(t *testing.T, mx *mcpfleet.Mux, server string) int {
	t.Helper()
	res, err := call(t, mx, server, "pid", `{}`)
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(plain(res))
	if err != nil {
		t.Fatalf("pid: %q", plain(res))
	}
	return pid
}

// TestKillStdioMidCall kills a stdio server with SIGKILL while a call is in
// flight: that call fails promptly, other servers keep answering, and the
// server comes back with reconnects=1. Health probing is off, so the
// process watch alone notices.
func TestKillStdioMidCall(t *testing.T) {
	bin := testfleet.StdioBinary(t)
	cfg := &config.Fleet{Servers: []config.Server{
		{Name: "victim", Kind: "test", Transport: "stdio", Command: bin, Args: []string{"--name", "victim", "--diag"}},
	}}
	mx := newMux(t, cfg, mcpfleet.WithInProcess("bystander", "test", testfleet.NewServer("bystander", testfleet.Options{})))
	pid := pidOf(t, mx, "victim")

	errc := make(chan error, 1)
	go func() {
		_, err := call(t, mx, "victim", "slow", `{"ms": 30000}`)
		errc <- err
	}()
	waitFor(t, 5*time.Second, "the slow call to be in flight", func() bool { return statusOf(mx, "victim").InFlight == 1 })

	// Other servers answer throughout.
	stop := make(chan struct{})
	var byErrs atomic.Int64
	var byOK atomic.Int64
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			select {
			case <-stop:
				return
			default:
			}
			if _, err := call(t, mx, "bystander", "echo", `{"text":"x"}`); err != nil {
				byErrs.Add(1)
			} else {
				byOK.Add(1)
			}
		}
	}()

	killed := time.Now()
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-errc:
		var up *mcpfleet.UpstreamError
		if !errors.As(err, &up) || up.Timeout {
			t.Errorf("in-flight call: err = %v, want a non-timeout UpstreamError", err)
		}
		if el := time.Since(killed); el > 3*time.Second {
			t.Errorf("in-flight call took %v to fail after the kill", el)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("in-flight call still hanging 10s after the server was killed")
	}

	waitFor(t, 15*time.Second, "victim to come back", func() bool {
		s := statusOf(mx, "victim")
		return s.State == mcpfleet.StateUp && s.Reconnects == 1
	})
	close(stop)
	wg.Wait()
	if byErrs.Load() != 0 || byOK.Load() == 0 {
		t.Errorf("bystander: %d errors, %d ok; want 0 errors", byErrs.Load(), byOK.Load())
	}
	if p2 := pidOf(t, mx, "victim"); p2 == pid {
		t.Errorf("victim answers from the killed PID %d", pid)
	}
}

// TestExitStaysDown kills an idle stdio server whose restart fails: it is
// marked down with the reason at once (no call, no probe), calls fail fast
// with server_down, and it comes back when it can start again.
func TestExitStaysDown(t *testing.T) {
	bin := testfleet.StdioBinary(t)
	flag := filepath.Join(t.TempDir(), "may-start")
	if err := os.WriteFile(flag, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	script := fmt.Sprintf("test -f %q || exit 3; exec %q --name phoenix --diag", flag, bin)
	cfg := &config.Fleet{Servers: []config.Server{
		{Name: "phoenix", Kind: "test", Transport: "stdio", Command: "/bin/sh", Args: []string{"-c", script}, ConnectTimeout: 2 * time.Second},
	}}
	mx := newMux(t, cfg)
	pid := pidOf(t, mx, "phoenix")
	if err := os.Remove(flag); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	waitFor(t, 5*time.Second, "phoenix down", func() bool { return statusOf(mx, "phoenix").State == mcpfleet.StateDown })
	st := statusOf(mx, "phoenix")
	if st.LastError == "" {
		t.Errorf("down without a reason: %+v", st)
	}
	start := time.Now()
	_, err := call(t, mx, "phoenix", "echo", `{"text":"x"}`)
	var rej *mcpfleet.RejectError
	if !errors.As(err, &rej) || rej.Reason != mcpfleet.ReasonServerDown {
		t.Fatalf("call while down: %v, want server_down", err)
	}
	if el := time.Since(start); el > 100*time.Millisecond {
		t.Errorf("call while down took %v; want it to fail fast", el)
	}
	if !strings.Contains(err.Error(), "phoenix") || !strings.Contains(err.Error(), "down") {
		t.Errorf("server_down text does not say which server and why:\n%s", err)
	}
	if err := os.WriteFile(flag, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	waitFor(t, 20*time.Second, "phoenix back", func() bool {
		s := statusOf(mx, "phoenix")
		return s.State == mcpfleet.StateUp && s.Reconnects == 1
	})
	if res, err := call(t, mx, "phoenix", "echo", `{"text":"x"}`); err != nil || plain(res) != "phoenix: x" {
		t.Errorf("after restart: %v %v", plain(res), err)
	}
}

// TestConnectTimeout: servers that never answer initialize are down after
// their connect timeout, and New returns.
func TestConnectTimeout(t *testing.T) {
	url, f := testfleet.ServeFaulty(t, testfleet.NewServer("mute", testfleet.Options{}))
	f.Set(testfleet.FaultHang, "") // the 2026 protocol has no initialize request: hang everything
	cfg := &config.Fleet{Servers: []config.Server{
		{Name: "mute-http", Kind: "test", Transport: "http", URL: url, ConnectTimeout: 500 * time.Millisecond},
		{Name: "mute-stdio", Kind: "test", Transport: "stdio", Command: "/bin/sleep", Args: []string{"60"}, ConnectTimeout: 500 * time.Millisecond},
	}}
	start := time.Now()
	mx := newMux(t, cfg, mcpfleet.WithInProcess("ok", "test", testfleet.NewServer("ok", testfleet.Options{})))
	if el := time.Since(start); el > 5*time.Second {
		t.Errorf("New took %v with connect timeouts of 500ms", el)
	}
	for _, name := range []string{"mute-http", "mute-stdio"} {
		st := statusOf(mx, name)
		if st.State != mcpfleet.StateDown || !strings.Contains(st.LastError, "initialize") {
			t.Errorf("%s = %+v, want down with an initialize error", name, st)
		}
	}
	if st := statusOf(mx, "ok"); st.State != mcpfleet.StateUp {
		t.Errorf("ok = %+v", st)
	}
}

// TestHTTPFaults: an HTTP server that answers tools/call with a 500, with
// garbage, with a body that never finishes, or by cutting the connection
// gives a prompt, clear error, never a hang, and answers again once healed.
func TestHTTPFaults(t *testing.T) {
	for _, tc := range []struct {
		name  string
		fault testfleet.Fault
	}{
		{"500", testfleet.Fault500},
		{"garbage", testfleet.FaultGarbage},
		{"slow body", testfleet.FaultSlow},
		{"cut mid-stream", testfleet.FaultCut},
	} {
		t.Run(tc.name, func(t *testing.T) {
			url, f := testfleet.ServeFaulty(t, testfleet.NewServer("flaky", testfleet.Options{}))
			cfg := &config.Fleet{Servers: []config.Server{
				{Name: "flaky", Kind: "test", Transport: "http", URL: url, CallTimeout: time.Second, ConnectTimeout: 2 * time.Second},
			}}
			mx := newMux(t, cfg, mcpfleet.WithInProcess("steady", "test", testfleet.NewServer("steady", testfleet.Options{})))
			f.Set(tc.fault, "tools/call")
			start := time.Now()
			res, err := call(t, mx, "flaky", "echo", `{"text":"x"}`)
			if err == nil {
				t.Fatalf("faulty call succeeded: %q", res.Text())
			}
			if el := time.Since(start); el > 3*time.Second {
				t.Errorf("faulty call took %v", el)
			}
			var up *mcpfleet.UpstreamError
			var rej *mcpfleet.RejectError
			if !errors.As(err, &up) && !errors.As(err, &rej) {
				t.Errorf("err = %T %v, want UpstreamError or RejectError", err, err)
			}
			if !strings.Contains(err.Error(), "flaky") {
				t.Errorf("error does not name the server: %v", err)
			}
			if _, err := call(t, mx, "steady", "echo", `{"text":"x"}`); err != nil {
				t.Errorf("steady failed: %v", err)
			}
			f.Set(testfleet.FaultNone, "")
			waitFor(t, 15*time.Second, "flaky to answer again", func() bool {
				res, err := call(t, mx, "flaky", "echo", `{"text":"y"}`)
				return err == nil && plain(res) == "flaky: y"
			})
		})
	}
}

// TestToolListChangesDuringCalls swaps tools in and out while calls run:
// calls to a stable tool never fail, and the list settles on the server's.
func TestToolListChangesDuringCalls(t *testing.T) {
	s := testfleet.NewServer("dyn", testfleet.Options{})
	mx := newMux(t, &config.Fleet{}, mcpfleet.WithInProcess("dyn", "test", s))
	stop := make(chan struct{})
	var wg sync.WaitGroup
	var fails atomic.Int64
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				if res, err := call(t, mx, "dyn", "echo", `{"text":"x"}`); err != nil || plain(res) != "dyn: x" {
					fails.Add(1)
				}
				_ = mx.KindGroups()
				_, _ = mx.Tools("dyn")
			}
		}()
	}
	for i := range 50 {
		name := fmt.Sprintf("gen_%d", i)
		s.AddTool(mcp.Tool{Name: name, RawInputSchema: json.RawMessage(`{"type":"object"}`)},
			func(ctx context.Context, r mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				return mcp.NewToolResultText(name), nil
			})
		if i > 0 {
			s.DeleteTools(fmt.Sprintf("gen_%d", i-1))
		}
		time.Sleep(2 * time.Millisecond)
	}
	waitFor(t, 10*time.Second, "the tool list to settle", func() bool {
		_, last := mx.Tool("dyn", "gen_49")
		_, prev := mx.Tool("dyn", "gen_48")
		return last && !prev
	})
	close(stop)
	wg.Wait()
	if fails.Load() > 0 {
		t.Errorf("%d calls to a stable tool failed while the list changed", fails.Load())
	}
	res, err := call(t, mx, "dyn", "gen_49", `{}`)
	if err != nil || plain(res) != "gen_49" {
		t.Errorf("new tool: %v %v", plain(res), err)
	}
}

// TestProbeDetectsQuietDeath: a server that stops answering between calls
// is found by the periodic tools/list probe, marked down with the reason,
// and reconnected once it answers again.
func TestProbeDetectsQuietDeath(t *testing.T) {
	url, f := testfleet.ServeFaulty(t, testfleet.NewServer("quiet", testfleet.Options{}))
	cfg := &config.Fleet{Servers: []config.Server{{Name: "quiet", Kind: "test", Transport: "http", URL: url, ConnectTimeout: time.Second}}}
	mx := newMux(t, cfg, mcpfleet.WithHealthInterval(100*time.Millisecond))
	f.Set(testfleet.Fault500, "")
	waitFor(t, 5*time.Second, "the probe to mark quiet down", func() bool { return statusOf(mx, "quiet").State == mcpfleet.StateDown })
	if st := statusOf(mx, "quiet"); !strings.Contains(st.LastError, "health probe") {
		t.Errorf("down reason = %q, want the probe's error", st.LastError)
	}
	f.Set(testfleet.FaultNone, "")
	waitFor(t, 15*time.Second, "quiet back", func() bool {
		s := statusOf(mx, "quiet")
		return s.State == mcpfleet.StateUp && s.Reconnects == 1
	})
}
