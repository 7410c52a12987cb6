package offload

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// The store keeps an item's owner as given: the Mux refuses reads by
// anyone else, and can only do so if the owner comes back intact.
func TestMemoryKeepsOwner(t *testing.T) {
	now := time.Unix(100, 0)
	m := NewMemory(&Config{Now: func() time.Time { return now }})
	ctx := t.Context()
	for _, owner := range []string{"", "token:0123abcd"} {
		in := Item{Server: "k8s-1", Tool: "pods_log", Owner: owner, Text: "line 1\nline 2"}
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
