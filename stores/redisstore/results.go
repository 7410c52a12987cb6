package redisstore

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/mcpfleet/mcpfleet"
	"github.com/mcpfleet/mcpfleet/internal/offload"
)

// Defaults of the result store, the same as the in-memory store's.
const (
	DefaultTTL      = offload.DefaultTTL
	DefaultMaxBytes = offload.DefaultMaxBytes
	// ChunkBytes is the size of the pieces a result is kept in: a
	// readResult page fetches the one or two chunks that hold its lines.
	ChunkBytes = 64 << 10
)

// ErrTooLarge is returned by Put for a text larger than the whole budget.
var ErrTooLarge = errors.New("redisstore: result larger than the store's byte budget")

// ResultStore is mcpfleet.ResultStore on Redis, shared by every replica
// that opens the same Redis with the same key prefix: a handle made on one
// is read on any other, and the owner travels with the result, so the Mux
// of every replica applies the same owner check.
//
// Each result is a hash of its metadata, "<prefix>res:<handle>", and a
// list of ChunkBytes pieces of its text, "<prefix>res:<handle>:chunks";
// both expire after the TTL. The hash holds a line index (lines before
// each chunk), so ReadLines fetches only the chunks a page needs.
//
// The byte budget holds for all replicas together: a sorted set of
// handles by store time and a byte counter are updated by one Lua script
// per Put, which drops expired entries and then evicts the oldest results
// until the new one fits. Eviction is therefore first-in first-out, not
// least recently used as in memory: recording every read would cost a
// write per page.
type ResultStore struct {
	s      *Stores
	ttl    time.Duration
	budget int64
}

var _ mcpfleet.ResultStore = (*ResultStore)(nil)
var _ mcpfleet.LineReader = (*ResultStore)(nil)

// reserve makes room for a new result within the budget and records it;
// see ResultStore. Keys other than KEYS are derived from the prefix, so
// the script needs one Redis, not a cluster. The result itself is written
// by plain commands in the same pipeline: passing a megabyte through Lua
// made a Put three times slower.
var reserve = redis.NewScript(`
local index, total = KEYS[1], KEYS[2]
local now, ttl, budget, size = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
local handle, prefix = ARGV[5], ARGV[6]
local function drop(member)
  local h, b = string.match(member, '^(.*)|(%d+)$')
  redis.call('ZREM', index, member)
  if h then
    redis.call('DECRBY', total, b)
    redis.call('DEL', prefix .. 'res:' .. h, prefix .. 'res:' .. h .. ':chunks')
  end
end
for _, m in ipairs(redis.call('ZRANGEBYSCORE', index, '-inf', now - ttl)) do drop(m) end
local used = tonumber(redis.call('GET', total) or '0')
if used < 0 then used = 0; redis.call('SET', total, 0) end
while used + size > budget do
  local oldest = redis.call('ZRANGE', index, 0, 0)
  if #oldest == 0 then break end
  drop(oldest[1])
  used = tonumber(redis.call('GET', total) or '0')
end
redis.call('ZADD', index, now, handle .. '|' .. size)
redis.call('INCRBY', total, size)
return used + size
`)

func (r *ResultStore) metaKey(h string) string  { return r.s.key("res", h) }
func (r *ResultStore) chunkKey(h string) string { return r.s.key("res", h, "chunks") }

