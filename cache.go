package mcpfleet

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"log/slog"
	"maps"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"golang.org/x/sync/singleflight"

	"github.com/mcpfleet/mcpfleet/config"
	"github.com/mcpfleet/mcpfleet/internal/respcache"
	"github.com/mcpfleet/mcpfleet/internal/textdist"
	"github.com/mcpfleet/mcpfleet/kindgroups"
)

// ResponseCache keeps results for the response cache, which the fleet
// file's cache section turns on per kind. Keys are opaque ASCII strings
// of at most 80 bytes; values are opaque bytes (the result's expiry, then
// its JSON). Implementations must be safe for concurrent use. An error
// from either method never fails a call: the Mux bypasses the cache for a
// second and sends calls to their servers meanwhile. stores/rediscache
// implements it on Redis, so that replicas share hits; the default keeps
// 64 MiB in memory. A store given with WithResponseCache gets a 64 MiB
// in-memory tier in front of it, so that repeated hits in one process
// cost no round trip; each entry there expires when the store's does. A
// store that is also a [CacheFeed] fills that tier with what other
// replicas set.
type ResponseCache interface {
	// Get returns the value under key, or ok=false when there is none or
	// it expired.
	Get(ctx context.Context, key string) (value []byte, ok bool, err error)
	// Set keeps value under key for ttl.
	Set(ctx context.Context, key string, value []byte, ttl time.Duration) error
}

// CacheFeed is an optional interface of a [ResponseCache] shared by
// several processes, as stores/rediscache is: Watch calls fn with the key
// and value of each entry another process sets, until ctx ends, and
// returns then. The Mux copies each into its in-process tier, so that the
// first hit on a replica of an entry another replica made costs no round
// trip. A feed that loses entries only costs those round trips back.
type CacheFeed interface {
	Watch(ctx context.Context, fn func(key string, value []byte))
}

// CacheResult says how the response cache answered a call.
type CacheResult string

// Cache results. A call the cache does not cover has none ("").
const (
	// CacheHit: the result came from the cache; the server was not called.
	CacheHit CacheResult = "hit"
	// CacheShared: an identical call in flight in this process answered
	// it; the server was called once for both.
	CacheShared CacheResult = "shared"
	// CacheMiss: the server answered (and the result was kept unless it
	// was a tool error).
	CacheMiss CacheResult = "miss"
)

// CacheMetaKey is the _meta key that marks a result the cache answered
// with "hit" or "shared"; a client can tell a possibly stale answer.
const CacheMetaKey = "mcpfleet/cache"

// Bounds of the cache's own work on the call path. A store slower than
// cacheOpTimeout, or failing, is bypassed for cacheBypass: a call never
// waits long on a cache that is down, and the store is tried again on its
// own afterwards.
const (
	cacheOpTimeout = 500 * time.Millisecond
	cacheBypass    = time.Second
)

// WithResponseCache keeps cached results in c instead of the default
// in-memory cache (64 MiB, least recently used evicted). Which kinds and
// tools are cached, and for how long, is the fleet file's cache section;
// without one, c is never used.
func WithResponseCache(c ResponseCache) Option { return func(o *options) { o.cache = c } }

// WithCacheScope sets what, besides the server, tool and normalized
// arguments, keys a cached result: fn of the call's ctx. Calls whose ctx
// give different strings never share a result. The default is
// [CallerFrom], so each caller has its own entries; mcpfleet serve keys by
// the caller's scopes, so tokens with the same scopes share hits.
func WithCacheScope(fn func(ctx context.Context) string) Option {
	return func(o *options) { o.cacheScope = fn }
}

// callCache is the Mux's response cache: the policy from the fleet file,
// the store, and the flights that collapse identical concurrent calls.
type callCache struct {
	// mem is the in-process tier: the whole cache by default, else in
	// front of remote, the store given by WithResponseCache.
	mem    *respcache.Memory
	remote ResponseCache
	kinds  map[string]kindCache
	scope  func(context.Context) string
	flight singleflight.Group
	log    *slog.Logger
	// downUntil (unix nanoseconds) bypasses the store after an error.
	downUntil atomic.Int64
}

