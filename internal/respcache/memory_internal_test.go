package respcache

import (
	"bytes"
	"testing"
	"time"
)

func TestMemory(t *testing.T) {
	ctx := t.Context()
	now := time.Unix(1000, 0)
	m := NewMemory(30)
	m.now = func() time.Time { return now }

	if _, ok, _ := m.Get(ctx, "a"); ok {
		t.Fatal("empty cache: got a hit")
	}
	_ = m.Set(ctx, "a", []byte("0123456789"), time.Minute) // 11 bytes
	if v, ok, _ := m.Get(ctx, "a"); !ok || !bytes.Equal(v, []byte("0123456789")) {
		t.Fatalf("Get(a) = %q, %v; want the value set", v, ok)
	}

	t.Run("expiry", func(t *testing.T) {
		_ = m.Set(ctx, "short", []byte("x"), time.Second)
		now = now.Add(time.Second)
		if _, ok, _ := m.Get(ctx, "short"); ok {
			t.Error("an entry at its ttl is still served")
		}
		if _, ok, _ := m.Get(ctx, "a"); !ok {
			t.Error("an entry within its ttl was dropped")
		}
	})
	t.Run("lru eviction by bytes", func(t *testing.T) {
		_ = m.Set(ctx, "b", []byte("0123456789"), time.Minute) // 22 bytes held
		_, _, _ = m.Get(ctx, "a")                              // a is now the most recent
		_ = m.Set(ctx, "c", []byte("0123456789"), time.Minute) // 33 > 30: evict b
		if _, ok, _ := m.Get(ctx, "b"); ok {
			t.Error("the least recently used entry was kept over budget")
		}
		for _, k := range []string{"a", "c"} {
			if _, ok, _ := m.Get(ctx, k); !ok {
				t.Errorf("%s was evicted; want only the least recently used gone", k)
			}
		}
		if m.bytes > m.max {
			t.Errorf("holds %d bytes, over the budget of %d", m.bytes, m.max)
		}
	})
	t.Run("too large or no ttl", func(t *testing.T) {
		_ = m.Set(ctx, "huge", make([]byte, 31), time.Minute)
		_ = m.Set(ctx, "a", []byte("new"), 0) // replaces a by nothing
		for _, k := range []string{"huge", "a"} {
			if _, ok, _ := m.Get(ctx, k); ok {
				t.Errorf("%s is served; want it not kept", k)
			}
		}
	})
}
