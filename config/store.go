package config

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode"
)

// Store backends, for Store.Backend.
const (
	StoreMemory = "memory"
	StoreRedis  = "redis"
)

// Defaults of the redis store.
const (
	DefaultRedisKeyPrefix = "mcpfleet:"
	DefaultRedisTimeout   = 2 * time.Second
)

// Store chooses the backend of the state a gateway keeps between requests:
// offloaded results (bounded by ResultStore's max_bytes and ttl, whichever
// backend) and the tools each conversation loaded. "memory" keeps them in
// the process; "redis" shares them between replicas.
type Store struct {
	// Backend is StoreMemory or StoreRedis; "" means StoreMemory.
	Backend string `koanf:"backend" json:"backend,omitempty"`
	// Redis configures the redis backend; it is required when Backend is
	// redis and ignored otherwise.
	Redis Redis `koanf:"redis" json:"redis,omitzero"`
}

// Redis is the connection of the redis store backend.
type Redis struct {
	// URL is redis://[user:password@]host:port[/db] or rediss:// for TLS.
	// ${VAR} expands, so the password can stay in the environment; it is
	// masked in every error and in [Fleet.Redacted].
	URL string `koanf:"url" json:"url,omitempty"`
	// KeyPrefix starts every key the store writes (default "mcpfleet:"),
	// so that several fleets can share one Redis. No spaces.
	KeyPrefix string `koanf:"key_prefix" json:"key_prefix,omitempty"`
	// Timeout bounds each Redis operation, including the connection check
	// at start (0 = DefaultRedisTimeout). A call never waits longer than
	// this for Redis: when Redis is down the call goes on without it.
	Timeout time.Duration `koanf:"timeout" json:"timeout,omitempty"`
}

// RedactedURL is URL with its password masked, for logs and errors.
func (r Redis) RedactedURL() string {
	u, err := url.Parse(r.URL)
	if err != nil {
		return "(unparsable URL)"
	}
	return u.Redacted()
}

// storeBackends in the order messages list them.
func storeBackends() []string { return []string{StoreMemory, StoreRedis} }

// validate checks the store section. A URL is shown without its user,
// password and query, which may carry secrets.
func (s Store) validate(add func(Problem)) {
	switch s.Backend {
	case "", StoreMemory:
		return
	case StoreRedis:
	default:
		add(Problem{Server: "store", Field: "backend", Value: s.Backend,
			Want: "one of " + strings.Join(storeBackends(), ", "), Hint: suggest(s.Backend, storeBackends())})
		return
	}
	r := s.Redis
	if r.URL == "" {
		add(Problem{Server: "store.redis", Field: "url", Want: "a redis:// or rediss:// URL, since backend is redis"})
	} else if want := redisURLProblem(r.URL); want != "" {
		add(Problem{Server: "store.redis", Field: "url", Value: maskedURL(r.URL), Want: want})
	}
	if strings.IndexFunc(r.KeyPrefix, unicode.IsSpace) >= 0 {
		add(Problem{Server: "store.redis", Field: "key_prefix", Value: r.KeyPrefix,
			Want: "a prefix without spaces, e.g. " + strconvQuote(strings.Join(strings.Fields(r.KeyPrefix), "-"))})
	}
	if r.Timeout < 0 {
		add(Problem{Server: "store.redis", Field: "timeout", Value: r.Timeout.String(),
			Want: "a duration > 0 (leave it out for " + DefaultRedisTimeout.String() + ")"})
	}
}

// maskedURL shows a bad URL without what may be a password: safeURL's
// cut, and for text that did not parse as user info (a missing "://"),
// everything before the last "@".
func maskedURL(raw string) string {
	u, err := url.Parse(raw)
	v := safeURL(raw, u, err)
	if i := strings.LastIndexByte(v, '@'); i >= 0 {
		v = "…" + v[i:]
	}
	return v
}

func strconvQuote(s string) string { return fmt.Sprintf("%q", s) }

// redisURLProblem says what is wrong with a Redis URL, or "". It checks
// what go-redis's ParseURL checks without importing it: config stays a
// leaf that does not link Redis.
func redisURLProblem(raw string) string {
	const want = "a URL like redis://[user:password@]host:port[/db]"
	u, err := url.Parse(raw)
	if err != nil {
		return want
	}
	switch u.Scheme {
	case "redis", "rediss":
	default:
		return want + " (scheme redis or rediss)"
	}
	if u.Hostname() == "" {
		return want + " (a host is missing)"
	}
	if p := u.Port(); p != "" {
		if n, err := strconv.Atoi(p); err != nil || n <= 0 || n > 65535 {
			return want + " (the port must be 1-65535)"
		}
	}
	if db := strings.Trim(u.Path, "/"); db != "" {
		if n, err := strconv.Atoi(db); err != nil || n < 0 {
			return want + " (the path is a database number)"
		}
	}
	return ""
}