type kindCache struct {
	ttl   time.Duration
	tools map[string]bool // nil: every tool with both hints
}

// newCallCache returns nil when the fleet file caches no kind.
func newCallCache(cfg *config.Fleet, o *options, log *slog.Logger) *callCache {
	if len(cfg.Cache.Kinds) == 0 {
		return nil
	}
	cc := &callCache{mem: respcache.NewMemory(0), remote: o.cache, scope: o.cacheScope, log: log, kinds: map[string]kindCache{}}
	if cc.scope == nil {
		cc.scope = CallerFrom
	}
	for kind, kc := range cfg.Cache.Kinds {
		k := kindCache{ttl: kc.TTL}
		if len(kc.Tools) > 0 {
			k.tools = map[string]bool{}
			for _, t := range kc.Tools {
				k.tools[t] = true
			}
		}
		cc.kinds[kind] = k
	}
	return cc
}

// hinted reports whether a tool declares itself read-only and idempotent:
// only then may an answer stand in for a call.
func hinted(t mcp.Tool) bool {
	a := t.Annotations
	return a.ReadOnlyHint != nil && *a.ReadOnlyHint && a.IdempotentHint != nil && *a.IdempotentHint
}

// ttl returns how long c's result may be kept, or false when c is not
// cached. The hints are read from the tool's current definition on every
// call, so a server that drops them stops being cached at once.
func (cc *callCache) ttl(c *Call) (time.Duration, bool) {
	if cc == nil {
		return 0, false
	}
	kc, ok := cc.kinds[c.Kind]
	if !ok || (kc.tools != nil && !kc.tools[c.Tool]) || !hinted(c.Definition) {
		return 0, false
	}
	return kc.ttl, true
}

// key hashes the server, the tool, the arguments as they are sent (after
// normalization and validation; encoding/json writes map keys sorted, so
// equal arguments give equal bytes) and the caller's scope.
func (cc *callCache) key(ctx context.Context, c *Call) (string, error) {
	args, err := json.Marshal(c.Args)
	if err != nil {
		return "", err
	}
	h := sha256.New()
	for _, part := range [][]byte{[]byte(c.Server), []byte(c.Tool), args, []byte(cc.scope(ctx))} {
		_ = binary.Write(h, binary.BigEndian, uint64(len(part)))
		h.Write(part)
	}
	return "v1:" + hex.EncodeToString(h.Sum(nil)), nil
}

func (cc *callCache) bypassed() bool { return time.Now().UnixNano() < cc.downUntil.Load() }

func (cc *callCache) failed(op string, err error) {
	now := time.Now()
	if prev := cc.downUntil.Swap(now.Add(cacheBypass).UnixNano()); prev < now.UnixNano() {
		cc.log.Warn("response cache unavailable; calls bypass it", "op", op, "for", cacheBypass, "err", err)
	}
}

// get returns the JSON of the result under key. It reads the in-process
// tier, then the remote store if there is one, and copies what the store
// had into the tier until the store's entry expires. Both are skipped
// while the store is bypassed.
func (cc *callCache) get(ctx context.Context, key string) ([]byte, bool) {
	if cc.bypassed() {
		return nil, false
	}
	if js, ok := cc.getMem(ctx, key); ok || cc.remote == nil {
		return js, ok
	}
	octx, cancel := context.WithTimeout(ctx, cacheOpTimeout)
	defer cancel()
	v, ok, err := cc.remote.Get(octx, key)
	if err != nil {
		if ctx.Err() == nil { // the caller giving up says nothing of the store
			cc.failed("get", err)
		}
		return nil, false
	}
	if !ok {
		return nil, false
	}
	now := time.Now()
	js, ok := unwrapCached(v, now)
	if ok {
		_ = cc.mem.Set(ctx, key, v, cachedExpiry(v).Sub(now))
	}
	return js, ok
}

