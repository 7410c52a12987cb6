package offload

import (
	"errors"
	"strings"
	"testing"
	"time"
)

func TestMemoryBudgetAndTTL(t *testing.T) {
	now := time.Unix(0, 0)
	m := NewMemory(&Config{MaxBytes: 100, TTL: time.Minute, Now: func() time.Time { return now }})
	ctx := t.Context()
	a, _ := m.Put(ctx, Item{Text: strings.Repeat("a", 40)})
	b, _ := m.Put(ctx, Item{Text: strings.Repeat("b", 40)})
	if _, err := m.Get(ctx, a); err != nil { // a is now most recent
		t.Fatal(err)
	}
	c, _ := m.Put(ctx, Item{Text: strings.Repeat("c", 40)}) // evicts b, the least recent
	if _, err := m.Get(ctx, b); !errors.Is(err, ErrNotFound) {
		t.Errorf("b: err = %v, want evicted", err)
	}
	for _, h := range []string{a, c} {
		if _, err := m.Get(ctx, h); err != nil {
			t.Errorf("%s: %v", h, err)
		}
	}
	if m.Bytes() > 100 {
		t.Errorf("holding %d bytes over a budget of 100", m.Bytes())
	}
	if _, err := m.Put(ctx, Item{Text: strings.Repeat("x", 101)}); !errors.Is(err, ErrTooLarge) {
		t.Errorf("oversized: err = %v", err)
	}
	now = now.Add(2 * time.Minute)
	if _, err := m.Get(ctx, a); !errors.Is(err, ErrNotFound) {
		t.Errorf("after TTL: err = %v, want ErrNotFound", err)
	}
	m.Put(ctx, Item{Text: "fresh"})
	if m.Len() != 1 {
		t.Errorf("expired entries kept: len %d", m.Len())
	}
}
