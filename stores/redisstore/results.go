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
	// IndexStep is how many lines apart the line index records a byte
	// offset: a readResult page returns its lines plus at most
	// 2×IndexStep-2 lines around them.
	IndexStep = 32
	// ChunkBytes is the size of the pieces a result's text is kept in. One
	// string per result was slower to put and get than pieces (Redis
	// allocates a megabyte afresh for each new result), and a page reads
	// only the pieces its byte range spans.
	ChunkBytes = 64 << 10
	// indexWidth is the digits of one index entry: fixed, so that a
	// lookup reads one entry with GETRANGE instead of the whole index.
	indexWidth = 12
)

// ErrTooLarge is returned by Put for a text larger than the whole budget.
var ErrTooLarge = errors.New("redisstore: result larger than the store's byte budget")

// ResultStore is mcpfleet.ResultStore on Redis, shared by every replica
// that opens the same Redis with the same key prefix: a handle made on one
// is read on any other, and the owner travels with the result, so the Mux
// of every replica applies the same owner check.
//
// Each result is three keys, all expiring after the TTL: a hash of its
// metadata, "<prefix>res:<handle>"; its text in ChunkBytes pieces, a list
// "<prefix>res:<handle>:text"; and a line index, "<prefix>res:<handle>:idx",
// the byte offset of every IndexStep-th line in fixed-width decimal. A page
// read looks up two index entries and returns only that byte range, cut in
// Redis from the one or two pieces it spans, in one round trip.
//
// The byte budget holds for all replicas together: a sorted set of
// handles by store time and a byte counter are updated by one Lua script
// per Put, sent in the same pipeline as the writes, which drops expired
// entries and then evicts the oldest results until the new one fits.
// Eviction is therefore first-in first-out, not least recently used as in
// memory: recording every read would cost a write per page.
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
    local k = prefix .. 'res:' .. h
    redis.call('DEL', k, k .. ':text', k .. ':idx')
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
func (r *ResultStore) textKey(h string) string  { return r.s.key("res", h, "text") }
func (r *ResultStore) indexKey(h string) string { return r.s.key("res", h, "idx") }

