package redislimit_test

import (
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/mcpfleet/mcpfleet/internal/testservice"
	"github.com/mcpfleet/mcpfleet/stores/redislimit"
)

func client(t *testing.T, addr string) *redis.Client {
	t.Helper()
	rdb := redis.NewClient(&redis.Options{Addr: addr})
	t.Cleanup(func() { rdb.Close() })
	return rdb
}

func TestAllow(t *testing.T) {
	rdb := client(t, testservice.Redis(t))
	l := redislimit.New(rdb, "app:")
	ctx := t.Context()
	for i := range 6 {
		if ok, _, err := l.Allow(ctx, "a", 6); !ok || err != nil {
			t.Fatalf("call %d of a burst of 6 at 6 a minute: ok %v, err %v", i+1, ok, err)
		}
	}
	ok, retry, err := l.Allow(ctx, "a", 6)
	if ok || err != nil || retry <= 9*time.Second || retry > 10*time.Second {
		t.Fatalf("7th call: ok %v, retry %v, err %v; want refused, retry just under 10s (one interval)", ok, retry, err)
	}
	if ok, _, _ := l.Allow(ctx, "b", 6); !ok {
		t.Error("key b refused for key a's calls")
	}
	// The budget expires once whole: here in at most the minute it spans.
	ttl, err := rdb.PTTL(ctx, "app:ratelimit:a").Result()
	if err != nil || ttl <= 0 || ttl > time.Minute {
		t.Errorf("PTTL of app:ratelimit:a = %v, %v; want (0, 1m]", ttl, err)
	}
}

// TestAllowAtomic: many goroutines on two clients (two replicas) spend
// one budget; exactly the limit gets through, give or take the one call
// the budget refills while they run.
func TestAllowAtomic(t *testing.T) {
	const limit, calls = 50, 400
	addr := testservice.Redis(t)
	limiters := []*redislimit.Limiter{redislimit.New(client(t, addr), "p:"), redislimit.New(client(t, addr), "p:")}
	var allowed atomic.Int64
	var wg sync.WaitGroup
	for w := range 16 {
		wg.Go(func() {
			for i := w; i < calls; i += 16 {
				ok, _, err := limiters[i%2].Allow(t.Context(), "k", limit)
				if err != nil {
					t.Error(err)
					return
				}
				if ok {
					allowed.Add(1)
				}
			}
		})
	}
	wg.Wait()
	t.Logf("%d calls at %d a minute: %d allowed", calls, limit, allowed.Load())
	if a := allowed.Load(); a < limit || a > limit+1 {
		t.Errorf("%d calls at %d a minute: %d allowed, want %d (+1)", calls, limit, a, limit)
	}
}

func TestAllowRedisDown(t *testing.T) {
	rs := testservice.StartRedis(t)
	l := redislimit.New(client(t, rs.Addr), "p:")
	rs.Stop()
	if _, _, err := l.Allow(t.Context(), "k", 10); err == nil {
		t.Error("Allow with Redis stopped returned no error")
	}
}
