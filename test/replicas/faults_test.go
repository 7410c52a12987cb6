package replicas

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpfleet/mcpfleet/internal/testfleet"
)

// seen counts the tools/call each echo text reached the upstream with.
type seen struct {
	mu sync.Mutex
	n  map[string]int
}

func (s *seen) record(r mcp.CallToolRequest) {
	if r.Params.Name != "echo" {
		return
	}
	s.mu.Lock()
	s.n[r.GetString("text", "")]++
	s.mu.Unlock()
}

// TestReplicaKilledDuringRun: 10,000 calls at concurrency 32 through
// nginx; one replica is killed a fifth of the way in. Every call either
// succeeds with its own answer or fails with an error that says what
// happened; no call reaches the upstream twice; the other replicas keep
// serving, so the calls after the kill succeed.
func TestReplicaKilledDuringRun(t *testing.T) {
	const calls, workers = 10_000, 32
	s := &seen{n: map[string]int{}}
	c := startCluster(t, testfleet.ServeHTTP(t, testfleet.NewServer("test-1", testfleet.Options{OnCall: s.record})))
	ctx, cancel := context.WithTimeout(t.Context(), 4*time.Minute) // bounds the run
	defer cancel()

	var next, done, ok, failed, lateFailed atomic.Int64
	var killedAt atomic.Int64
	killedAt.Store(-1)
	var unclear sync.Map
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cl := connect(t, c.lb, tokAlice, "")
			for {
				i := next.Add(1) - 1
				if i >= calls || ctx.Err() != nil {
					return
				}
				text := fmt.Sprintf("call-%05d", i)
				cctx, ccancel := context.WithTimeout(ctx, 30*time.Second)
				got, isErr, err := callTool(cctx, cl, "callTool", map[string]any{"server": "test-1", "tool": "echo", "arguments": map[string]any{"text": text}})
				ccancel()
				switch {
				case err == nil && !isErr && strings.Contains(got, "test-1: "+text+"\n"):
					ok.Add(1)
				default:
					failed.Add(1)
					msg := got
					if err != nil {
						msg = err.Error()
					}
					if strings.TrimSpace(msg) == "" || (err == nil && !isErr) {
						unclear.Store(text, fmt.Sprintf("err=%v isError=%v text=%.200q", err, isErr, got))
					}
					if k := killedAt.Load(); k >= 0 && done.Load() > k+2*workers {
						lateFailed.Add(1)
					}
				}
				if done.Add(1) == calls/5 {
					killedAt.Store(calls / 5)
					c.replicas[1].kill()
				}
			}
		}()
	}
	wg.Wait()
	if ctx.Err() != nil {
		t.Fatalf("the run did not finish in time: %d of %d calls done", done.Load(), calls)
	}
	t.Logf("%d calls: %d ok, %d failed (%d of them well after the kill)", done.Load(), ok.Load(), failed.Load(), lateFailed.Load())
	if ok.Load()+failed.Load() != calls {
		t.Errorf("%d answered + %d failed != %d calls", ok.Load(), failed.Load(), calls)
	}
	unclear.Range(func(k, v any) bool {
		t.Errorf("call %s failed without a clear error: %s", k, v)
		return true
	})
	s.mu.Lock()
	for text, n := range s.n {
		if n > 1 {
			t.Errorf("%s reached the upstream %d times", text, n)
		}
	}
	reached := len(s.n)
	s.mu.Unlock()
	if int64(reached) < ok.Load() {
		t.Errorf("%d calls succeeded but only %d reached the upstream", ok.Load(), reached)
	}
	// In flight at the kill, at most one call per worker can fail; later
	// ones go to the two live replicas.
	if lateFailed.Load() > 0 {
		t.Errorf("%d calls failed well after the kill: the other replicas did not keep serving", lateFailed.Load())
	}
	if failed.Load() > workers {
		t.Errorf("%d calls failed; want at most the %d in flight at the kill", failed.Load(), workers)
	}
}

