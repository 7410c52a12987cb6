// Package rediscache keeps mcpfleet's response cache in Redis, so that
// replicas of mcpfleet serve answer from one another's results. It
// implements mcpfleet.ResponseCache; the fleet file's cache section still
// decides which tools are cached and for how long.
//
//	rdb := redis.NewClient(&redis.Options{Addr: "127.0.0.1:6379"})
//	mx, err := mcpfleet.New(ctx, cfg,
//		mcpfleet.WithResponseCache(rediscache.New(rdb, "mcpfleet:")))
//
// Each result is one Redis string under prefix + "cache:" + key, set with
// the kind's TTL, so Redis expires it; eviction under memory pressure is
// Redis's own (an allkeys-lru or volatile-lru policy suits a cache).
//
// Set also publishes each value of at most FeedMaxBytes on the channel
// prefix + "cache-feed", in the same round trip, and Watch (the Mux calls
// it, as mcpfleet.CacheFeed) copies what the other replicas publish into
// the Mux's in-memory tier: the first hit on one replica of an entry
// another made costs no round trip. Each replica then holds the entries
// all replicas made, within its 64 MiB tier; larger values are read from
// Redis on their first hit.
//
// When Redis cannot be reached, Get and Set return the error and the
// multiplexer bypasses the cache for a second: calls go to their servers
// and nothing fails. go-redis reconnects on its own.
//
// Only this package and the other stores/redis* packages import go-redis:
// a program that does not use Redis does not link it.
package rediscache
