package mcpfleet

import (
	"container/list"
	"context"
	"errors"
	"sync"
	"time"

	"github.com/mcpfleet/mcpfleet/internal/offload"
)

// ResultStore keeps offloaded results. The Mux stores all a model would
// read of a result (its text, embedded text resources and
// structuredContent) when that is over the kind's offload_tokens, and
// gives the model a handle; ReadResult and GrepResult read it back.
// Implementations must be safe for concurrent use; Get of an unknown or expired handle returns an error
// matching ErrResultNotFound. Get must return the Owner that Put was given:
// the Mux refuses a result whose Owner is not the reader's caller (see
// WithCaller), so a store that loses it makes its results readable only by
// anonymous callers.
//
// [MemoryStore] is the default; stores/redisstore keeps results in Redis.
type ResultStore interface {
	Put(ctx context.Context, r StoredResult) (handle string, err error)
	Get(ctx context.Context, handle string) (StoredResult, error)
}

// StoredResult is one offloaded result.
type StoredResult struct {
	Server string
	Tool   string
	// Owner is the caller the result was produced for (CallerFrom of the
	// call's ctx); "" for anonymous callers.
	Owner string
	// Text is the text blocks, then each embedded text resource and the
	// structuredContent (indented JSON) under a header line of its own.
	Text   string
	Stored time.Time
}

// ErrResultNotFound is returned by ReadResult and GrepResult for a handle
// that is unknown, expired or evicted.
var ErrResultNotFound = errors.New("mcpfleet: no stored result under that handle")

// ErrResultTooLarge is returned by MemoryStore.Put for a text larger than
// the store's whole byte budget.
var ErrResultTooLarge = errors.New("mcpfleet: result larger than the store's byte budget")

// MemoryStore is the default ResultStore: results in memory, bounded by a
// byte budget (the least recently used are evicted to stay under it) and
// a time to live. It keeps the very string it is given, without a copy.
// It is safe for concurrent use.
type MemoryStore struct {
	maxBytes int64
	ttl      time.Duration
	now      func() time.Time // the clock; tests set it

	mu    sync.Mutex
	ll    *list.List // front = most recently used
	items map[string]*list.Element
	bytes int64
}

type memoryEntry struct {
	handle  string
	sr      StoredResult
	expires time.Time
}

// NewMemoryStore returns an empty store holding at most maxBytes of text
// (0: 256 MiB, the fleet file's result_store.max_bytes) for ttl each (0:
// 1h, result_store.ttl).
func NewMemoryStore(maxBytes int64, ttl time.Duration) *MemoryStore {
	if maxBytes <= 0 {
		maxBytes = offload.DefaultMaxBytes
	}
	if ttl <= 0 {
		ttl = offload.DefaultTTL
	}
	return &MemoryStore{maxBytes: maxBytes, ttl: ttl, now: time.Now, ll: list.New(), items: map[string]*list.Element{}}
}

// Put stores r and returns its handle; r.Stored is set to now. A text
// larger than the whole budget is refused with ErrResultTooLarge.
func (m *MemoryStore) Put(ctx context.Context, r StoredResult) (string, error) {
	size := int64(len(r.Text))
	if size > m.maxBytes {
		return "", ErrResultTooLarge
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	h := offload.NewHandle()
	for m.items[h] != nil { // 48 random bits: a collision is rare, not impossible
		h = offload.NewHandle()
	}
	m.keepLocked(h, r)
	return h, nil
}

// keep holds r under a handle another store gave it (see Mux.near); a
// text larger than the budget is not kept.
func (m *MemoryStore) keep(h string, r StoredResult) {
	if int64(len(r.Text)) > m.maxBytes {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if el := m.items[h]; el != nil {
		m.removeLocked(el)
	}
	m.keepLocked(h, r)
}

// keepLocked stores r under h, evicting to stay under the budget.
func (m *MemoryStore) keepLocked(h string, r StoredResult) {
	now := m.now()
	m.expireLocked(now)
	size := int64(len(r.Text))
	for m.bytes+size > m.maxBytes {
		m.removeLocked(m.ll.Back())
	}
	r.Stored = now
	m.items[h] = m.ll.PushFront(&memoryEntry{handle: h, sr: r, expires: now.Add(m.ttl)})
	m.bytes += size
}

// Get returns the result stored under handle, or ErrResultNotFound.
func (m *MemoryStore) Get(ctx context.Context, handle string) (StoredResult, error) {
	now := m.now()
	m.mu.Lock()
	defer m.mu.Unlock()
	el, ok := m.items[handle]
	if !ok {
		return StoredResult{}, ErrResultNotFound
	}
	e := el.Value.(*memoryEntry)
	if !now.Before(e.expires) {
		m.removeLocked(el)
		return StoredResult{}, ErrResultNotFound
	}
	m.ll.MoveToFront(el)
	return e.sr, nil
}

// Bytes reports the bytes of text held now.
func (m *MemoryStore) Bytes() int64 {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.bytes
}

// Len reports the number of results held now.
func (m *MemoryStore) Len() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.ll.Len()
}

// expireLocked drops expired entries from the back; every entry has the
// same TTL, so insertion order and expiry order agree except for entries
// moved to the front by reads, which expire later anyway, so a scan from
// the back that stops at the first live entry may leave a few expired ones
// until Get or eviction meets them. They still count against the budget,
// which is what bounds memory.
func (m *MemoryStore) expireLocked(now time.Time) {
	for el := m.ll.Back(); el != nil; {
		e := el.Value.(*memoryEntry)
		if now.Before(e.expires) {
			return
		}
		prev := el.Prev()
		m.removeLocked(el)
		el = prev
	}
}

func (m *MemoryStore) removeLocked(el *list.Element) {
	if el == nil {
		return
	}
	e := m.ll.Remove(el).(*memoryEntry)
	delete(m.items, e.handle)
	m.bytes -= int64(len(e.sr.Text))
}
