package redisstore

import (
	"context"
	"errors"
	"time"

	"github.com/redis/go-redis/v9"
)

// DefaultActivationTTL is how long a conversation's loaded tools are kept
// after its last load.
const DefaultActivationTTL = 24 * time.Hour

// ActivationStore is catalog.ActivationStore on Redis: each
// conversation's loaded tool names are one list under
// "<prefix>act:<conversation>", kept DefaultActivationTTL after the last
// Save. The conversation id is the caller's; a gateway makes it from the
// caller's identity and the conversation the client names, so that two
// tokens never share loads.
type ActivationStore struct {
	s   *Stores
	ttl time.Duration
}

// Load returns the names saved for conv, nil if none.
func (a *ActivationStore) Load(ctx context.Context, conv string) ([]string, error) {
	ctx, cancel := a.s.op(ctx)
	defer cancel()
	names, err := a.s.client.LRange(ctx, a.s.key("act", conv), 0, -1).Result()
	if errors.Is(err, redis.Nil) || len(names) == 0 {
		return nil, nil
	}
	return names, err
}

// Save replaces the names saved for conv.
func (a *ActivationStore) Save(ctx context.Context, conv string, names []string) error {
	ctx, cancel := a.s.op(ctx)
	defer cancel()
	k := a.s.key("act", conv)
	_, err := a.s.client.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.Del(ctx, k)
		if len(names) > 0 {
			vals := make([]any, len(names))
			for i, n := range names {
				vals[i] = n
			}
			p.RPush(ctx, k, vals...)
			p.PExpire(ctx, k, a.ttl)
		}
		return nil
	})
	return err
}

// add appends the names a list lacks, and renews its TTL, atomically.
var add = redis.NewScript(`
for i = 2, #ARGV do
  if not redis.call('LPOS', KEYS[1], ARGV[i]) then
    redis.call('RPUSH', KEYS[1], ARGV[i])
  end
end
redis.call('PEXPIRE', KEYS[1], ARGV[1])
return redis.call('LLEN', KEYS[1])
`)

// Add appends to conv's names those it lacks, in one atomic step, so that
// replicas recording loads of one conversation at the same moment lose
// none (a Load then Save could). A gateway prefers it to Load and Save.
func (a *ActivationStore) Add(ctx context.Context, conv string, names []string) error {
	if len(names) == 0 {
		return nil
	}
	ctx, cancel := a.s.op(ctx)
	defer cancel()
	args := make([]any, 0, len(names)+1)
	args = append(args, a.ttl.Milliseconds())
	for _, n := range names {
		args = append(args, n)
	}
	return add.Run(ctx, a.s.client, []string{a.s.key("act", conv)}, args...).Err()
}
