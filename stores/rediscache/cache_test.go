package rediscache_test

import (
	"context"
	"encoding/json"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/mcpfleet/mcpfleet"
	"github.com/mcpfleet/mcpfleet/config"
	"github.com/mcpfleet/mcpfleet/internal/testfleet"
	"github.com/mcpfleet/mcpfleet/internal/testservice"
	"github.com/mcpfleet/mcpfleet/stores/rediscache"
)

func client(t *testing.T, addr string) *redis.Client {
	t.Helper()
	rdb := redis.NewClient(&redis.Options{Addr: addr})
	t.Cleanup(func() { rdb.Close() })
	return rdb
}

func TestGetSet(t *testing.T) {
	rdb := client(t, testservice.Redis(t))
	c := rediscache.New(rdb, "app:")
	ctx := t.Context()
	if _, ok, err := c.Get(ctx, "k"); ok || err != nil {
		t.Fatalf("Get of a missing key: ok %v, err %v; want false, nil", ok, err)
	}
	if err := c.Set(ctx, "k", []byte("value"), 5*time.Second); err != nil {
		t.Fatal(err)
	}
	v, ok, err := c.Get(ctx, "k")
	if err != nil || !ok || string(v) != "value" {
		t.Fatalf("Get = %q, %v, %v; want value", v, ok, err)
	}
	ttl, err := rdb.PTTL(ctx, "app:cache:k").Result()
	if err != nil || ttl <= 0 || ttl > 5*time.Second {
		t.Errorf("PTTL of app:cache:k = %v, %v; want the TTL given, under the prefix", ttl, err)
	}
}

// replica is one Mux over the shared HTTP server "s1", caching kind test
// in the Redis at addr, as one mcpfleet serve replica would.
func replica(t *testing.T, url, addr string) *mcpfleet.Mux {
	t.Helper()
	return replicaWith(t, url, rediscache.New(client(t, addr), "mcpfleet-test:"))
}

// replicaWith is replica with the response cache c.
func replicaWith(t *testing.T, url string, c mcpfleet.ResponseCache) *mcpfleet.Mux {
	t.Helper()
	cfg := &config.Fleet{
		Servers: []config.Server{{Name: "s1", Kind: "test", Transport: "http", URL: url}},
		Cache:   config.Cache{Kinds: map[string]config.KindCache{"test": {TTL: time.Minute}}},
	}
	mx, err := mcpfleet.New(t.Context(), cfg, mcpfleet.WithHealthInterval(-1),
		mcpfleet.WithResponseCache(c))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { mx.Close() })
	return mx
}

func echo(t *testing.T, mx *mcpfleet.Mux, text string) *mcpfleet.Result {
	t.Helper()
	res, err := mx.CallTool(t.Context(), "s1", "echo", json.RawMessage(`{"text":"`+text+`"}`))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(res.Text(), "s1: "+text) {
		t.Fatalf("echo %s: got %q", text, res.Text())
	}
	return res
}

// TestSharedBetweenReplicas: a result one Mux fetched answers the same
// call on another Mux sharing the Redis.
func TestSharedBetweenReplicas(t *testing.T) {
	addr := testservice.Redis(t)
	calls := new(atomic.Int64)
	url := testfleet.ServeHTTP(t, testfleet.NewServer("s1", testfleet.Options{Calls: calls}))
	a, b := replica(t, url, addr), replica(t, url, addr)

	if res := echo(t, a, "x"); res.Cache != mcpfleet.CacheMiss {
		t.Fatalf("replica a, first call: %q, want miss", res.Cache)
	}
	res := echo(t, b, "x")
	if res.Cache != mcpfleet.CacheHit || res.Meta == nil || res.Meta.AdditionalFields[mcpfleet.CacheMetaKey] != "hit" {
		t.Errorf("replica b, same call: cache %q, _meta %+v; want a hit marked in _meta", res.Cache, res.Meta)
	}
	if calls.Load() != 1 {
		t.Errorf("the server got %d calls, want 1", calls.Load())
	}
}

// fedSignal is a Cache that tells the test each time its Watch has
// handed an entry to the Mux.
type fedSignal struct {
	*rediscache.Cache
	fed chan string
}

func (f fedSignal) Watch(ctx context.Context, fn func(string, []byte)) {
	f.Cache.Watch(ctx, func(k string, v []byte) {
		fn(k, v)
		select {
		case f.fed <- k:
		case <-ctx.Done():
		}
	})
}

// subscribers waits until n clients watch the test prefix's feed.
func subscribers(t *testing.T, rdb *redis.Client, n int64) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		m, err := rdb.PubSubNumSub(t.Context(), "mcpfleet-test:cache-feed").Result()
		if err == nil && m["mcpfleet-test:cache-feed"] >= n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d watchers of the feed after 10s, want %d (err %v)", m["mcpfleet-test:cache-feed"], n, err)
		}
	}
}

