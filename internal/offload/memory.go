package offload

import (
	"container/list"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"sync"
	"time"
)

// ErrNotFound is returned for a handle that was never issued, has expired,
// or was evicted to stay within the byte budget.
var ErrNotFound = errors.New("offload: no stored result under that handle (expired or evicted)")

// Config bounds a Memory store. Zero fields take the defaults.
type Config struct {
	// MaxBytes is the budget for all stored texts together (default 256 MiB).
	// The least recently used results are evicted to stay under it; a
	// single result larger than the budget is refused.
	MaxBytes int64
	// TTL is how long a result stays readable after it was stored
	// (default 1h).
	TTL time.Duration
	// Now is the clock, for tests; nil means time.Now.
	Now func() time.Time
}

// Defaults for Config.
const (
	DefaultMaxBytes = 256 << 20
	DefaultTTL      = time.Hour
)

// Memory is an in-memory LRU store of texts with a TTL and a byte budget.
// It is safe for concurrent use.
type Memory struct {
	cfg   Config
	mu    sync.Mutex
	ll    *list.List // front = most recently used
	items map[string]*list.Element
	bytes int64
}

type entry struct {
	handle  string
	item    Item
	expires time.Time
}

// Item is one stored result: the text, where it came from and who may
// read it.
type Item struct {
	Server, Tool string
	// Owner is the opaque id of the caller the result was produced for;
	// "" when the caller is anonymous. The store keeps it and returns it;
	// enforcing it is the reader's job, so that every store gets the same
	// rule.
	Owner  string
	Text   string
	Stored time.Time
}

// ErrTooLarge is returned by Put for a text larger than the whole budget.
var ErrTooLarge = errors.New("offload: result larger than the store's byte budget")

// NewMemory returns an empty store; cfg may be nil.
func NewMemory(cfg *Config) *Memory {
	var c Config
	if cfg != nil {
		c = *cfg
	}
	if c.MaxBytes <= 0 {
		c.MaxBytes = DefaultMaxBytes
	}
	if c.TTL <= 0 {
		c.TTL = DefaultTTL
	}
	if c.Now == nil {
		c.Now = time.Now
	}
	return &Memory{cfg: c, ll: list.New(), items: map[string]*list.Element{}}
}

// Put stores it and returns its handle. Stored is set to now.
func (m *Memory) Put(ctx context.Context, it Item) (string, error) {
	text := it.Text
	if int64(len(text)) > m.cfg.MaxBytes {
		return "", ErrTooLarge
	}
	now := m.cfg.Now()
	m.mu.Lock()
	defer m.mu.Unlock()
	h := NewHandle()
	for m.items[h] != nil { // 48 random bits: a collision is rare, not impossible
		h = NewHandle()
	}
	m.expireLocked(now)
	for m.bytes+int64(len(text)) > m.cfg.MaxBytes {
		m.removeLocked(m.ll.Back())
	}
	it.Stored = now
	m.items[h] = m.ll.PushFront(&entry{handle: h, item: it, expires: now.Add(m.cfg.TTL)})
	m.bytes += int64(len(text))
	return h, nil
}

// Get returns the item stored under handle.
func (m *Memory) Get(ctx context.Context, handle string) (Item, error) {
	now := m.cfg.Now()
	m.mu.Lock()
	defer m.mu.Unlock()
	el, ok := m.items[handle]
	if !ok {
		return Item{}, ErrNotFound
	}
	e := el.Value.(*entry)
	if !now.Before(e.expires) {
		m.removeLocked(el)
		return Item{}, ErrNotFound
	}
	m.ll.MoveToFront(el)
	return e.item, nil
}

// Bytes reports the bytes held now.
func (m *Memory) Bytes() int64 {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.bytes
}

// Len reports the number of results held now.
func (m *Memory) Len() int {
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
func (m *Memory) expireLocked(now time.Time) {
	for el := m.ll.Back(); el != nil; {
		e := el.Value.(*entry)
		if now.Before(e.expires) {
			return
		}
		prev := el.Prev()
		m.removeLocked(el)
		el = prev
	}
}

func (m *Memory) removeLocked(el *list.Element) {
	if el == nil {
		return
	}
	e := m.ll.Remove(el).(*entry)
	delete(m.items, e.handle)
	m.bytes -= int64(len(e.item.Text))
}

// NewHandle returns a fresh random handle, short enough for a model to copy
// without error ("r-" and 12 hex digits).
func NewHandle() string {
	var b [6]byte
	_, _ = rand.Read(b[:])
	return "r-" + hex.EncodeToString(b[:])
}
