// Package redislimit counts mcpfleet serve's rate limits in Redis, so
// that a caller's calls add up across every replica behind a load
// balancer. It implements the gateway's Limiter; the fleet file's
// rate_limits section still sets the limits.
//
//	rdb := redis.NewClient(&redis.Options{Addr: "127.0.0.1:6379"})
//	limiter := redislimit.New(rdb, "mcpfleet:")
//
// Each budget is one Redis key, prefix + "ratelimit:" + key, holding the
// theoretical arrival time of the caller's next call (GCRA). One Lua
// script reads and advances it, so concurrent replicas never both spend
// the last call, and the clock is Redis's (TIME), so replicas with skewed
// clocks agree. A key expires once its budget is whole again.
//
// When Redis cannot be reached, Allow returns the error and the gateway
// lets the call through or refuses it, as rate_limits.on_store_error
// says. go-redis reconnects on its own.
package redislimit