// TestLocalTier: a replica answers its own repeated hits from memory; a
// replica watching the feed got the entry in memory when it was made;
// one that started later finds only what Redis holds.
func TestLocalTier(t *testing.T) {
	addr := testservice.Redis(t)
	calls := new(atomic.Int64)
	url := testfleet.ServeHTTP(t, testfleet.NewServer("s1", testfleet.Options{Calls: calls}))
	rdb := client(t, addr)
	fb := fedSignal{Cache: rediscache.New(client(t, addr), "mcpfleet-test:"), fed: make(chan string, 1)}
	a, b := replica(t, url, addr), replicaWith(t, url, fb)
	subscribers(t, rdb, 2)
	echo(t, a, "x")
	select {
	case <-fb.fed:
	case <-time.After(10 * time.Second):
		t.Fatal("replica b got no entry from the feed in 10s")
	}
	c := replica(t, url, addr)
	if err := rdb.FlushAll(t.Context()).Err(); err != nil {
		t.Fatal(err)
	}
	if res := echo(t, a, "x"); res.Cache != mcpfleet.CacheHit {
		t.Errorf("replica a after Redis lost the entry: %q, want a hit from its memory tier", res.Cache)
	}
	if res := echo(t, b, "x"); res.Cache != mcpfleet.CacheHit {
		t.Errorf("replica b, fed the entry, after Redis lost it: %q, want a hit from its memory tier", res.Cache)
	}
	if res := echo(t, c, "x"); res.Cache != mcpfleet.CacheMiss {
		t.Errorf("replica c, started after the entry was made, after Redis lost it: %q, want miss", res.Cache)
	}
	if calls.Load() != 2 {
		t.Errorf("%d server calls, want 2", calls.Load())
	}
}

// TestWatch: Watch hands over what another Cache sets, in order, and
// neither its own entries nor values over FeedMaxBytes.
func TestWatch(t *testing.T) {
	addr := testservice.Redis(t)
	rdb := client(t, addr)
	a := rediscache.New(client(t, addr), "mcpfleet-test:")
	b := rediscache.New(client(t, addr), "mcpfleet-test:")
	type entry struct{ key, value string }
	got := map[*rediscache.Cache]chan entry{a: make(chan entry, 16), b: make(chan entry, 16)}
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan struct{}, 2)
	for c, ch := range got {
		go func() {
			c.Watch(ctx, func(k string, v []byte) { ch <- entry{k, string(v)} })
			done <- struct{}{}
		}()
	}
	subscribers(t, rdb, 2)
	big := strings.Repeat("x", rediscache.FeedMaxBytes+1)
	for _, e := range []entry{{"k1", "v1"}, {"big", big}, {"k2", ""}} {
		if err := a.Set(t.Context(), e.key, []byte(e.value), time.Minute); err != nil {
			t.Fatal(err)
		}
	}
	if err := b.Set(t.Context(), "from-b", []byte("vb"), time.Minute); err != nil {
		t.Fatal(err)
	}
	next := func(c *rediscache.Cache, name string) entry {
		select {
		case e := <-got[c]:
			return e
		case <-time.After(10 * time.Second):
			t.Fatalf("%s got nothing from the feed in 10s", name)
			return entry{}
		}
	}
	for _, want := range []entry{{"k1", "v1"}, {"k2", ""}} {
		if e := next(b, "b"); e != want {
			t.Errorf("b got %q=%.20q, want %q=%q (a value over FeedMaxBytes is not fed)", e.key, e.value, want.key, want.value)
		}
	}
	// Redis delivers in order: had a been fed its own entries, they would
	// come before b's.
	if e := next(a, "a"); e != (entry{"from-b", "vb"}) {
		t.Errorf("a got %q=%.20q first, want b's entry (never its own)", e.key, e.value)
	}
	if v, ok, err := b.Get(t.Context(), "big"); err != nil || !ok || len(v) != len(big) {
		t.Errorf("the big value is not in Redis: %d bytes, %v, %v", len(v), ok, err)
	}
	cancel()
	for range 2 {
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Fatal("Watch did not return when its ctx ended")
		}
	}
}

// TestRedisDown: with Redis stopped calls still work, straight to the
// server, and the cache is bypassed once a call finds Redis down; once
// Redis is back the cache serves again on its own.
func TestRedisDown(t *testing.T) {
	rs := testservice.StartRedis(t)
	calls := new(atomic.Int64)
	url := testfleet.ServeHTTP(t, testfleet.NewServer("s1", testfleet.Options{Calls: calls}))
	mx := replica(t, url, rs.Addr)
	echo(t, mx, "x")
	if res := echo(t, mx, "x"); res.Cache != mcpfleet.CacheHit {
		t.Fatalf("before the stop: %q, want hit", res.Cache)
	}

	rs.Stop()
	before := calls.Load()
	// A miss in memory asks Redis, which fails: the cache is bypassed,
	// memory tier included.
	echo(t, mx, "y")
	for range 3 {
		if res := echo(t, mx, "x"); res.Cache == mcpfleet.CacheHit {
			t.Fatal("a hit with Redis found down")
		}
	}
	if got := calls.Load() - before; got != 4 {
		t.Errorf("with Redis down, 4 calls reached the server %d times, want 4 (the cache bypassed)", got)
	}

	if err := rs.Start(); err != nil {
		t.Fatal(err)
	}
	// The bypass lasts a second; poll rather than guess it. A hit on a
	// fresh replica can only come from Redis.
	deadline := time.Now().Add(15 * time.Second)
	for echo(t, mx, "z").Cache != mcpfleet.CacheHit {
		if time.Now().After(deadline) {
			t.Fatal("the cache did not serve again within 15s of Redis coming back")
		}
		time.Sleep(100 * time.Millisecond)
	}
	if res := echo(t, replica(t, url, rs.Addr), "z"); res.Cache != mcpfleet.CacheHit {
		t.Errorf("another replica after Redis came back: %q, want a hit from Redis", res.Cache)
	}
}
