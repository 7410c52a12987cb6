package config

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// Cache is the response cache: which kinds' results are kept and for how
// long. Only tools that declare both readOnlyHint and idempotentHint are
// ever cached, whatever it says; the multiplexer warns at start about each
// listed tool it will not cache.
type Cache struct {
	// Kinds maps a kind to its cache settings; a kind absent here is not
	// cached.
	Kinds map[string]KindCache `koanf:"kinds" json:"kinds,omitempty"`
}

// KindCache opts one kind into the response cache.
type KindCache struct {
	// TTL is how long a result stays cached; it must be > 0.
	TTL time.Duration `koanf:"ttl" json:"ttl,omitempty"`
	// Tools limits the cache to these tools of the kind; empty means every
	// tool of the kind that declares both hints.
	Tools []string `koanf:"tools" json:"tools,omitempty"`
}

// RateLimits bounds the calls each caller (in mcpfleet serve, each bearer
// token) makes through the gateway.
type RateLimits struct {
	// OnStoreError says what a limit does when its shared store cannot be
	// reached: RateLimitOpen (the default) lets the call through,
	// RateLimitClosed refuses it.
	OnStoreError string `koanf:"on_store_error" json:"on_store_error,omitempty"`
	// Kinds maps a kind to its limit; a kind absent here is not limited.
	Kinds map[string]RateLimit `koanf:"kinds" json:"kinds,omitempty"`
}

// RateLimit is one kind's limit.
type RateLimit struct {
	// CallsPerMinute is how many calls one caller may make per minute; it
	// must be > 0. A caller may spend a whole minute's calls at once.
	CallsPerMinute int `koanf:"calls_per_minute" json:"calls_per_minute,omitempty"`
	// Per is RateLimitPerServer (the default: each server of the kind has
	// its own count) or RateLimitPerKind (one count for all of them).
	Per string `koanf:"per" json:"per,omitempty"`
}

// Values of RateLimits.OnStoreError and RateLimit.Per.
const (
	RateLimitOpen      = "open"
	RateLimitClosed    = "closed"
	RateLimitPerServer = "server"
	RateLimitPerKind   = "kind"
)

// FailClosed reports whether a limit refuses calls when its store cannot
// be reached.
func (r RateLimits) FailClosed() bool { return r.OnStoreError == RateLimitClosed }

// PerKind reports whether the limit counts the kind's servers together.
func (r RateLimit) PerKind() bool { return r.Per == RateLimitPerKind }

// validateCacheAndLimits checks the cache and rate_limits sections against
// the kinds the servers have.
func (f *Fleet) validateCacheAndLimits(kinds []string, add func(Problem)) {
	unknownKind := func(loc, kind string) bool {
		if slices.Contains(kinds, kind) {
			return false
		}
		add(Problem{Server: loc, Field: "kind", Value: kind,
			Want: "a kind some server has: " + strings.Join(kinds, ", "), Hint: suggest(kind, kinds)})
		return true
	}
	for _, kind := range sortedKeys(f.Cache.Kinds) {
		kc, loc := f.Cache.Kinds[kind], "cache.kinds."+kind
		unknownKind(loc, kind)
		if kc.TTL <= 0 {
			add(Problem{Server: loc, Field: "ttl", Value: kc.TTL.String(), Want: "a duration > 0, like 30s"})
		}
		for i, tool := range kc.Tools {
			if strings.TrimSpace(tool) == "" {
				add(Problem{Server: loc, Field: fmt.Sprintf("tools[%d]", i), Want: "a tool name of kind " + kind})
			}
		}
	}
	modes := []string{RateLimitOpen, RateLimitClosed}
	if m := f.RateLimits.OnStoreError; m != "" && !slices.Contains(modes, m) {
		add(Problem{Server: "rate_limits", Field: "on_store_error", Value: m,
			Want: "one of " + strings.Join(modes, ", "), Hint: suggest(m, modes)})
	}
	pers := []string{RateLimitPerServer, RateLimitPerKind}
	for _, kind := range sortedKeys(f.RateLimits.Kinds) {
		rl, loc := f.RateLimits.Kinds[kind], "rate_limits.kinds."+kind
		unknownKind(loc, kind)
		if rl.CallsPerMinute <= 0 {
			add(Problem{Server: loc, Field: "calls_per_minute", Value: fmt.Sprint(rl.CallsPerMinute),
				Want: "a number of calls > 0, like 60"})
		}
		if rl.Per != "" && !slices.Contains(pers, rl.Per) {
			add(Problem{Server: loc, Field: "per", Value: rl.Per,
				Want: "one of " + strings.Join(pers, ", "), Hint: suggest(rl.Per, pers)})
		}
	}
}

func (c Cache) clone() Cache {
	if c.Kinds == nil {
		return c
	}
	out := Cache{Kinds: make(map[string]KindCache, len(c.Kinds))}
	for k, kc := range c.Kinds {
		kc.Tools = slices.Clone(kc.Tools)
		out.Kinds[k] = kc
	}
	return out
}
