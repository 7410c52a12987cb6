package rediscache

import (
	"context"
	"errors"
	"time"

	"github.com/redis/go-redis/v9"
)

// Cache is a response cache in Redis. It is safe for concurrent use.
type Cache struct {
	rdb    redis.UniversalClient
	prefix string
}

// New returns a cache that keeps its entries in rdb under keys starting
// with prefix + "cache:". Replicas that share a cache give the same
// prefix.
func New(rdb redis.UniversalClient, prefix string) *Cache {
	return &Cache{rdb: rdb, prefix: prefix + "cache:"}
}

// Get returns the value under key, or ok=false when there is none or it
// expired.
func (c *Cache) Get(ctx context.Context, key string) ([]byte, bool, error) {
	v, err := c.rdb.Get(ctx, c.prefix+key).Bytes()
	switch {
	case errors.Is(err, redis.Nil):
		return nil, false, nil
	case err != nil:
		return nil, false, err
	}
	return v, true, nil
}

// Set keeps value under key for ttl (rounded up to a millisecond, the
// least Redis keeps).
func (c *Cache) Set(ctx context.Context, key string, value []byte, ttl time.Duration) error {
	if ttl <= 0 {
		return nil
	}
	return c.rdb.Set(ctx, c.prefix+key, value, max(ttl, time.Millisecond)).Err()
}
