package gateway_test

import (
	"context"
	"math/rand/v2"
	"net/http/httptest"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/redis/go-redis/v9"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"

	"github.com/mcpfleet/mcpfleet"
	"github.com/mcpfleet/mcpfleet/config"
	"github.com/mcpfleet/mcpfleet/internal/gateway"
	"github.com/mcpfleet/mcpfleet/internal/testfleet"
	"github.com/mcpfleet/mcpfleet/internal/testservice"
	"github.com/mcpfleet/mcpfleet/metrics/otelmetrics"
	"github.com/mcpfleet/mcpfleet/stores/redislimit"
)

var limitedRE = regexp.MustCompile(`^Rate limited: your calls to (server|kind) [a-z0-9-]+ are over \d+ per minute, so the call was not sent\. Retry after \d+ s\.$`)

// limitedGateway serves kind misc (servers misc-1 and misc-2) over HTTP
// with tokens a and b, under rl; upstream counts the calls that got
// through.
func limitedGateway(t *testing.T, rl config.RateLimits, limiter gateway.Limiter, upstream *atomic.Int64, extra ...mcpfleet.Option) (*gateway.Gateway, string) {
	t.Helper()
	opts := append([]mcpfleet.Option{mcpfleet.WithHealthInterval(-1)}, extra...)
	for _, name := range []string{"misc-1", "misc-2"} {
		opts = append(opts, mcpfleet.WithInProcess(name, "misc", testfleet.NewServer(name, testfleet.Options{Calls: upstream})))
	}
	mx, err := mcpfleet.New(t.Context(), &config.Fleet{RateLimits: rl}, opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { mx.Close() })
	g := newGateway(t, gateway.Config{Mux: mx, Limiter: limiter, Tokens: map[string][]string{"a": {"read"}, "b": {"read"}}})
	ts := httptest.NewServer(g.Handler())
	t.Cleanup(ts.Close)
	return g, ts.URL
}

func tokenClient(t *testing.T, url, token string) *client.Client {
	t.Helper()
	c, err := httpClient(t, url, token)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func echoOn(t *testing.T, c *client.Client, server string) (ok bool, refusal string) {
	t.Helper()
	res := call(t, c, "callTool", map[string]any{"server": server, "tool": "echo", "arguments": map[string]any{"text": "x"}})
	if !res.IsError {
		return true, ""
	}
	return false, text(res)
}

func TestRateLimit(t *testing.T) {
	t.Run("per server and token", func(t *testing.T) {
		upstream := new(atomic.Int64)
		reader := sdkmetric.NewManualReader()
		om, err := otelmetrics.New(otelmetrics.Config{MeterProvider: sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader))})
		if err != nil {
			t.Fatal(err)
		}
		_, url := limitedGateway(t, config.RateLimits{Kinds: map[string]config.RateLimit{"misc": {CallsPerMinute: 5}}}, nil, upstream, mcpfleet.WithMetrics(om))
		a, b := tokenClient(t, url, "a"), tokenClient(t, url, "b")
		var refusals []string
		for range 7 {
			if ok, r := echoOn(t, a, "misc-1"); !ok {
				refusals = append(refusals, r)
			}
		}
		if len(refusals) != 2 || upstream.Load() != 5 {
			t.Fatalf("7 calls at 5 a minute: %d refused, %d reached the server; want 2 and 5:\n%s", len(refusals), upstream.Load(), strings.Join(refusals, "\n"))
		}
		for _, r := range refusals {
			if !limitedRE.MatchString(r) || !strings.Contains(r, "server misc-1 are over 5 per minute") {
				t.Errorf("refusal text %q", r)
			}
		}
		if ok, r := echoOn(t, a, "misc-2"); !ok {
			t.Errorf("token a on the other server of the kind was refused: %s", r)
		}
		if ok, r := echoOn(t, b, "misc-1"); !ok {
			t.Errorf("token b was refused for token a's calls: %s", r)
		}
		if got := rejections(t, reader, string(gateway.ReasonRateLimited)); got != 2 {
			t.Errorf("the Mux's Metrics count %d rate_limited rejections, want 2", got)
		}
	})
	t.Run("per kind", func(t *testing.T) {
		upstream := new(atomic.Int64)
		_, url := limitedGateway(t, config.RateLimits{Kinds: map[string]config.RateLimit{"misc": {CallsPerMinute: 3, Per: "kind"}}}, nil, upstream)
		a := tokenClient(t, url, "a")
		for _, s := range []string{"misc-1", "misc-2", "misc-1"} {
			if ok, r := echoOn(t, a, s); !ok {
				t.Fatalf("call within the limit refused: %s", r)
			}
		}
		ok, r := echoOn(t, a, "misc-2")
		if ok || !limitedRE.MatchString(r) || !strings.Contains(r, "kind misc") {
			t.Errorf("the 4th call to the kind: ok %v, text %q; want refused naming kind misc", ok, r)
		}
	})
}

