package replicas

import (
	"fmt"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/mcpfleet/mcpfleet/internal/testfleet"
	"github.com/mcpfleet/mcpfleet/internal/testservice"
)

var handleRE = regexp.MustCompile(`r-[0-9a-f]{12}`)

// cluster is one Redis, three replicas and nginx in front.
type cluster struct {
	redis    *testservice.RedisServer
	replicas []*replica
	lb       string
}

func startCluster(t *testing.T, upstream string) *cluster {
	t.Helper()
	return startClusterWith(t, upstream, "")
}

// startClusterWith is startCluster with more fleet-file YAML.
func startClusterWith(t *testing.T, upstream, extra string) *cluster {
	t.Helper()
	c := &cluster{redis: testservice.StartRedis(t)}
	testservice.Binary(t, "nginx") // skip early, before three processes start
	cfg, tokens := writeFleet(t, upstream, redisStore(c.redis.Addr)+extra)
	var addrs []string
	for range 3 {
		r := startReplica(t, cfg, tokens)
		c.replicas = append(c.replicas, r)
		addrs = append(addrs, r.Addr)
	}
	c.lb = startNginx(t, addrs...)
	return c
}

// TestSharedStateAcrossReplicas: a result offloaded through one replica
// is read and grepped through every other, and through nginx; another
// token cannot read it on any replica; a tool described in one request of
// a conversation is known to the next, whichever replica takes it.
func TestSharedStateAcrossReplicas(t *testing.T) {
	c := startCluster(t, testfleet.ServeHTTP(t, testfleet.NewServer("test-1", testfleet.Options{})))
	ctx := t.Context()
	alice := connect(t, c.lb, tokAlice, "")
	text, isErr, err := callTool(ctx, alice, "callTool", map[string]any{"server": "test-1", "tool": "big", "arguments": map[string]any{"bytes": 400_000}})
	if err != nil || isErr {
		t.Fatalf("big through nginx: %v %v %.300s", err, isErr, text)
	}
	h := handleRE.FindString(text)
	if h == "" {
		t.Fatalf("no handle in the preview:\n%.600s", text)
	}
	// Each replica directly, then nginx a few times (round robin).
	targets := []string{c.replicas[0].Addr, c.replicas[1].Addr, c.replicas[2].Addr, c.lb, c.lb, c.lb}
	for _, addr := range targets {
		a := connect(t, addr, tokAlice, "")
		got, isErr, err := callTool(ctx, a, "readResult", map[string]any{"handle": h, "offset": 100, "limit": 3})
		if err != nil || isErr || !strings.Contains(got, "line 100: request handled") {
			t.Errorf("readResult via %s: %v %v\n%.400s", addr, err, isErr, got)
		}
		got, isErr, err = callTool(ctx, a, "grepResult", map[string]any{"handle": h, "pattern": `line 4242:`})
		if err != nil || isErr || !strings.Contains(got, "line 4242: request handled") {
			t.Errorf("grepResult via %s: %v %v\n%.400s", addr, err, isErr, got)
		}
		b := connect(t, addr, tokBob, "")
		got, isErr, err = callTool(ctx, b, "readResult", map[string]any{"handle": h})
		if err != nil || !isErr || !strings.Contains(got, "no stored result under that handle") {
			t.Errorf("bob's readResult via %s: %v isError=%v\n%.400s", addr, err, isErr, got)
		}
	}

	conv := connect(t, c.lb, tokAlice, "conv-1")
	if got, isErr, err := callTool(ctx, conv, "describeTools", map[string]any{"names": []string{"echo"}}); err != nil || isErr {
		t.Fatalf("describeTools: %v %v %s", err, isErr, got)
	}
	const said = "Described earlier in this conversation (call them without describing again): test.echo"
	for _, addr := range []string{c.replicas[0].Addr, c.replicas[1].Addr, c.replicas[2].Addr} {
		got, _, err := callTool(ctx, connect(t, addr, tokAlice, "conv-1"), "listKinds", map[string]any{})
		if err != nil || !strings.Contains(got, said) {
			t.Errorf("listKinds of conv-1 via %s: %v\n%s", addr, err, got)
		}
		for _, other := range []struct{ tok, conv string }{{tokBob, "conv-1"}, {tokAlice, "conv-2"}} {
			got, _, err := callTool(ctx, connect(t, addr, other.tok, other.conv), "listKinds", map[string]any{})
			if err != nil || strings.Contains(got, "Described earlier") {
				t.Errorf("listKinds of another caller or conversation via %s sees the loads: %v\n%s", addr, err, got)
			}
		}
	}
}

// TestCacheAndRateLimitAcrossReplicas: with the store in Redis, a cached
// answer made through one replica is served by the others without
// reaching the upstream, and a caller's rate limit holds across replicas:
// through nginx's round robin the calls allowed add up to the limit.
func TestCacheAndRateLimitAcrossReplicas(t *testing.T) {
	calls := &atomic.Int64{}
	up := testfleet.ServeHTTP(t, testfleet.NewServer("test-1", testfleet.Options{Calls: calls}))
	const limit = 10
	c := startClusterWith(t, up, fmt.Sprintf("cache:\n  kinds:\n    test: {ttl: 1m, tools: [echo]}\n"+
		"rate_limits:\n  kinds:\n    test: {calls_per_minute: %d, per: kind}\n", limit))
	ctx := t.Context()

	echo := map[string]any{"server": "test-1", "tool": "echo", "arguments": map[string]any{"text": "cached once"}}
	for i, addr := range []string{c.replicas[0].Addr, c.replicas[1].Addr, c.replicas[2].Addr} {
		got, isErr, err := callTool(ctx, connect(t, addr, tokAlice, ""), "callTool", echo)
		if err != nil || isErr || !strings.Contains(got, "cached once") {
			t.Fatalf("echo via replica %d: %v %v %s", i, err, isErr, got)
		}
	}
	if n := calls.Load(); n != 1 {
		t.Errorf("three identical calls on three replicas reached the upstream %d times, want 1", n)
	}

	bob := connect(t, c.lb, tokBob, "")
	allowed, refused := 0, 0
	for i := range 2 * limit {
		args := map[string]any{"server": "test-1", "tool": "echo", "arguments": map[string]any{"text": fmt.Sprintf("bob %d", i)}}
		got, isErr, err := callTool(ctx, bob, "callTool", args)
		switch {
		case err != nil:
			t.Fatalf("call %d: %v", i, err)
		case isErr && strings.Contains(got, "Rate limited"):
			refused++
		case isErr:
			t.Fatalf("call %d: %s", i, got)
		default:
			allowed++
		}
	}
	if allowed < limit-1 || allowed > limit+1 || allowed+refused != 2*limit {
		t.Errorf("through nginx: %d allowed, %d refused; want %d±1 allowed of %d", allowed, refused, limit, 2*limit)
	}
}
