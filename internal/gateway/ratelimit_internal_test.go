package gateway

import (
	"strings"
	"testing"
	"time"

	"github.com/mcpfleet/mcpfleet/internal/goldenfile"
)

// TestMemoryLimiter: a whole minute's calls at once, then one per
// interval as the budget refills; keys are apart.
func TestMemoryLimiter(t *testing.T) {
	now := time.Unix(1000, 0)
	m := NewMemoryLimiter()
	m.now = func() time.Time { return now }
	ctx := t.Context()
	for i := range 6 {
		if ok, _, _ := m.Allow(ctx, "a", 6); !ok {
			t.Fatalf("call %d of a burst of 6 at 6 a minute refused", i+1)
		}
	}
	ok, retry, _ := m.Allow(ctx, "a", 6)
	if ok || retry != 10*time.Second {
		t.Fatalf("7th call: ok %v, retry %v; want refused, retry in 10s (one interval)", ok, retry)
	}
	if ok, _, _ := m.Allow(ctx, "b", 6); !ok {
		t.Error("key b refused for key a's calls")
	}
	now = now.Add(10 * time.Second)
	if ok, _, _ := m.Allow(ctx, "a", 6); !ok {
		t.Error("after one interval, the next call is refused")
	}
	if ok, _, _ := m.Allow(ctx, "a", 6); ok {
		t.Error("after one interval, two calls got through")
	}
	now = now.Add(2 * time.Minute)
	m.sweep(now)
	if len(m.tat) != 0 {
		t.Errorf("sweep kept %d whole budgets", len(m.tat))
	}
}

// TestRefusalTexts pins what a model reads when a call is rate limited.
func TestRefusalTexts(t *testing.T) {
	got := strings.Join([]string{
		rateLimited("server k8s-1", 60, 3200*time.Millisecond),
		rateLimited("kind gitlab", 120, 10*time.Millisecond), // never "retry after 0 s"
		limitsUnavailable,
	}, "\n") + "\n"
	goldenfile.CheckNamed(t, "ratelimit", got)
}
