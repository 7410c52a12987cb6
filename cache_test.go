package mcpfleet_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/redis/go-redis/v9"

	"github.com/mcpfleet/mcpfleet"
	"github.com/mcpfleet/mcpfleet/config"
	"github.com/mcpfleet/mcpfleet/internal/respcache"
	"github.com/mcpfleet/mcpfleet/internal/testfleet"
	"github.com/mcpfleet/mcpfleet/internal/testservice"
	"github.com/mcpfleet/mcpfleet/stores/rediscache"
)

// cachedFleet is one in-process server "s1" of kind "test", cached for a
// minute, and the count of calls that reached it.
func cachedFleet(t *testing.T, kc config.KindCache, opts ...mcpfleet.Option) (*mcpfleet.Mux, *atomic.Int64) {
	t.Helper()
	calls := new(atomic.Int64)
	cfg := &config.Fleet{Cache: config.Cache{Kinds: map[string]config.KindCache{"test": kc}}}
	srv := testfleet.NewServer("s1", testfleet.Options{Calls: calls, Tools: []mcp.Tool{
		// mcp.NewTool's defaults: not read-only, destructive.
		mcp.NewTool("restart", mcp.WithString("name")),
		mcp.NewTool("lookup", mcp.WithString("name"), mcp.WithReadOnlyHintAnnotation(true), mcp.WithIdempotentHintAnnotation(false)),
	}})
	return newMux(t, cfg, append(opts, mcpfleet.WithInProcess("s1", "test", srv))...), calls
}

func cacheMark(res *mcpfleet.Result) any {
	if res.Meta == nil {
		return nil
	}
	return res.Meta.AdditionalFields[mcpfleet.CacheMetaKey]
}

func TestCacheHitAndMiss(t *testing.T) {
	mx, calls := cachedFleet(t, config.KindCache{TTL: time.Minute})
	ctx := t.Context()
	do := func(ctx context.Context, tool, args string) *mcpfleet.Result {
		t.Helper()
		res, err := mx.CallTool(ctx, "s1", tool, json.RawMessage(args))
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	first := do(ctx, "echo", `{"text":"a","count":2}`)
	if first.Cache != mcpfleet.CacheMiss || cacheMark(first) != nil || calls.Load() != 1 {
		t.Fatalf("first call: cache %q, _meta mark %v, %d server calls; want miss, none, 1", first.Cache, cacheMark(first), calls.Load())
	}
	// The same arguments in another order and spacing are the same call.
	second := do(ctx, "echo", ` { "count": 2, "text": "a" } `)
	if second.Cache != mcpfleet.CacheHit || cacheMark(second) != "hit" || calls.Load() != 1 {
		t.Fatalf("second call: cache %q, _meta mark %v, %d server calls; want hit, \"hit\", 1", second.Cache, cacheMark(second), calls.Load())
	}
	if plain(second) != plain(first) || plain(second) != "s1: aa" {
		t.Errorf("hit text %q, want the miss's %q", plain(second), plain(first))
	}
	if second.StructuredContent == nil {
		t.Error("the hit lost the structuredContent")
	}

	for _, tc := range []struct {
		name, tool, args string
		ctx              context.Context
		want             mcpfleet.CacheResult
	}{
		{"other arguments", "echo", `{"text":"b"}`, ctx, mcpfleet.CacheMiss},
		{"other caller", "echo", `{"text":"a","count":2}`, mcpfleet.WithCaller(ctx, "bob"), mcpfleet.CacheMiss},
		{"that caller again", "echo", `{"text":"a","count":2}`, mcpfleet.WithCaller(ctx, "bob"), mcpfleet.CacheHit},
		// A tool error is about this attempt: never kept.
		{"tool error", "fail", `{}`, ctx, mcpfleet.CacheMiss},
		{"tool error again", "fail", `{}`, ctx, mcpfleet.CacheMiss},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := calls.Load()
			res := do(tc.ctx, tc.tool, tc.args)
			reached := calls.Load() - before
			if res.Cache != tc.want || (tc.want == mcpfleet.CacheHit) == (reached == 1) {
				t.Errorf("cache %q with %d server calls, want %q", res.Cache, reached, tc.want)
			}
		})
	}
}

