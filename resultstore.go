package mcpfleet

import (
	"cmp"
	"container/list"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mcpfleet/mcpfleet/config"
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
// the store's memory budget that does not spill (larger than the spill
// budget too, or spilling off or failing).
var ErrResultTooLarge = errors.New("mcpfleet: result larger than the store's byte budget")

// MemoryStore is the default ResultStore: results in memory, bounded by a
// byte budget (the least recently used are evicted to stay under it) and
// a time to live. It keeps the very string it is given, without a copy.
//
// A store made by [NewMemoryStoreFrom] also spills: a result of at least
// result_store.spill.min_bytes goes into a temporary file of its own,
// written straight from the string it is given, and nothing of its text
// stays in memory. The file's name is removed at once, so nothing is left
// behind even by a crash; the file is closed when the result is evicted
// (TTL or budget) or the store closed. Spilled results have their own
// budget, spill.max_bytes, and at most maxSpillFiles are held; the least
// recently used go first, as in memory. The Mux reads a spilled result's
// pages and greps it from the file, a block at a time. When no file can be
// made, results stay in memory and the store warns once.
//
// It is safe for concurrent use.
type MemoryStore struct {
	maxBytes int64
	ttl      time.Duration
	spill    config.Spill // Enabled false when the store never spills
	log      *slog.Logger
	warned   atomic.Bool      // the one spill warning was given
	now      func() time.Time // the clock; tests set it

	mu    sync.Mutex
	ll    *list.List // front = most recently used
	items map[string]*list.Element
	bytes int64 // text held in memory
	disk  int64 // text held in files
	files int
}

// maxSpillFiles bounds the results a MemoryStore holds in files at once:
// each holds a file descriptor.
const maxSpillFiles = 1024

type memoryEntry struct {
	handle  string
	sr      StoredResult // Text is "" when file holds it
	file    *offload.File
	size    int64
	expires time.Time
}

// NewMemoryStore returns an empty store holding at most maxBytes of text
// (0: 256 MiB, the fleet file's result_store.max_bytes) for ttl each (0:
// 1h, result_store.ttl). It keeps every result in memory.
func NewMemoryStore(maxBytes int64, ttl time.Duration) *MemoryStore {
	return NewMemoryStoreFrom(config.ResultStore{MaxBytes: maxBytes, TTL: ttl, Spill: config.Spill{Enabled: new(false)}}, nil)
}

// NewMemoryStoreFrom returns an empty store bounded as rs says, which
// spills big results into temporary files unless rs.Spill turns that off.
// It is the store a Mux makes when no WithResultStore is given. log gets
// the warning when no file can be made (nil: none is logged). Close it to
// close the files.
func NewMemoryStoreFrom(rs config.ResultStore, log *slog.Logger) *MemoryStore {
	if rs.MaxBytes <= 0 {
		rs.MaxBytes = offload.DefaultMaxBytes
	}
	if rs.TTL <= 0 {
		rs.TTL = offload.DefaultTTL
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &MemoryStore{maxBytes: rs.MaxBytes, ttl: rs.TTL, spill: rs.Spill, log: log, now: time.Now,
		ll: list.New(), items: map[string]*list.Element{}}
}

// Put stores r and returns its handle; r.Stored is set to now. A text
// that neither spills nor fits the memory budget is refused with
// ErrResultTooLarge.
func (m *MemoryStore) Put(ctx context.Context, r StoredResult) (string, error) {
	e, err := m.entry(r)
	if err != nil {
		return "", err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	h := offload.NewHandle()
	for m.items[h] != nil { // 48 random bits: a collision is rare, not impossible
		h = offload.NewHandle()
	}
	m.keepLocked(h, e)
	return h, nil
}

// keep holds r under a handle another store gave it (see Mux.near); a
// text larger than the budget is not kept.
func (m *MemoryStore) keep(h string, r StoredResult) {
	e, err := m.entry(r)
	if err != nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if el := m.items[h]; el != nil {
		m.removeLocked(el)
	}
	m.keepLocked(h, e)
}

// entry makes r's entry, its text moved into a file when it is big enough
// to spill. It writes the file before the store is locked, so that
// readers do not wait for it.
func (m *MemoryStore) entry(r StoredResult) (*memoryEntry, error) {
	size := int64(len(r.Text))
	if m.spill.On() && size >= m.spill.MinBytesOrDefault() && size <= m.spill.MaxBytesOrDefault() {
		f, err := offload.Spill(m.spill.Dir, r.Text)
		if err == nil {
			r.Text = ""
			return &memoryEntry{sr: r, file: f, size: size}, nil
		}
		if m.warned.CompareAndSwap(false, true) {
			m.log.Warn("result store: cannot spill big results to a temporary file; keeping them in memory",
				"dir", cmp.Or(m.spill.Dir, os.TempDir()), "err", err)
		}
	}
	if size > m.maxBytes {
		return nil, ErrResultTooLarge
	}
	return &memoryEntry{sr: r, size: size}, nil
}

// keepLocked stores e under h, evicting from e's tier to stay under its
// budget.
func (m *MemoryStore) keepLocked(h string, e *memoryEntry) {
	now := m.now()
	m.expireLocked(now)
	if e.file != nil {
		for (m.disk+e.size > m.spill.MaxBytesOrDefault() || m.files >= maxSpillFiles) && m.evictLocked(true) {
		}
		m.disk += e.size
		m.files++
	} else {
		for m.bytes+e.size > m.maxBytes && m.evictLocked(false) {
		}
		m.bytes += e.size
	}
	e.handle, e.sr.Stored, e.expires = h, now, now.Add(m.ttl)
	m.items[h] = m.ll.PushFront(e)
}

// evictLocked removes the least recently used result of one tier (in
// files or in memory) and reports whether there was one.
func (m *MemoryStore) evictLocked(spilled bool) bool {
	for el := m.ll.Back(); el != nil; el = el.Prev() {
		if (el.Value.(*memoryEntry).file != nil) == spilled {
			m.removeLocked(el)
			return true
		}
	}
	return false
}

// Get returns the result stored under handle, or ErrResultNotFound. The
// text of a spilled result is read back from its file.
func (m *MemoryStore) Get(ctx context.Context, handle string) (StoredResult, error) {
	sr, f, err := m.lookup(handle)
	if err != nil || f == nil {
		return sr, err
	}
	if sr.Text, err = f.Text(); err != nil {
		return StoredResult{}, spillErr(err)
	}
	return sr, nil
}

// lookup returns the result stored under handle and, when it is spilled,
// its file, from which the Mux reads pages and greps without loading the
// text. A read that meets the file closed (the result was evicted
// meanwhile) should be reported through spillErr.
func (m *MemoryStore) lookup(handle string) (StoredResult, *offload.File, error) {
	now := m.now()
	m.mu.Lock()
	defer m.mu.Unlock()
	el, ok := m.items[handle]
	if !ok {
		return StoredResult{}, nil, ErrResultNotFound
	}
	e := el.Value.(*memoryEntry)
	if !now.Before(e.expires) {
		m.removeLocked(el)
		return StoredResult{}, nil, ErrResultNotFound
	}
	m.ll.MoveToFront(el)
	return e.sr, e.file, nil
}

// spillErr is ErrResultNotFound for a read of a file closed by eviction
// or Close, else err.
func spillErr(err error) error {
	if errors.Is(err, os.ErrClosed) {
		return ErrResultNotFound
	}
	return fmt.Errorf("mcpfleet: read a spilled result: %w", err)
}

// Bytes reports the bytes of text held now in memory, not counting
// spilled results.
func (m *MemoryStore) Bytes() int64 {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.bytes
}

// Len reports the number of results held now, in memory or spilled.
func (m *MemoryStore) Len() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.ll.Len()
}

// Close drops every result and closes the files of the spilled ones. The
// store stays usable. It returns nil.
func (m *MemoryStore) Close() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	for m.ll.Len() > 0 {
		m.removeLocked(m.ll.Back())
	}
	return nil
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
	if e.file != nil {
		_ = e.file.Close()
		m.disk -= e.size
		m.files--
	} else {
		m.bytes -= e.size
	}
}