// health reads /healthz of addr.
func health(t *testing.T, addr string) (status, store string) {
	t.Helper()
	resp, err := http.Get("http://" + addr + "/healthz")
	if err != nil {
		return "unreachable", ""
	}
	defer resp.Body.Close()
	var h struct {
		Status string `json:"status"`
		Store  struct {
			State string `json:"state"`
		} `json:"store"`
	}
	_ = json.NewDecoder(resp.Body).Decode(&h)
	return h.Status, h.Store.State
}

// TestRedisDownDuringRun: with Redis stopped, calls still work, a large
// result comes back as a preview that says it could not be kept, every
// replica's /healthz says degraded, and no call outlives its bound. When
// Redis returns, the replicas recover on their own: offloading and
// reading across replicas work again.
func TestRedisDownDuringRun(t *testing.T) {
	c := startCluster(t, testfleet.ServeHTTP(t, testfleet.NewServer("test-1", testfleet.Options{})))
	ctx := t.Context()
	cl := connect(t, c.lb, tokAlice, "conv-r")
	big := map[string]any{"server": "test-1", "tool": "big", "arguments": map[string]any{"bytes": 200_000}}
	echo := map[string]any{"server": "test-1", "tool": "echo", "arguments": map[string]any{"text": "hi"}}

	text, _, err := callTool(ctx, cl, "callTool", big)
	before := handleRE.FindString(text)
	if err != nil || before == "" {
		t.Fatalf("big before the outage: %v\n%.300s", err, text)
	}
	c.redis.Stop()
	got, isErr, err := callTool(ctx, cl, "readResult", map[string]any{"handle": before})
	if err != nil || !isErr || !strings.Contains(got, "The result store is unavailable right now") {
		t.Errorf("readResult with Redis down: %v isError=%v %.300s", err, isErr, got)
	}
	for i := range 12 { // every replica, several times
		start := time.Now()
		cctx, cancel := context.WithTimeout(ctx, 20*time.Second)
		got, isErr, err := callTool(cctx, cl, "callTool", echo)
		if err != nil || isErr || !strings.Contains(got, "test-1: hi") {
			t.Errorf("echo %d with Redis down: %v %v %.200s", i, err, isErr, got)
		}
		got, isErr, err = callTool(cctx, cl, "callTool", big)
		if err != nil || isErr || !strings.Contains(got, "the full result could not be kept") || handleRE.MatchString(got) {
			t.Errorf("big %d with Redis down: %v %v\n%.400s", i, err, isErr, got)
		}
		if len(got) > 10_000 {
			t.Errorf("big %d with Redis down returned %d bytes; want a preview", i, len(got))
		}
		got, _, err = callTool(cctx, cl, "describeTools", map[string]any{"names": []string{"echo"}})
		if err != nil || !strings.Contains(got, `"name": "test.echo"`) {
			t.Errorf("describeTools %d with Redis down: %v %.200s", i, err, got)
		}
		cancel()
		if d := time.Since(start); d > 20*time.Second {
			t.Errorf("calls %d took %s with Redis down", i, d)
		}
	}
	for _, r := range c.replicas {
		if st, store := health(t, r.Addr); st != "degraded" || store != "down" {
			t.Errorf("healthz of %s with Redis down: status %q, store %q; want degraded, down", r.Addr, st, store)
		}
	}

	if err := c.redis.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for _, r := range c.replicas {
		for {
			st, store := health(t, r.Addr)
			if st == "ok" && store == "up" {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s did not recover after Redis returned: %s, store %s\n%s", r.Addr, st, store, r.log())
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
	got, isErr, err = callTool(ctx, cl, "callTool", big)
	h := handleRE.FindString(got)
	if err != nil || isErr || h == "" {
		t.Fatalf("big after Redis returned: %v %v\n%.400s", err, isErr, got)
	}
	for _, r := range c.replicas {
		got, isErr, err := callTool(ctx, connect(t, r.Addr, tokAlice, ""), "readResult", map[string]any{"handle": h, "offset": 7, "limit": 1})
		if err != nil || isErr || !strings.Contains(got, "line 7: request handled") {
			t.Errorf("readResult via %s after recovery: %v %v %.300s", r.Addr, err, isErr, got)
		}
	}
}