// lockedBuffer collects log output written from several goroutines.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestCacheNeedsBothHints: a tool without readOnlyHint and idempotentHint
// is never cached, even when the file names it, and New says so.
func TestCacheNeedsBothHints(t *testing.T) {
	var logs lockedBuffer
	log := slog.New(slog.NewTextHandler(&logs, nil))
	mx, calls := cachedFleet(t, config.KindCache{TTL: time.Minute, Tools: []string{"echo", "restart", "lookup", "echoo"}},
		mcpfleet.WithLogger(log))
	for _, want := range []string{
		`tools="lookup, restart"`,         // named, but without both hints
		`kind test has no tool \"echoo\"`, // unknown, with the nearest name
		`did you mean \"echo\"?`,
		"config=cache.kinds.test",
	} {
		if !strings.Contains(logs.String(), want) {
			t.Errorf("the load warnings lack %s:\n%s", want, logs.String())
		}
	}
	for _, tool := range []string{"restart", "lookup"} {
		for range 2 {
			res, err := call(t, mx, "s1", tool, `{"name":"x"}`)
			if err != nil {
				t.Fatal(err)
			}
			if res.Cache != "" || cacheMark(res) != nil {
				t.Errorf("%s: cache %q, mark %v; want the cache not to cover it", tool, res.Cache, cacheMark(res))
			}
		}
	}
	if calls.Load() != 4 {
		t.Errorf("%d server calls for 4 calls to uncached tools, want 4", calls.Load())
	}
	// A tool not in the list is not cached either, though it has both hints.
	for range 2 {
		if res, err := call(t, mx, "s1", "pods_log", `{"name":"x"}`); err != nil || res.Cache != "" {
			t.Fatalf("pods_log: cache %q, err %v; want not covered", res.Cache, err)
		}
	}
}

func TestCacheKindWideWarnsUnhinted(t *testing.T) {
	var logs lockedBuffer
	cachedFleet(t, config.KindCache{TTL: time.Minute}, mcpfleet.WithLogger(slog.New(slog.NewTextHandler(&logs, nil))))
	if !strings.Contains(logs.String(), `tools="lookup, restart"`) {
		t.Errorf("a kind-wide cache does not name the tools it skips:\n%s", logs.String())
	}
}

// TestCacheCollapsesConcurrentCalls: 32 identical calls at once reach the
// server once; every caller gets the answer.
func TestCacheCollapsesConcurrentCalls(t *testing.T) {
	mx, calls := cachedFleet(t, config.KindCache{TTL: time.Minute})
	const n = 32
	results := make([]*mcpfleet.Result, n)
	errs := make([]error, n)
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			<-start
			results[i], errs[i] = mx.CallTool(t.Context(), "s1", "slow", json.RawMessage(`{"ms":300}`))
		})
	}
	close(start)
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
	if got := calls.Load(); got != 1 {
		t.Errorf("%d identical concurrent calls reached the server %d times, want 1", n, got)
	}
	count := map[mcpfleet.CacheResult]int{}
	for _, r := range results {
		count[r.Cache]++
		if plain(r) != "slept" {
			t.Errorf("a caller got %q, want slept", plain(r))
		}
	}
	if count[mcpfleet.CacheMiss] != 1 || count[mcpfleet.CacheShared]+count[mcpfleet.CacheHit] != n-1 {
		t.Errorf("answers by kind %v, want one miss and the rest shared or hits", count)
	}
}