func redisClient(t *testing.T, addr string) *redis.Client {
	t.Helper()
	rdb := redis.NewClient(&redis.Options{Addr: addr})
	t.Cleanup(func() { rdb.Close() })
	return rdb
}

// TestRateLimitAcrossReplicas: two gateways (two Muxes, as two replicas
// behind a load balancer) count one token's calls together in Redis. The
// calls that got through add up to the limit, within one for the budget
// refilled while the test ran.
func TestRateLimitAcrossReplicas(t *testing.T) {
	const limit, calls = 20, 60
	addr := testservice.Redis(t)
	rl := config.RateLimits{Kinds: map[string]config.RateLimit{"misc": {CallsPerMinute: limit}}}
	upstream := new(atomic.Int64)
	var clients []*client.Client
	for range 2 {
		_, url := limitedGateway(t, rl, redislimit.New(redisClient(t, addr), "replicas-test:"), upstream)
		clients = append(clients, tokenClient(t, url, "a"))
	}
	var allowed, refused atomic.Int64
	var wg sync.WaitGroup
	for w := range 8 {
		wg.Go(func() {
			for i := w; i < calls; i += 8 {
				if ok, r := echoOn(t, clients[i%2], "misc-1"); ok {
					allowed.Add(1)
				} else if limitedRE.MatchString(r) {
					refused.Add(1)
				} else {
					t.Errorf("unexpected refusal: %s", r)
				}
			}
		})
	}
	wg.Wait()
	t.Logf("%d calls at %d a minute through two replicas: %d allowed, %d refused", calls, limit, allowed.Load(), refused.Load())
	if a := allowed.Load(); a < limit || a > limit+1 || a+refused.Load() != calls {
		t.Errorf("%d calls through two replicas at %d a minute: %d allowed, %d refused; want %d (+1) allowed, the rest refused",
			calls, limit, a, refused.Load(), limit)
	}
	if upstream.Load() != allowed.Load() {
		t.Errorf("%d calls reached the servers, %d were allowed", upstream.Load(), allowed.Load())
	}
}

// TestRateLimitRedisDown: with Redis stopped, on_store_error decides, and
// the call does not hang.
func TestRateLimitRedisDown(t *testing.T) {
	rs := testservice.StartRedis(t)
	for _, mode := range []string{"open", "closed"} {
		t.Run(mode, func(t *testing.T) {
			rl := config.RateLimits{OnStoreError: mode, Kinds: map[string]config.RateLimit{"misc": {CallsPerMinute: 100}}}
			_, url := limitedGateway(t, rl, redislimit.New(redisClient(t, rs.Addr), "down-test:"), new(atomic.Int64))
			a := tokenClient(t, url, "a")
			if ok, r := echoOn(t, a, "misc-1"); !ok {
				t.Fatalf("with Redis up: refused: %s", r)
			}
			rs.Stop()
			defer func() {
				if err := rs.Start(); err != nil {
					t.Fatal(err)
				}
			}()
			ok, r := echoOn(t, a, "misc-1")
			switch {
			case mode == "open" && !ok:
				t.Errorf("fail open: refused: %s", r)
			case mode == "closed" && (ok || !strings.Contains(r, "cannot be checked")):
				t.Errorf("fail closed: ok %v, text %q; want a refusal saying the limits cannot be checked", ok, r)
			}
		})
	}
}

