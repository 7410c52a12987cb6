// Package redisstore keeps a gateway's state in Redis, so that replicas
// of `mcpfleet serve` behind a load balancer share it: offloaded results
// ([ResultStore], an mcpfleet.ResultStore and mcpfleet.LineReader) and the
// tools each conversation loaded ([ActivationStore], a
// catalog.ActivationStore). It is its own package so that a program that
// keeps state in memory never links go-redis.
//
// # Usage
//
// Open takes the fleet file's store and result_store sections:
//
//	st, err := redisstore.Open(ctx, fleet.Store, fleet.ResultStore)
//	if err != nil {
//		return err // names store.redis.url; the password is masked
//	}
//	defer st.Close()
//	mx, err := mcpfleet.New(ctx, fleet, mcpfleet.WithResultStore(st.Results))
//
// [Stores.Client] hands the same go-redis client to other shared state (a
// response cache, rate limits), under [Stores.KeyPrefix].
//
// # Keys
//
// Every key starts with the prefix (default "mcpfleet:"):
//
//	res:<handle>          hash: server, tool, owner, stored, bytes, lines, step
//	res:<handle>:text     list of the text in ChunkBytes pieces
//	res:<handle>:idx      byte offset of every IndexStep-th line, 12 digits each
//	results, bytes        the budget's index (sorted set) and byte counter
//	act:<conversation>    list of loaded tool names
//
// Results expire after result_store.ttl; result_store.max_bytes is the
// budget of all replicas together, kept by one Lua script per Put, which
// evicts the oldest results first. The script derives keys from the
// prefix, so it needs one Redis (or a managed primary), not Redis Cluster.
//
// # When Redis is down
//
// Every operation is bounded by store.redis.timeout (default 2s). A Put
// that fails makes the Mux return a preview that says the full result
// could not be kept; a read fails with an error the caller sees as a tool
// error; an activation that cannot be saved costs persistence, not the
// call. go-redis dials again for the next command, so the stores recover
// on their own when Redis returns. [Stores.Ping] tells a health check.
//
// It needs Redis 6.2 or newer (LPOS, for [ActivationStore.Add]).
package redisstore