// fed copies an entry another process set into the in-process tier,
// until it expires there.
func (cc *callCache) fed(key string, v []byte) {
	now := time.Now()
	if _, ok := unwrapCached(v, now); ok {
		_ = cc.mem.Set(context.Background(), key, v, cachedExpiry(v).Sub(now))
	}
}

// getMem reads the in-process tier only.
func (cc *callCache) getMem(ctx context.Context, key string) ([]byte, bool) {
	if v, ok, _ := cc.mem.Get(ctx, key); ok {
		return unwrapCached(v, time.Now())
	}
	return nil, false
}

// set keeps js under key for ttl, in the tier and the remote store.
func (cc *callCache) set(ctx context.Context, key string, js []byte, ttl time.Duration) {
	if cc.bypassed() {
		return
	}
	v := wrapCached(js, time.Now().Add(ttl))
	_ = cc.mem.Set(ctx, key, v, ttl)
	if cc.remote == nil {
		return
	}
	octx, cancel := context.WithTimeout(ctx, cacheOpTimeout)
	defer cancel()
	if err := cc.remote.Set(octx, key, v, ttl); err != nil {
		cc.failed("set", err)
	}
}

// A stored value is the result's expiry (unix milliseconds, 8 bytes big
// endian), then its JSON. The expiry travels with the value so that a
// tier copying it from the store expires it at the same moment, and a
// store that keeps a value too long cannot serve it stale.
func wrapCached(js []byte, expires time.Time) []byte {
	v := make([]byte, 8+len(js))
	binary.BigEndian.PutUint64(v, uint64(expires.UnixMilli()))
	copy(v[8:], js)
	return v
}

func cachedExpiry(v []byte) time.Time {
	return time.UnixMilli(int64(binary.BigEndian.Uint64(v[:8])))
}

// unwrapCached returns the JSON in v, or false when v is malformed or
// expired at now.
func unwrapCached(v []byte, now time.Time) ([]byte, bool) {
	if len(v) < 8 || !now.Before(cachedExpiry(v)) {
		return nil, false
	}
	return v[8:], true
}

// keepable reports whether a result may answer later calls: a tool error
// or a request for more input is about this attempt, not the data.
func keepable(r *mcp.CallToolResult) bool {
	return !r.IsError && len(r.InputRequests) == 0 && r.RequestState == ""
}

// fetch is step 7 of the pipeline: the upstream call, or, for a call the
// cache covers, its cached result, else one upstream call shared by every
// identical call in flight in this process (singleflight), whose result
// is then kept.
//
// The shared call runs on ctx without its cancellation, bounded by the
// server's call timeout, so that the caller who started it giving up does
// not fail the others; each caller still stops waiting at its own ctx's
// end.
func (m *Mux) fetch(ctx context.Context, sc *serverConn, cl toolCaller, gen uint64, c *Call) (*mcp.CallToolResult, CacheResult, error) {
	cc := m.cache
	ttl, ok := cc.ttl(c)
	if !ok {
		out, err := m.send(ctx, sc, cl, gen, c)
		return out, "", err
	}
	key, err := cc.key(ctx, c)
	if err != nil { // arguments that were validated always encode
		out, err := m.send(ctx, sc, cl, gen, c)
		return out, "", err
	}
	if v, ok := cc.get(ctx, key); ok {
		if r, err := decodeCached(v); err == nil {
			m.countCache(ctx, c, CacheHit)
			return r, CacheHit, nil
		}
	}
	var led *mcp.CallToolResult // set only in the caller whose function ran
	var late bool               // set when the flight found the result kept after all
	ch := cc.flight.DoChan(key, func() (any, error) {
		// A caller that missed just before an identical flight kept its
		// result, and started its own flight just after, finds it here
		// instead of calling the server again. Only the in-process tier is
		// read: the flight that kept the result ran in this process.
		if js, ok := cc.getMem(ctx, key); ok && !cc.bypassed() {
			late = true
			return js, nil
		}
		fctx := context.WithoutCancel(ctx)
		out, err := m.send(fctx, sc, cl, gen, c)
		if err != nil {
			return nil, err
		}
		led = out
		v, err := json.Marshal(out)
		if err != nil {
			return nil, fmt.Errorf("%s.%s: encode result for the cache: %w", c.Server, c.Tool, err)
		}
		if keepable(out) {
			cc.set(fctx, key, v, ttl)
		}
		return v, nil
	})
	select {
	case res := <-ch:
		if led != nil {
			m.countCache(ctx, c, CacheMiss)
			return led, CacheMiss, nil
		}
		if res.Err != nil {
			return nil, "", res.Err
		}
		r, err := decodeCached(res.Val.([]byte))
		if err != nil {
			return nil, "", &UpstreamError{Server: c.Server, Tool: c.Tool, Err: err}
		}
		how := CacheShared
		if late {
			how = CacheHit
		}
		m.countCache(ctx, c, how)
		return r, how, nil
	case <-ctx.Done():
		return nil, "", &UpstreamError{Server: c.Server, Tool: c.Tool, Timeout: true, Err: context.Cause(ctx)}
	}
}