// TestCacheWaiterTimeout: a caller whose ctx ends stops waiting for the
// shared call with a timeout, and the others still get the answer.
func TestCacheWaiterTimeout(t *testing.T) {
	mx, calls := cachedFleet(t, config.KindCache{TTL: time.Minute})
	var wg sync.WaitGroup
	var patient *mcpfleet.Result
	var patientErr error
	wg.Go(func() {
		patient, patientErr = mx.CallTool(t.Context(), "s1", "slow", json.RawMessage(`{"ms":400}`))
	})
	time.Sleep(50 * time.Millisecond) // let the patient call lead the flight
	ctx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
	defer cancel()
	_, err := mx.CallTool(ctx, "s1", "slow", json.RawMessage(`{"ms":400}`))
	var up *mcpfleet.UpstreamError
	if !errors.As(err, &up) || !up.Timeout {
		t.Errorf("impatient caller: got %v, want a timeout UpstreamError", err)
	}
	wg.Wait()
	if patientErr != nil || plain(patient) != "slept" {
		t.Errorf("patient caller: %v %q, want slept", patientErr, plain(patient))
	}
	if calls.Load() != 1 {
		t.Errorf("%d server calls, want 1", calls.Load())
	}
}

// BenchmarkResponseCache compares a call to a stdio server that the cache
// does not cover with the same call answered from the cache: in memory;
// with Redis, repeated in one process (from the memory tier in front of
// Redis); first in this process, of an entry another Mux made a round
// earlier (fed into the memory tier by the Redis cache's feed) and just
// before, untimed (the feed racing the call: from Redis or from memory);
// and misses (new arguments every call),
// which pay for the key, the encoding and the store on top of the call.
// The variants run interleaved call by call, in a new random order
// each round, each on its own Mux and stdio child, and it reports the median of each and their ratios to the
// uncached call: on a loaded machine separate runs swing more than the
// ratios measured.
//
//	go test -run '^$' -bench BenchmarkResponseCache -benchtime 2000x -count 3 .
func BenchmarkResponseCache(b *testing.B) {
	bin := testfleet.StdioBinary(b)
	redisAddr := testservice.Redis(b)
	variants := []struct {
		name          string
		cached, redis bool
		miss, remote  bool
		fed           bool
	}{
		{name: "uncached"},
		{name: "memory-hit", cached: true},
		{name: "redis-hit", cached: true, redis: true},
		{name: "redis-remote-hit", cached: true, redis: true, remote: true},
		{name: "redis-fed-hit", cached: true, redis: true, remote: true, fed: true},
		{name: "memory-miss", cached: true, miss: true},
		{name: "redis-miss", cached: true, redis: true, miss: true},
	}
	newMux := func(cached, redisBacked bool, prefix string) *mcpfleet.Mux {
		cfg := &config.Fleet{Servers: []config.Server{{Name: "stdio-1", Kind: "test", Transport: "stdio", Command: bin, Args: []string{"--name", "stdio-1"}}}}
		opts := []mcpfleet.Option{mcpfleet.WithHealthInterval(-1)}
		if cached {
			cfg.Cache = config.Cache{Kinds: map[string]config.KindCache{"test": {TTL: time.Hour}}}
		}
		if redisBacked {
			rdb := redis.NewClient(&redis.Options{Addr: redisAddr})
			b.Cleanup(func() { rdb.Close() })
			opts = append(opts, mcpfleet.WithResponseCache(rediscache.New(rdb, prefix)))
		}
		mx, err := mcpfleet.New(b.Context(), cfg, opts...)
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { mx.Close() })
		return mx
	}
	do := func(mx *mcpfleet.Mux, args json.RawMessage) *mcpfleet.Result {
		res, err := mx.CallTool(b.Context(), "stdio-1", "echo", args)
		if err != nil {
			b.Fatal(err)
		}
		return res
	}
	fresh := func(i int) json.RawMessage {
		return json.RawMessage(`{"text":"hello-` + strconv.Itoa(i) + `-` + strconv.FormatInt(time.Now().UnixNano(), 36) + `"}`)
	}
	// calls[k] makes one call of variant k and returns how long the
	// measured call took.
	calls := make([]func(i int) time.Duration, len(variants))
	for k, v := range variants {
		prefix := "bench-" + v.name + ":"
		mx := newMux(v.cached, v.redis, prefix)
		hit := json.RawMessage(`{"text":"hello"}`)
		do(mx, hit)
		var maker *mcpfleet.Mux // makes the entries mx then finds in Redis
		if v.remote {
			maker = newMux(true, true, prefix)
		}
		// A fed hit finds an entry another Mux made a round earlier (a few
		// milliseconds), which the feed has had time to bring.
		nonce := strconv.FormatInt(time.Now().UnixNano(), 36)
		fedArgs := func(i int) json.RawMessage {
			return json.RawMessage(`{"text":"fed-` + nonce + `-` + strconv.Itoa(i) + `"}`)
		}
		if v.fed {
			do(maker, fedArgs(0))
		}
		calls[k] = func(i int) time.Duration {
			args := hit
			switch {
			case v.fed:
				args = fedArgs(i)
				// The next round's entry, made after this call is timed.
				defer do(maker, fedArgs(i+1))
			case v.miss || v.remote:
				args = fresh(i)
				if maker != nil {
					do(maker, args)
				}
			}
			start := time.Now()
			res := do(mx, args)
			d := time.Since(start)
			if v.cached && !v.miss && res.Cache != mcpfleet.CacheHit {
				b.Fatalf("%s: cache %q, want hit", v.name, res.Cache)
			}
			return d
		}
	}
	b.ReportAllocs()
	times := make([][]time.Duration, len(calls))
	i := 0
	for b.Loop() {
		// A new order each round: a call right after a stdio call shares
		// the CPU with that call's tail, and no variant should always be
		// the one that does.
		for _, j := range rand.Perm(len(calls)) {
			times[j] = append(times[j], calls[j](i))
		}
		i++
	}
	med := make([]float64, len(calls))
	for j := range times {
		slices.Sort(times[j])
		med[j] = float64(times[j][len(times[j])/2].Nanoseconds())
		b.ReportMetric(med[j], variants[j].name+"-ns/call")
	}
	for j := 1; j < len(calls); j++ {
		b.ReportMetric(med[j]/med[0], variants[j].name+"/uncached")
	}
}

