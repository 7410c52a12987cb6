package redisstore

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/mcpfleet/mcpfleet/config"
)

// Stores are the Redis-backed stores of one fleet, over one client.
type Stores struct {
	// Results keeps offloaded results; pass it to mcpfleet.WithResultStore.
	Results *ResultStore
	// Activations keeps conversations' loaded tools; it implements
	// catalog.ActivationStore.
	Activations *ActivationStore

	client  *redis.Client
	prefix  string
	timeout time.Duration
	url     string // redacted
}

// OpenError is a Redis store that could not be opened. Field is the fleet
// file key at fault ("store.redis.url"); URL is shown with its password
// masked.
type OpenError struct {
	Field string
	URL   string
	Err   error
}

func (e *OpenError) Error() string {
	return fmt.Sprintf("%s: %s: %v", e.Field, e.URL, e.Err)
}

func (e *OpenError) Unwrap() error { return e.Err }

// ErrUnreachable is matched (errors.Is) by an OpenError for a Redis that
// did not answer PING within the store's timeout.
var ErrUnreachable = errors.New("redis did not answer")

// Open connects to the Redis of st (the fleet file's store section, as
// config.Load filled it) and checks that it answers within
// st.Redis.Timeout, so that a wrong address fails at start, naming the
// field, rather than at the first large result. rs bounds the result
// store (the fleet file's result_store). The caller closes the Stores.
func Open(ctx context.Context, st config.Store, rs config.ResultStore) (*Stores, error) {
	red := st.Redis.RedactedURL()
	opts, err := redis.ParseURL(st.Redis.URL)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) { // its text quotes the URL, password included
			err = errors.New("not a valid URL")
		}
		return nil, &OpenError{Field: "store.redis.url", URL: red, Err: err}
	}
	timeout := st.Redis.Timeout
	if timeout <= 0 {
		timeout = config.DefaultRedisTimeout
	}
	prefix := st.Redis.KeyPrefix
	if prefix == "" {
		prefix = config.DefaultRedisKeyPrefix
	}
	// Every wait is bounded by the timeout: a call must not hang on a
	// Redis that is down. go-redis reconnects on its own; a command that
	// finds no connection fails within the timeout, and the next one
	// dials again.
	opts.DialTimeout, opts.ReadTimeout, opts.WriteTimeout, opts.PoolTimeout = timeout, timeout, timeout, timeout
	opts.ContextTimeoutEnabled = true
	opts.MaxRetries = 1
	s := &Stores{client: redis.NewClient(opts), prefix: prefix, timeout: timeout, url: red}
	if err := s.Ping(ctx); err != nil {
		s.client.Close()
		return nil, &OpenError{Field: "store.redis.url", URL: red, Err: err}
	}
	s.Results = &ResultStore{s: s, ttl: rs.TTL, budget: rs.MaxBytes}
	if s.Results.ttl <= 0 {
		s.Results.ttl = DefaultTTL
	}
	if s.Results.budget <= 0 {
		s.Results.budget = DefaultMaxBytes
	}
	s.Activations = &ActivationStore{s: s, ttl: DefaultActivationTTL}
	return s, nil
}

// Client returns the go-redis client, for other state that belongs in the
// same Redis (a response cache, rate limits), to be used under KeyPrefix.
func (s *Stores) Client() redis.UniversalClient { return s.client }

// KeyPrefix is the prefix of every key the stores write.
func (s *Stores) KeyPrefix() string { return s.prefix }

// Ping checks that Redis answers within the store's timeout. An error
// wraps ErrUnreachable and never holds the password.
func (s *Stores) Ping(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	if err := s.client.Ping(ctx).Err(); err != nil {
		return fmt.Errorf("%w within %s: %v", ErrUnreachable, s.timeout, err)
	}
	return nil
}

// Close closes the client.
func (s *Stores) Close() error { return s.client.Close() }

// op bounds one store operation by the timeout.
func (s *Stores) op(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(ctx, s.timeout)
}

func (s *Stores) key(parts ...string) string {
	k := s.prefix
	for i, p := range parts {
		if i > 0 {
			k += ":"
		}
		k += p
	}
	return k
}
