package redislimit

import (
	"context"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
)

// gcra takes one call from the budget at KEYS[1]. ARGV[1] is the
// interval between calls and ARGV[2] the period a whole budget spans,
// both in microseconds. It returns {1, 0} for a call that fits, else
// {0, microseconds until one would}. Times are written with %.0f: Lua
// would print a microsecond timestamp in %.14g, losing its last digits.
var gcra = redis.NewScript(`
local interval = tonumber(ARGV[1])
local period = tonumber(ARGV[2])
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
local tat = tonumber(redis.call('GET', KEYS[1]))
if not tat or tat < now then tat = now end
local nxt = tat + interval
local allow_at = nxt - period
if now < allow_at then
  return {0, allow_at - now}
end
redis.call('SET', KEYS[1], string.format('%.0f', nxt), 'PX', math.ceil((nxt - now) / 1000))
return {1, 0}
`)

// Limiter is a rate limiter whose counts live in Redis. It is safe for
// concurrent use.
type Limiter struct {
	rdb    redis.UniversalClient
	prefix string
}

// New returns a limiter that keeps its budgets in rdb under keys starting
// with prefix + "ratelimit:". Replicas that share limits give the same
// prefix.
func New(rdb redis.UniversalClient, prefix string) *Limiter {
	return &Limiter{rdb: rdb, prefix: prefix + "ratelimit:"}
}

// Allow takes one call from the budget under key, which holds perMinute
// calls a minute, all of which may be spent at once. It reports whether
// the call fits and, when not, how long until one would.
func (l *Limiter) Allow(ctx context.Context, key string, perMinute int) (bool, time.Duration, error) {
	if perMinute <= 0 {
		return false, time.Minute, nil
	}
	interval := time.Minute / time.Duration(perMinute)
	out, err := gcra.Run(ctx, l.rdb, []string{l.prefix + key}, interval.Microseconds(), time.Minute.Microseconds()).Int64Slice()
	if err != nil {
		return false, 0, err
	}
	if len(out) != 2 {
		return false, 0, fmt.Errorf("redislimit: script returned %d values, want 2", len(out))
	}
	return out[0] == 1, time.Duration(out[1]) * time.Microsecond, nil
}
