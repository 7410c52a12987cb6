package respcache

import (
	"container/list"
	"context"
	"sync"
	"time"
)

// DefaultMaxBytes is the budget of a Memory made with max <= 0.
const DefaultMaxBytes = 64 << 20

// Memory is an in-memory cache. Its methods are safe for concurrent use
// and never fail; the error results are there to match the interface the
// multiplexer consumes.
type Memory struct {
	max int64
	now func() time.Time

	mu    sync.Mutex
	bytes int64
	order *list.List // front: most recently used; values are *entry
	items map[string]*list.Element
}

type entry struct {
	key     string
	value   []byte
	expires time.Time
}

// NewMemory returns a cache that holds at most max bytes of keys and
// values (DefaultMaxBytes when max <= 0).
func NewMemory(max int64) *Memory {
	if max <= 0 {
		max = DefaultMaxBytes
	}
	return &Memory{max: max, now: time.Now, order: list.New(), items: map[string]*list.Element{}}
}

// Get returns the value under key, or ok=false when there is none or it
// expired. The caller must not change the returned slice.
func (m *Memory) Get(_ context.Context, key string) ([]byte, bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	el, ok := m.items[key]
	if !ok {
		return nil, false, nil
	}
	e := el.Value.(*entry)
	if !m.now().Before(e.expires) {
		m.remove(el)
		return nil, false, nil
	}
	m.order.MoveToFront(el)
	return e.value, true, nil
}

// Set keeps value under key for ttl, replacing any value there. A value
// larger than the whole budget, or a ttl <= 0, is not kept.
func (m *Memory) Set(_ context.Context, key string, value []byte, ttl time.Duration) error {
	size := int64(len(key) + len(value))
	m.mu.Lock()
	defer m.mu.Unlock()
	if el, ok := m.items[key]; ok {
		m.remove(el)
	}
	if ttl <= 0 || size > m.max {
		return nil
	}
	e := &entry{key: key, value: value, expires: m.now().Add(ttl)}
	m.items[key] = m.order.PushFront(e)
	m.bytes += size
	for m.bytes > m.max {
		m.remove(m.order.Back())
	}
	return nil
}

// Len returns the number of entries held, expired ones not yet evicted
// included.
func (m *Memory) Len() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.items)
}

func (m *Memory) remove(el *list.Element) {
	e := m.order.Remove(el).(*entry)
	delete(m.items, e.key)
	m.bytes -= int64(len(e.key) + len(e.value))
}