// BenchmarkRateLimit compares callTool through a gateway without rate
// limits with the same call under a limit counted in memory and in Redis
// (a limit never reached, so every call is sent). The variants run
// interleaved call by call in a new random order each round, each on its
// own Mux and in-process server; it reports the median of each and their
// ratios to the unlimited call.
//
//	go test -run '^$' -bench BenchmarkRateLimit -benchtime 2000x -count 3 ./internal/gateway
func BenchmarkRateLimit(b *testing.B) {
	addr := testservice.Redis(b)
	rl := config.RateLimits{Kinds: map[string]config.RateLimit{"misc": {CallsPerMinute: 1_000_000_000}}}
	variants := []struct {
		name    string
		limits  config.RateLimits
		limiter func() gateway.Limiter
	}{
		{name: "unlimited"},
		{name: "memory", limits: rl},
		{name: "redis", limits: rl, limiter: func() gateway.Limiter {
			rdb := redis.NewClient(&redis.Options{Addr: addr})
			b.Cleanup(func() { rdb.Close() })
			return redislimit.New(rdb, "bench:")
		}},
	}
	req := mcp.CallToolRequest{}
	req.Params.Name = "callTool"
	req.Params.Arguments = map[string]any{"server": "misc", "tool": "echo", "arguments": map[string]any{"text": "x"}}
	calls := make([]func() time.Duration, len(variants))
	for k, v := range variants {
		mx, err := mcpfleet.New(b.Context(), &config.Fleet{RateLimits: v.limits}, mcpfleet.WithHealthInterval(-1),
			mcpfleet.WithInProcess("misc", "misc", testfleet.NewServer("misc", testfleet.Options{})))
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { mx.Close() })
		cfg := gateway.Config{Mux: mx}
		if v.limiter != nil {
			cfg.Limiter = v.limiter()
		}
		g, err := gateway.New(cfg)
		if err != nil {
			b.Fatal(err)
		}
		c := connectB(b, g)
		calls[k] = func() time.Duration {
			start := time.Now()
			res, err := c.CallTool(b.Context(), req)
			d := time.Since(start)
			if err != nil || res.IsError {
				b.Fatal(err, res)
			}
			return d
		}
	}
	b.ReportAllocs()
	times := make([][]time.Duration, len(calls))
	for b.Loop() {
		for _, j := range rand.Perm(len(calls)) {
			times[j] = append(times[j], calls[j]())
		}
	}
	med := make([]float64, len(calls))
	for j := range times {
		slices.Sort(times[j])
		med[j] = float64(times[j][len(times[j])/2].Nanoseconds())
		b.ReportMetric(med[j], variants[j].name+"-ns/call")
	}
	for j := 1; j < len(calls); j++ {
		b.ReportMetric(med[j]/med[0], variants[j].name+"/unlimited")
	}
}

// rejections sums mcpfleet.rejections with reason from reader.
func rejections(t *testing.T, reader *sdkmetric.ManualReader, reason string) int64 {
	t.Helper()
	var rm metricdata.ResourceMetrics
	if err := reader.Collect(context.Background(), &rm); err != nil {
		t.Fatal(err)
	}
	var n int64
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			if d, ok := m.Data.(metricdata.Sum[int64]); ok && m.Name == "mcpfleet.rejections" {
				for _, p := range d.DataPoints {
					if r, _ := p.Attributes.Value(otelmetrics.KeyReason); r.AsString() == reason {
						n += p.Value
					}
				}
			}
		}
	}
	return n
}
