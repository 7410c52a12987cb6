package config

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestCacheAndLimitsDecode(t *testing.T) {
	const doc = `servers:
  - {name: k8s-1, kind: kubernetes, command: x}
  - {name: gl, kind: gitlab, command: y}
cache:
  kinds:
    kubernetes: {ttl: 30s, tools: [pods_list, pods_log]}
    gitlab: {ttl: 2m}
rate_limits:
  on_store_error: closed
  kinds:
    kubernetes: {calls_per_minute: 60, per: kind}
    gitlab: {calls_per_minute: 10}
`
	f, err := LoadBytesWith([]byte(doc), "yaml", "", LoadOptions{Environ: []string{}})
	if err != nil {
		t.Fatal(err)
	}
	wantCache := Cache{Kinds: map[string]KindCache{
		"kubernetes": {TTL: 30 * time.Second, Tools: []string{"pods_list", "pods_log"}},
		"gitlab":     {TTL: 2 * time.Minute},
	}}
	if diff := cmp.Diff(wantCache, f.Cache); diff != "" {
		t.Errorf("cache (-want +got):\n%s", diff)
	}
	wantLimits := RateLimits{OnStoreError: "closed", Kinds: map[string]RateLimit{
		"kubernetes": {CallsPerMinute: 60, Per: "kind"},
		"gitlab":     {CallsPerMinute: 10},
	}}
	if diff := cmp.Diff(wantLimits, f.RateLimits); diff != "" {
		t.Errorf("rate_limits (-want +got):\n%s", diff)
	}
	if !f.RateLimits.FailClosed() || !f.RateLimits.Kinds["kubernetes"].PerKind() || f.RateLimits.Kinds["gitlab"].PerKind() {
		t.Error("FailClosed/PerKind disagree with the file")
	}
	// The redacted copy is deep: changing it leaves the original alone.
	r := f.Redacted()
	r.Cache.Kinds["kubernetes"].Tools[0] = "changed"
	r.RateLimits.Kinds["gitlab"] = RateLimit{CallsPerMinute: 1}
	if f.Cache.Kinds["kubernetes"].Tools[0] != "pods_list" || f.RateLimits.Kinds["gitlab"].CallsPerMinute != 10 {
		t.Error("changing the redacted copy changed the original")
	}
}

func TestCacheAndLimitsProblems(t *testing.T) {
	const srv = "servers:\n  - {name: k8s-1, kind: kubernetes, command: x}\n"
	tests := []struct {
		name, doc string
		want      []string
	}{
		{name: "cache", doc: srv + `cache:
  kinds:
    kubernetes: {ttl: 0s, tools: [pods_log, ""]}
    kubernets: {ttl: -1m}
    ttl: 30s
`, want: []string{
			// A TTL one level too high is a kind whose settings are not a map.
			`cache.kinds.ttl: kinds: want a map, got a string`,
			`cache.kinds.kubernetes: ttl: got "0s", want a duration > 0, like 30s`,
			`cache.kinds.kubernetes: tools[1]: want a tool name of kind kubernetes`,
			`cache.kinds.kubernets: kind: got "kubernets", want a kind some server has: kubernetes (did you mean "kubernetes"?)`,
			`cache.kinds.kubernets: ttl: got "-1m0s", want a duration > 0, like 30s`,
		}},
		{name: "cache keys", doc: srv + `cache: {kinds: {kubernetes: {tll: 30s}}}
`, want: []string{
			`cache.kinds.kubernetes: key: got "tll", want one of tools, ttl (did you mean "ttl"?)`,
			`cache.kinds.kubernetes: ttl: got "0s", want a duration > 0, like 30s`,
		}},
		{name: "rate limits", doc: srv + `rate_limits:
  on_store_error: close
  kinds:
    kubernetes: {calls_per_minute: 0, per: kinds}
    kubernetess: {calls_per_minute: -5}
`, want: []string{
			`rate_limits: on_store_error: got "close", want one of open, closed (did you mean "closed"?)`,
			`rate_limits.kinds.kubernetes: calls_per_minute: got "0", want a number of calls > 0, like 60`,
			`rate_limits.kinds.kubernetes: per: got "kinds", want one of server, kind (did you mean "kind"?)`,
			`rate_limits.kinds.kubernetess: kind: got "kubernetess", want a kind some server has: kubernetes (did you mean "kubernetes"?)`,
			`rate_limits.kinds.kubernetess: calls_per_minute: got "-5", want a number of calls > 0, like 60`,
		}},
		{name: "rate limit types", doc: srv + `rate_limits: {kinds: {kubernetes: {calls_per_minute: lots}}}
`, want: []string{
			`rate_limits.kinds.kubernetes: calls_per_minute: got "lots", want a whole number`,
			`rate_limits.kinds.kubernetes: calls_per_minute: got "0", want a number of calls > 0, like 60`,
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := load([]byte(tt.doc), "yaml", "", func() []string { return nil }, noVars, nil)
			got := problemsOf(t, err)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("problems (-want +got):\n%s", diff)
			}
		})
	}
}
