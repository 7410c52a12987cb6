package mcpfleet

import (
	"testing"
	"time"
)

// TestCachedValue: a stored value carries its expiry, so no tier serves
// it later, whatever the store keeps.
func TestCachedValue(t *testing.T) {
	now := time.UnixMilli(1_800_000_000_000)
	v := wrapCached([]byte(`{"content":[]}`), now.Add(time.Second))
	if js, ok := unwrapCached(v, now); !ok || string(js) != `{"content":[]}` {
		t.Errorf("before expiry: %q, %v; want the JSON", js, ok)
	}
	if _, ok := unwrapCached(v, now.Add(time.Second)); ok {
		t.Error("served at its expiry")
	}
	for _, bad := range [][]byte{nil, []byte("short")} {
		if _, ok := unwrapCached(bad, now); ok {
			t.Errorf("malformed value %q served", bad)
		}
	}
}
