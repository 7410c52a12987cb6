package mcpfleet_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/mcpfleet/mcpfleet"
	"github.com/mcpfleet/mcpfleet/config"
	"github.com/mcpfleet/mcpfleet/internal/testfleet"
)

func TestCallerFrom(t *testing.T) {
	ctx := t.Context()
	for _, tc := range []struct {
		name string
		ctx  context.Context
		want string
	}{
		{"none", ctx, ""},
		{"set", mcpfleet.WithCaller(ctx, "alice"), "alice"},
		{"innermost wins", mcpfleet.WithCaller(mcpfleet.WithCaller(ctx, "alice"), "bob"), "bob"},
		{"empty is anonymous", mcpfleet.WithCaller(mcpfleet.WithCaller(ctx, "alice"), ""), ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := mcpfleet.CallerFrom(tc.ctx); got != tc.want {
				t.Errorf("CallerFrom = %q, want %q", got, tc.want)
			}
		})
	}
}

// TestResultOwner: a result offloaded for one caller is readable by that
// caller only; every other caller, the anonymous one included, gets the
// very error of an unknown handle. Anonymous results stay anonymous.
func TestResultOwner(t *testing.T) {
	cfg := &config.Fleet{KindSettings: map[string]config.KindSettings{"logs": {OffloadTokens: 500}}}
	mx := newMux(t, cfg, mcpfleet.WithInProcess("logs-1", "logs", testfleet.NewServer("logs-1", testfleet.Options{})))
	ctx := t.Context()
	offload := func(caller string) string {
		t.Helper()
		res, err := mx.CallTool(mcpfleet.WithCaller(ctx, caller), "logs-1", "big", json.RawMessage(`{"bytes": 50000}`))
		if err != nil || res.Offload == nil {
			t.Fatalf("offload for %q: %+v %v", caller, res, err)
		}
		return res.Offload.Handle
	}
	handles := map[string]string{"alice": offload("alice"), "": offload("")}
	const unknown = "r-000000000000"

	for _, tc := range []struct {
		owner, reader string
		ok            bool
	}{
		{"alice", "alice", true},
		{"alice", "bob", false},
		{"alice", "", false},
		{"", "", true},
		{"", "bob", false},
	} {
		t.Run(fmt.Sprintf("%q reads %q", tc.reader, tc.owner), func(t *testing.T) {
			rctx := mcpfleet.WithCaller(ctx, tc.reader)
			h := handles[tc.owner]
			_, rerr := mx.ReadResult(rctx, h, 0, 3)
			_, gerr := mx.GrepResult(rctx, h, "line 7:", 0)
			if tc.ok {
				if rerr != nil || gerr != nil {
					t.Fatalf("ReadResult: %v; GrepResult: %v; want both to succeed", rerr, gerr)
				}
				return
			}
			_, unknownErr := mx.ReadResult(rctx, unknown, 0, 3)
			for name, err := range map[string]error{"ReadResult": rerr, "GrepResult": gerr} {
				if !errors.Is(err, mcpfleet.ErrResultNotFound) {
					t.Fatalf("%s: err = %v, want ErrResultNotFound", name, err)
				}
				// The same text as for a handle never issued: nothing
				// tells the reader the result exists.
				if got, want := strings.ReplaceAll(err.Error(), h, unknown), unknownErr.Error(); got != want {
					t.Errorf("%s error differs from an unknown handle's:\n got %s\nwant %s", name, got, want)
				}
			}
		})
	}
}

// A result offloaded for one caller is not readable by another.
func ExampleWithCaller() {
	ctx := context.Background()
	cfg := &config.Fleet{KindSettings: map[string]config.KindSettings{"logs": {OffloadTokens: 200}}}
	mx, err := mcpfleet.New(ctx, cfg, mcpfleet.WithHealthInterval(-1),
		mcpfleet.WithInProcess("logs-1", "logs", testfleet.NewServer("logs-1", testfleet.Options{})))
	if err != nil {
		panic(err)
	}
	defer mx.Close()
	alice := mcpfleet.WithCaller(ctx, "alice")
	res, err := mx.CallTool(alice, "logs-1", "big", json.RawMessage(`{"bytes": 100000}`))
	if err != nil {
		panic(err)
	}
	_, err = mx.ReadResult(alice, res.Offload.Handle, 0, 1)
	fmt.Println("alice:", err)
	_, err = mx.ReadResult(mcpfleet.WithCaller(ctx, "bob"), res.Offload.Handle, 0, 1)
	fmt.Println("bob:", errors.Is(err, mcpfleet.ErrResultNotFound))
	// Output:
	// alice: <nil>
	// bob: true
}
