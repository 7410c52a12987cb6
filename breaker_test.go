package mcpfleet_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/mcpfleet/mcpfleet"
	"github.com/mcpfleet/mcpfleet/config"
	"github.com/mcpfleet/mcpfleet/internal/testfleet"
)

// TestCircuitBreaker: consecutive timeouts open the circuit, whose error
// names the server and when calls resume; IsError results do not count; a
// trial call after the cooldown closes it.
func TestCircuitBreaker(t *testing.T) {
	cfg := &config.Fleet{Servers: []config.Server{{Name: "cb", Kind: "test", Transport: "stdio", Command: "(in-process)", CallTimeout: 50 * time.Millisecond}}}
	mx := newMux(t, cfg, mcpfleet.WithInProcess("cb", "test", testfleet.NewServer("cb", testfleet.Options{})),
		mcpfleet.WithCircuitBreaker(3, 300*time.Millisecond))
	for range 10 {
		if res, err := call(t, mx, "cb", "fail", `{}`); err != nil || !res.IsError {
			t.Fatalf("fail: %v", err)
		}
	}
	for i := range 3 {
		_, err := call(t, mx, "cb", "slow", `{"ms": 2000}`)
		var up *mcpfleet.UpstreamError
		if !errors.As(err, &up) || !up.Timeout {
			t.Fatalf("slow call %d: %v, want a timeout", i, err)
		}
	}
	_, err := call(t, mx, "cb", "echo", `{"text":"x"}`)
	var rej *mcpfleet.RejectError
	if !errors.As(err, &rej) || rej.Reason != mcpfleet.ReasonCircuitOpen {
		t.Fatalf("after 3 timeouts: %v, want circuit_open", err)
	}
	if msg := err.Error(); !strings.Contains(msg, `"cb"`) || !strings.Contains(msg, "resume after") {
		t.Errorf("circuit_open text lacks the server or the retry time:\n%s", msg)
	}
	if st := statusOf(mx, "cb"); st.CircuitOpenUntil.IsZero() || st.Failures != 3 {
		t.Errorf("status = %+v, want an open circuit after 3 failures", st)
	}
	time.Sleep(350 * time.Millisecond)
	if res, err := call(t, mx, "cb", "echo", `{"text":"x"}`); err != nil || plain(res) != "cb: x" {
		t.Fatalf("trial call after cooldown: %v %v", plain(res), err)
	}
	if st := statusOf(mx, "cb"); !st.CircuitOpenUntil.IsZero() || st.Failures != 0 {
		t.Errorf("status after a good trial = %+v, want closed", st)
	}
}