// Put stores the result and returns its handle.
func (r *ResultStore) Put(ctx context.Context, sr mcpfleet.StoredResult) (string, error) {
	size := int64(len(sr.Text))
	if size > r.budget {
		return "", ErrTooLarge
	}
	ctx, cancel := r.s.op(ctx)
	defer cancel()
	h := offload.NewHandle()
	now := time.Now()
	chunks, index := split(sr.Text)
	keys := []string{r.s.key("results"), r.s.key("bytes")}
	args := []any{now.UnixMilli(), r.ttl.Milliseconds(), r.budget, size, h, r.s.prefix}
	write := func(p redis.Pipeliner) {
		p.HSet(ctx, r.metaKey(h), "server", sr.Server, "tool", sr.Tool, "owner", sr.Owner,
			"stored", now.UnixNano(), "bytes", size, "lines", offload.Lines(sr.Text), "index", index)
		p.PExpire(ctx, r.metaKey(h), r.ttl)
		if len(chunks) > 0 {
			p.RPush(ctx, r.chunkKey(h), chunks...)
			p.PExpire(ctx, r.chunkKey(h), r.ttl)
		}
	}
	// One round trip: the script by its SHA, then the writes.
	cmds, err := r.s.client.Pipelined(ctx, func(p redis.Pipeliner) error {
		reserve.EvalSha(ctx, p, keys, args...)
		write(p)
		return nil
	})
	if err != nil && redis.HasErrorPrefix(cmds[0].Err(), "NOSCRIPT") {
		// A Redis that restarted has forgotten the script: send it whole,
		// and drop the chunks the first try pushed.
		_, err = r.s.client.Pipelined(ctx, func(p redis.Pipeliner) error {
			p.Del(ctx, r.chunkKey(h))
			reserve.Eval(ctx, p, keys, args...)
			write(p)
			return nil
		})
	}
	if err != nil {
		return "", fmt.Errorf("redisstore: put: %w", err)
	}
	return h, nil
}

// split cuts text into ChunkBytes pieces and returns them with the line
// index: the count of newlines before each piece, comma-separated.
func split(text string) ([]any, string) {
	var chunks []any
	var idx strings.Builder
	nl := 0
	for i := 0; i < len(text); i += ChunkBytes {
		c := text[i:min(i+ChunkBytes, len(text))]
		if i > 0 {
			idx.WriteByte(',')
		}
		idx.WriteString(strconv.Itoa(nl))
		nl += strings.Count(c, "\n")
		chunks = append(chunks, c)
	}
	return chunks, idx.String()
}

// meta is a result's hash, read back.
type meta struct {
	sr    mcpfleet.StoredResult
	bytes int
	lines int
	index []int // newlines before each chunk
}

func parseMeta(m map[string]string) (meta, error) {
	if len(m) == 0 {
		return meta{}, mcpfleet.ErrResultNotFound
	}
	var out meta
	out.sr = mcpfleet.StoredResult{Server: m["server"], Tool: m["tool"], Owner: m["owner"]}
	ns, err1 := strconv.ParseInt(m["stored"], 10, 64)
	b, err2 := strconv.Atoi(m["bytes"])
	l, err3 := strconv.Atoi(m["lines"])
	if err := errors.Join(err1, err2, err3); err != nil {
		return meta{}, fmt.Errorf("redisstore: corrupt result metadata: %w", err)
	}
	out.sr.Stored, out.bytes, out.lines = time.Unix(0, ns), b, l
	if m["index"] != "" {
		for f := range strings.SplitSeq(m["index"], ",") {
			n, err := strconv.Atoi(f)
			if err != nil {
				return meta{}, fmt.Errorf("redisstore: corrupt line index: %w", err)
			}
			out.index = append(out.index, n)
		}
	}
	return out, nil
}

// Get returns the whole result.
func (r *ResultStore) Get(ctx context.Context, handle string) (mcpfleet.StoredResult, error) {
	ctx, cancel := r.s.op(ctx)
	defer cancel()
	var hm *redis.MapStringStringCmd
	var lr *redis.StringSliceCmd
	_, err := r.s.client.Pipelined(ctx, func(p redis.Pipeliner) error {
		hm = p.HGetAll(ctx, r.metaKey(handle))
		lr = p.LRange(ctx, r.chunkKey(handle), 0, -1)
		return nil
	})
	if err != nil && !errors.Is(err, redis.Nil) {
		return mcpfleet.StoredResult{}, fmt.Errorf("redisstore: get: %w", err)
	}
	m, err := parseMeta(hm.Val())
	if err != nil {
		return mcpfleet.StoredResult{}, err
	}
	var b strings.Builder
	b.Grow(m.bytes)
	for _, c := range lr.Val() {
		b.WriteString(c)
	}
	if b.Len() != m.bytes { // expired between the two reads
		return mcpfleet.StoredResult{}, mcpfleet.ErrResultNotFound
	}
	m.sr.Text = b.String()
	return m.sr, nil
}