// missStore answers its first Get with a miss only once released, as a
// store read just before an identical call kept its result would; the
// rest it passes to a memory store.
type missStore struct {
	*respcache.Memory
	first   atomic.Bool
	release chan struct{}
}

func (s *missStore) Get(ctx context.Context, key string) ([]byte, bool, error) {
	if s.first.CompareAndSwap(false, true) {
		<-s.release
		return nil, false, nil
	}
	return s.Memory.Get(ctx, key)
}

// TestCacheLateMiss: a caller that missed just before an identical call
// kept its result, and so starts a flight of its own just after that
// call's ended, gets the kept result, not a second server call.
func TestCacheLateMiss(t *testing.T) {
	store := &missStore{Memory: respcache.NewMemory(0), release: make(chan struct{})}
	mx, calls := cachedFleet(t, config.KindCache{TTL: time.Minute}, mcpfleet.WithResponseCache(store))
	late := make(chan *mcpfleet.Result)
	go func() {
		res, err := mx.CallTool(t.Context(), "s1", "slow", json.RawMessage(`{"ms":50}`))
		if err != nil {
			t.Error(err)
		}
		late <- res
	}()
	for !store.first.Load() { // the late caller is in its store read
		time.Sleep(time.Millisecond)
	}
	first, err := mx.CallTool(t.Context(), "s1", "slow", json.RawMessage(`{"ms":50}`))
	if err != nil || first.Cache != mcpfleet.CacheMiss {
		t.Fatalf("first call: %v, cache %q; want a miss", err, first.Cache)
	}
	close(store.release)
	res := <-late
	if res == nil || res.Cache != mcpfleet.CacheHit || calls.Load() != 1 {
		t.Errorf("late caller: cache %q with %d server calls; want a hit and 1 call", res.Cache, calls.Load())
	}
}