// Put stores the result and returns its handle, in one round trip.
func (r *ResultStore) Put(ctx context.Context, sr mcpfleet.StoredResult) (string, error) {
	size := int64(len(sr.Text))
	if size > r.budget {
		return "", ErrTooLarge
	}
	ctx, cancel := r.s.op(ctx)
	defer cancel()
	h := offload.NewHandle()
	now := time.Now()
	index, lines := lineIndex(sr.Text)
	var chunks []any
	for i := 0; i < len(sr.Text); i += ChunkBytes {
		chunks = append(chunks, sr.Text[i:min(i+ChunkBytes, len(sr.Text))])
	}
	keys := []string{r.s.key("results"), r.s.key("bytes")}
	args := []any{now.UnixMilli(), r.ttl.Milliseconds(), r.budget, size, h, r.s.prefix}
	write := func(p redis.Pipeliner) {
		p.HSet(ctx, r.metaKey(h), "server", sr.Server, "tool", sr.Tool, "owner", sr.Owner,
			"stored", now.UnixNano(), "bytes", size, "lines", lines, "step", IndexStep)
		p.PExpire(ctx, r.metaKey(h), r.ttl)
		if len(chunks) > 0 {
			p.RPush(ctx, r.textKey(h), chunks...)
			p.PExpire(ctx, r.textKey(h), r.ttl)
		}
		p.Set(ctx, r.indexKey(h), index, r.ttl)
	}
	// One round trip: the script by its SHA, then the writes.
	cmds, err := r.s.client.Pipelined(ctx, func(p redis.Pipeliner) error {
		reserve.EvalSha(ctx, p, keys, args...)
		write(p)
		return nil
	})
	if err != nil && redis.HasErrorPrefix(cmds[0].Err(), "NOSCRIPT") {
		// A Redis that restarted has forgotten the script: send it whole,
		// and drop the pieces the first try pushed.
		_, err = r.s.client.Pipelined(ctx, func(p redis.Pipeliner) error {
			p.Del(ctx, r.textKey(h))
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

// lineIndex returns the byte offset of lines 0, IndexStep, 2×IndexStep …
// of text, each in indexWidth digits, and the line count (as
// offload.Lines counts), in one pass.
func lineIndex(text string) ([]byte, int) {
	idx := make([]byte, 0, (len(text)/(IndexStep*40)+1)*indexWidth)
	appendOff := func(off int) {
		var d [indexWidth]byte
		for i := indexWidth - 1; i >= 0; i-- {
			d[i] = byte('0' + off%10)
			off /= 10
		}
		idx = append(idx, d[:]...)
	}
	if text == "" {
		return idx, 0
	}
	appendOff(0)
	lines, pos := 0, 0
	for {
		i := strings.IndexByte(text[pos:], '\n')
		if i < 0 {
			break
		}
		pos += i + 1
		lines++
		if lines%IndexStep == 0 && pos < len(text) {
			appendOff(pos)
		}
	}
	if pos < len(text) {
		lines++ // a last line without a newline
	}
	return idx, lines
}

// meta is a result's hash, read back.
type meta struct {
	sr    mcpfleet.StoredResult
	bytes int
	lines int
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
	if m["step"] != strconv.Itoa(IndexStep) {
		return meta{}, fmt.Errorf("redisstore: result indexed every %q lines, want %d", m["step"], IndexStep)
	}
	out.sr.Stored, out.bytes, out.lines = time.Unix(0, ns), b, l
	return out, nil
}

// Get returns the whole result, in one round trip.
func (r *ResultStore) Get(ctx context.Context, handle string) (mcpfleet.StoredResult, error) {
	ctx, cancel := r.s.op(ctx)
	defer cancel()
	var hm *redis.MapStringStringCmd
	var lr *redis.StringSliceCmd
	_, err := r.s.client.Pipelined(ctx, func(p redis.Pipeliner) error {
		hm = p.HGetAll(ctx, r.metaKey(handle))
		lr = p.LRange(ctx, r.textKey(handle), 0, -1)
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

// page returns a result's metadata (HGETALL's flat list), the bytes that
// hold lines [from, from+n) with up to IndexStep-1 lines on either side,
// and the number of the first line returned, in one round trip: the byte
// range comes from two entries of the line index, and only the pieces it
// spans are read.
var page = redis.NewScript(`
local m = redis.call('HGETALL', KEYS[1])
if #m == 0 then return false end
local from, n, step, width, chunk = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5])
local lines, bytes = 0, 0
for i = 1, #m, 2 do
  if m[i] == 'lines' then lines = tonumber(m[i + 1]) elseif m[i] == 'bytes' then bytes = tonumber(m[i + 1]) end
end
if n == 0 or from >= lines then return {m, '', 0} end
local function entry(e)
  local v = redis.call('GETRANGE', KEYS[3], e * width, e * width + width - 1)
  if #v ~= width then return nil end
  return tonumber(v)
end
local a = math.floor(from / step)
local start = entry(a)
if not start then return {m, false, 0} end
local stop = bytes - 1
local b = math.floor((from + n + step - 1) / step)
if b * step < lines then
  local e = entry(b)
  if e then stop = e - 1 end
end
-- the pieces that hold bytes [start, stop], joined, then cut to them
local first = math.floor(start / chunk)
local pieces = redis.call('LRANGE', KEYS[2], first, math.floor(stop / chunk))
local text = table.concat(pieces)
local lo = start - first * chunk
return {m, string.sub(text, lo + 1, lo + stop - start + 1), a * step}
`)

// ReadLines implements mcpfleet.LineReader: in one round trip it reads
// the metadata and only the bytes that hold lines [from, from+n).
func (r *ResultStore) ReadLines(ctx context.Context, handle string, from, n int) (mcpfleet.StoredResult, int, error) {
	ctx, cancel := r.s.op(ctx)
	defer cancel()
	from, n = max(from, 0), max(n, 0)
	keys := []string{r.metaKey(handle), r.textKey(handle), r.indexKey(handle)}
	res, err := page.Run(ctx, r.s.client, keys, from, n, IndexStep, indexWidth, ChunkBytes).Slice()
	if errors.Is(err, redis.Nil) {
		return mcpfleet.StoredResult{}, 0, mcpfleet.ErrResultNotFound
	}
	if err != nil {
		return mcpfleet.StoredResult{}, 0, fmt.Errorf("redisstore: read: %w", err)
	}
	if len(res) != 3 {
		return mcpfleet.StoredResult{}, 0, fmt.Errorf("redisstore: read: script returned %d values, want 3", len(res))
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
	if n == 0 || from >= m.lines {
		return m.sr, m.lines, nil
	}
	piece, ok := res[1].(string)
	if !ok || piece == "" { // the text expired after the metadata was read
		return mcpfleet.StoredResult{}, 0, mcpfleet.ErrResultNotFound
	}
	first, _ := res[2].(int64)
	piece = skipLines(piece, from-int(first))
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