// page returns a result's metadata (HGETALL's flat list) and the chunks
// that hold lines [from, from+n), with the index of the first, in one
// round trip: the chunk range comes from the line index in the metadata.
var page = redis.NewScript(`
local m = redis.call('HGETALL', KEYS[1])
if #m == 0 then return false end
local from, n = tonumber(ARGV[1]), tonumber(ARGV[2])
local index, lines = '', 0
for i = 1, #m, 2 do
  if m[i] == 'index' then index = m[i + 1] elseif m[i] == 'lines' then lines = tonumber(m[i + 1]) end
end
if index == '' or n == 0 or from >= lines then return {m, {}, 0} end
local idx = {}
for v in string.gmatch(index, '%d+') do idx[#idx + 1] = tonumber(v) end
-- the last chunk with fewer than x newlines before it (1-based), or 1
local function below(x)
  local lo, hi, ans = 1, #idx, 1
  while lo <= hi do
    local mid = math.floor((lo + hi) / 2)
    if idx[mid] < x then ans = mid; lo = mid + 1 else hi = mid - 1 end
  end
  return ans
end
local first = below(from)
local last = math.max(below(from + n), first)
return {m, redis.call('LRANGE', KEYS[2], first - 1, last - 1), first - 1}
`)

// ReadLines implements mcpfleet.LineReader: in one round trip it reads
// the metadata and only the chunks that hold lines [from, from+n).
func (r *ResultStore) ReadLines(ctx context.Context, handle string, from, n int) (mcpfleet.StoredResult, int, error) {
	ctx, cancel := r.s.op(ctx)
	defer cancel()
	from, n = max(from, 0), max(n, 0)
	res, err := page.Run(ctx, r.s.client, []string{r.metaKey(handle), r.chunkKey(handle)}, from, n).Slice()
	if errors.Is(err, redis.Nil) {
		return mcpfleet.StoredResult{}, 0, mcpfleet.ErrResultNotFound
	}
	if err != nil {
		return mcpfleet.StoredResult{}, 0, fmt.Errorf("redisstore: read: %w", err)
	}
	flat, _ := res[0].([]any)
	hm := make(map[string]string, len(flat)/2)
	for i := 0; i+1 < len(flat); i += 2 {
		k, _ := flat[i].(string)
		v, _ := flat[i+1].(string)
		hm[k] = v
	}
	m, err := parseMeta(hm)
	if err != nil {
		return mcpfleet.StoredResult{}, 0, err
	}
	raw, _ := res[1].([]any)
	if len(m.index) == 0 || n == 0 || from >= m.lines {
		return m.sr, m.lines, nil
	}
	if len(raw) == 0 { // the chunks expired after the metadata was read
		return mcpfleet.StoredResult{}, 0, mcpfleet.ErrResultNotFound
	}
	first, _ := res[2].(int64)
	var b strings.Builder
	for _, c := range raw {
		s, _ := c.(string)
		b.WriteString(s)
	}
	piece := skipLines(b.String(), from-m.index[first])
	m.sr.Text = piece[:lineEnd(piece, n)]
	return m.sr, m.lines, nil
}

// skipLines drops the first k lines of s.
func skipLines(s string, k int) string {
	for ; k > 0 && s != ""; k-- {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			return ""
		}
		s = s[i+1:]
	}
	return s
}

// lineEnd is the byte offset just past the first n lines of s.
func lineEnd(s string, n int) int {
	end := 0
	for ; n > 0 && end < len(s); n-- {
		i := strings.IndexByte(s[end:], '\n')
		if i < 0 {
			return len(s)
		}
		end += i + 1
	}
	return end
}