func decodeCached(v []byte) (*mcp.CallToolResult, error) {
	var r mcp.CallToolResult
	if err := json.Unmarshal(v, &r); err != nil {
		return nil, err
	}
	return &r, nil
}

func (m *Mux) countCache(ctx context.Context, c *Call, r CacheResult) {
	if m.opts.metrics != nil {
		m.opts.metrics.Cached(ctx, c, r)
	}
}

// markCached records in res's _meta that the cache answered it. The Meta
// is copied: the result's own may be shared.
func markCached(res *Result, r CacheResult) {
	res.Cache = r
	if r != CacheHit && r != CacheShared {
		return
	}
	meta := &mcp.Meta{AdditionalFields: map[string]any{}}
	if res.Meta != nil {
		meta.ProgressToken = res.Meta.ProgressToken
		maps.Copy(meta.AdditionalFields, res.Meta.AdditionalFields)
	}
	meta.AdditionalFields[CacheMetaKey] = string(r)
	res.Meta = meta
}

// warnUncached logs, once at New, each configured tool the cache will
// not cover: unknown to the kind's servers (with the nearest name), or
// without both readOnlyHint and idempotentHint. A kind whose servers have
// listed no tools yet is named too: its hints are checked on each call.
func (cc *callCache) warnUncached(servers []kindgroups.Server) {
	if cc == nil {
		return
	}
	for _, kind := range slices.Sorted(maps.Keys(cc.kinds)) {
		kc := cc.kinds[kind]
		tools := map[string]mcp.Tool{}
		for _, s := range servers {
			if s.Kind == kind {
				for _, t := range s.Tools {
					tools[t.Name] = t
				}
			}
		}
		loc := "cache.kinds." + kind
		if len(tools) == 0 {
			cc.log.Warn("response cache: no server of the kind has listed tools yet; each call's tool is checked for readOnlyHint and idempotentHint",
				"config", loc)
			continue
		}
		names := slices.Sorted(maps.Keys(tools))
		var unhinted []string
		if kc.tools == nil {
			for _, n := range names {
				if !hinted(tools[n]) {
					unhinted = append(unhinted, n)
				}
			}
		}
		for _, n := range slices.Sorted(maps.Keys(kc.tools)) {
			t, ok := tools[n]
			switch {
			case !ok:
				msg := fmt.Sprintf("response cache: kind %s has no tool %q", kind, n)
				if near := textdist.NearestPart(n, names); near != "" {
					msg += fmt.Sprintf("; did you mean %q?", near)
				}
				cc.log.Warn(msg, "config", loc+".tools")
			case !hinted(t):
				unhinted = append(unhinted, n)
			}
		}
		if len(unhinted) > 0 {
			cc.log.Warn("response cache: not caching tools that do not declare both readOnlyHint and idempotentHint",
				"config", loc, "kind", kind, "tools", strings.Join(unhinted, ", "))
		}
	}
}
