package mcpfleet

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestMemoryStoreBudgetAndTTL(t *testing.T) {
	now := time.Unix(0, 0)
	m := NewMemoryStore(100, time.Minute)
	m.now = func() time.Time { return now }
	ctx := t.Context()
	a, _ := m.Put(ctx, StoredResult{Text: strings.Repeat("a", 40)})
	b, _ := m.Put(ctx, StoredResult{Text: strings.Repeat("b", 40)})
	if _, err := m.Get(ctx, a); err != nil { // a is now most recent
		t.Fatal(err)
	}
	c, _ := m.Put(ctx, StoredResult{Text: strings.Repeat("c", 40)}) // evicts b, the least recent
	if _, err := m.Get(ctx, b); !errors.Is(err, ErrResultNotFound) {
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
	if _, err := m.Put(ctx, StoredResult{Text: strings.Repeat("x", 101)}); !errors.Is(err, ErrResultTooLarge) {
		t.Errorf("oversized: err = %v", err)
	}
	now = now.Add(2 * time.Minute)
	if _, err := m.Get(ctx, a); !errors.Is(err, ErrResultNotFound) {
		t.Errorf("after TTL: err = %v, want ErrResultNotFound", err)
	}
	m.Put(ctx, StoredResult{Text: "fresh"})
	if m.Len() != 1 {
		t.Errorf("expired entries kept: len %d", m.Len())
	}
}

// The store keeps a result's owner as given: the Mux refuses reads by
// anyone else, and can only do so if the owner comes back intact.
func TestMemoryStoreKeepsOwner(t *testing.T) {
	now := time.Unix(100, 0)
	m := NewMemoryStore(0, 0)
	m.now = func() time.Time { return now }
	ctx := t.Context()
	for _, owner := range []string{"", "token:0123abcd"} {
		in := StoredResult{Server: "k8s-1", Tool: "pods_log", Owner: owner, Text: "line 1\nline 2"}
		h, err := m.Put(ctx, in)
		if err != nil {
			t.Fatal(err)
		}
		got, err := m.Get(ctx, h)
		if err != nil {
			t.Fatal(err)
		}
		in.Stored = now
		if diff := cmp.Diff(in, got); diff != "" {
			t.Errorf("owner %q: Get (-want +got):\n%s", owner, diff)
		}
	}
}
