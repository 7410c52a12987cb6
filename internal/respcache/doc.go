// Package respcache keeps tool results in memory for the multiplexer's
// response cache: values by key, each with its own expiry, the least
// recently used evicted to stay under a byte budget.
//
//	c := respcache.NewMemory(0) // 64 MiB
//	_ = c.Set(ctx, key, value, 30*time.Second)
//	value, ok, _ := c.Get(ctx, key)
//
// It serves one process. Replicas that share a cache use the Redis
// implementation in stores/rediscache, which has the same methods.
package respcache
