package redisstore_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/mcpfleet/mcpfleet"
	"github.com/mcpfleet/mcpfleet/config"
	"github.com/mcpfleet/mcpfleet/internal/testfleet"
	"github.com/mcpfleet/mcpfleet/internal/testservice"
)

func newMux(t *testing.T, opts ...mcpfleet.Option) *mcpfleet.Mux {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	cfg := &config.Fleet{KindSettings: map[string]config.KindSettings{"test": {OffloadTokens: 500}}}
	opts = append([]mcpfleet.Option{mcpfleet.WithHealthInterval(-1),
		mcpfleet.WithInProcess("big-1", "test", testfleet.NewServer("big-1", testfleet.Options{}))}, opts...)
	mx, err := mcpfleet.New(ctx, cfg, opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { mx.Close() })
	return mx
}

// TestMuxAnswersAsWithMemory: through the Mux, a result offloaded to
// Redis on one replica reads and greps on another exactly as the
// in-memory store answers on one process, and the owner check holds.
func TestMuxAnswersAsWithMemory(t *testing.T) {
	addr := testservice.Redis(t)
	a := newMux(t, mcpfleet.WithResultStore(open(t, addr, config.ResultStore{}).Results))
	b := newMux(t, mcpfleet.WithResultStore(open(t, addr, config.ResultStore{}).Results))
	mem := newMux(t)
	ctx := mcpfleet.WithCaller(t.Context(), "token:alice")
	args := json.RawMessage(`{"bytes": 3000000}`)
	ra, err := a.CallTool(ctx, "big-1", "big", args)
	if err != nil || ra.Offload == nil {
		t.Fatalf("call on a: %v, offload %v", err, ra)
	}
	rm, err := mem.CallTool(ctx, "big-1", "big", args)
	if err != nil || rm.Offload == nil {
		t.Fatalf("call on mem: %v", err)
	}
	norm := func(s, h string) string { return strings.ReplaceAll(s, h, "HANDLE") }
	for _, page := range [][2]int{{0, 10}, {20000, 400}, {ra.Offload.Lines - 3, 10}, {ra.Offload.Lines + 5, 1}} {
		got, err := b.ReadResult(ctx, ra.Offload.Handle, page[0], page[1])
		if err != nil {
			t.Fatalf("ReadResult on b: %v", err)
		}
		want, _ := mem.ReadResult(ctx, rm.Offload.Handle, page[0], page[1])
		if norm(got, ra.Offload.Handle) != norm(want, rm.Offload.Handle) {
			t.Errorf("ReadResult(%v) on Redis differs from memory:\n%.300s\nwant\n%.300s", page, got, want)
		}
	}
	for _, pat := range []string{`line 4242:`, `line 6\d{4}:`, `nothing matches this`} {
		got, err := b.GrepResult(ctx, ra.Offload.Handle, pat, 2)
		if err != nil {
			t.Fatalf("GrepResult on b: %v", err)
		}
		want, _ := mem.GrepResult(ctx, rm.Offload.Handle, pat, 2)
		if norm(got, ra.Offload.Handle) != norm(want, rm.Offload.Handle) {
			t.Errorf("GrepResult(%q) on Redis differs from memory:\n%.300s\nwant\n%.300s", pat, got, want)
		}
	}
	bob := mcpfleet.WithCaller(t.Context(), "token:bob")
	for _, m := range []*mcpfleet.Mux{a, b} {
		if _, err := m.ReadResult(bob, ra.Offload.Handle, 0, 10); err == nil {
			t.Error("another caller read the result")
		}
		if _, err := m.GrepResult(bob, ra.Offload.Handle, "line", 0); err == nil {
			t.Error("another caller grepped the result")
		}
	}
}

// TestStoringReplicaReadsLocally: the replica that offloaded a result
// reads and greps it from its own memory, with no Redis round trip, and
// answers exactly as a replica that reads it from Redis; the owner check
// holds on both.
func TestStoringReplicaReadsLocally(t *testing.T) {
	addr := testservice.Redis(t)
	st := open(t, addr, config.ResultStore{})
	trips := &tripCounter{}
	st.Client().AddHook(trips)
	a := newMux(t, mcpfleet.WithResultStore(st.Results))
	b := newMux(t, mcpfleet.WithResultStore(open(t, addr, config.ResultStore{}).Results))
	ctx := mcpfleet.WithCaller(t.Context(), "token:alice")
	ra, err := a.CallTool(ctx, "big-1", "big", json.RawMessage(`{"bytes": 2000000}`))
	if err != nil || ra.Offload == nil || ra.Offload.Handle == "" {
		t.Fatalf("call on a: %v, offload %v", err, ra)
	}
	h := ra.Offload.Handle
	before := trips.n.Load()
	for _, page := range [][2]int{{0, 10}, {9000, 400}, {ra.Offload.Lines - 3, 10}} {
		got, err := a.ReadResult(ctx, h, page[0], page[1])
		if err != nil {
			t.Fatalf("ReadResult on a: %v", err)
		}
		want, err := b.ReadResult(ctx, h, page[0], page[1])
		if err != nil {
			t.Fatalf("ReadResult on b: %v", err)
		}
		if got != want {
			t.Errorf("ReadResult(%v): the storing replica differs from one reading Redis:\n%.300s\nwant\n%.300s", page, got, want)
		}
	}
	got, err := a.GrepResult(ctx, h, `line 4242:`, 1)
	if err != nil {
		t.Fatal(err)
	}
	if want, _ := b.GrepResult(ctx, h, `line 4242:`, 1); got != want {
		t.Errorf("GrepResult: the storing replica differs:\n%.300s\nwant\n%.300s", got, want)
	}
	if n := trips.n.Load() - before; n != 0 {
		t.Errorf("the storing replica made %d Redis round trips to read its own result, want 0", n)
	}
	bob := mcpfleet.WithCaller(t.Context(), "token:bob")
	if _, err := a.ReadResult(bob, h, 0, 10); err == nil {
		t.Error("another caller read the result from the storing replica's memory")
	}
}
