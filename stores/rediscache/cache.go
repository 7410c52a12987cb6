package rediscache

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"time"

	"github.com/redis/go-redis/v9"
)

// FeedMaxBytes is the largest value Set also publishes to the other
// replicas (see Cache.Watch); a larger one is read from Redis on its
// first hit in each process.
const FeedMaxBytes = 256 << 10

// Cache is a response cache in Redis. It is safe for concurrent use.
type Cache struct {
	rdb    redis.UniversalClient
	prefix string
	feed   string  // the channel entries are published on
	id     [8]byte // this Cache's own, to skip its own entries in Watch
}

// New returns a cache that keeps its entries in rdb under keys starting
// with prefix + "cache:". Replicas that share a cache give the same
// prefix.
func New(rdb redis.UniversalClient, prefix string) *Cache {
	c := &Cache{rdb: rdb, prefix: prefix + "cache:", feed: prefix + "cache-feed"}
	_, _ = rand.Read(c.id[:])
	return c
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
// least Redis keeps) and, when it is at most FeedMaxBytes, publishes it
// to the replicas watching, in the same round trip.
func (c *Cache) Set(ctx context.Context, key string, value []byte, ttl time.Duration) error {
	if ttl <= 0 {
		return nil
	}
	if len(value) > FeedMaxBytes {
		return c.rdb.Set(ctx, c.prefix+key, value, max(ttl, time.Millisecond)).Err()
	}
	_, err := c.rdb.Pipelined(ctx, func(p redis.Pipeliner) error {
		p.Set(ctx, c.prefix+key, value, max(ttl, time.Millisecond))
		p.Publish(ctx, c.feed, c.message(key, value))
		return nil
	})
	return err
}

// A feed message is the sender's id (8 bytes), the key's length (a
// uvarint), the key, then the value.
func (c *Cache) message(key string, value []byte) []byte {
	m := make([]byte, 0, len(c.id)+binary.MaxVarintLen64+len(key)+len(value))
	m = append(m, c.id[:]...)
	m = binary.AppendUvarint(m, uint64(len(key)))
	m = append(m, key...)
	return append(m, value...)
}

// parse returns a feed message's key and value, and false for a message
// this Cache sent or one that is malformed.
func (c *Cache) parse(m string) (string, []byte, bool) {
	if len(m) < len(c.id) || m[:len(c.id)] == string(c.id[:]) {
		return "", nil, false
	}
	m = m[len(c.id):]
	n, w := binary.Uvarint([]byte(m[:min(len(m), binary.MaxVarintLen64)]))
	if w <= 0 || uint64(len(m)-w) < n {
		return "", nil, false
	}
	return m[w : w+int(n)], []byte(m[w+int(n):]), true
}

// Watch implements mcpfleet.CacheFeed: it calls fn with each entry that
// another Cache on the same Redis and prefix sets, until ctx ends. The
// Mux calls it; go-redis resubscribes on its own after Redis comes back,
// and entries set meanwhile are read from Redis on their first hit.
func (c *Cache) Watch(ctx context.Context, fn func(key string, value []byte)) {
	sub := c.rdb.Subscribe(ctx, c.feed)
	defer sub.Close()
	ch := sub.Channel()
	for {
		select {
		case <-ctx.Done():
			return
		case msg, ok := <-ch:
			if !ok {
				return
			}
			if key, value, ok := c.parse(msg.Payload); ok {
				fn(key, value)
			}
		}
	}
}
