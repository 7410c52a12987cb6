package mcpfleet

import (
	"context"
	"errors"
	"testing"
	"time"
)

type ctxKey string

// TestNoValues checks both halves of noValues' contract: the caller's values
// stay hidden, and a context derived from it (as mcp-go derives one per
// request) is linked to the wrapped context's cancellation directly. The
// cause reaching the derived context tells the direct link from the
// goroutine the context package falls back to, which can only pass on Err.
func TestNoValues(t *testing.T) {
	errGone := errors.New("caller gone")
	outer, cancelOuter := context.WithCancelCause(context.WithValue(t.Context(), ctxKey("header"), "outer"))
	cctx, cancel := context.WithTimeout(outer, time.Minute)
	defer cancel()
	up := noValues{cctx}
	if v := up.Value(ctxKey("header")); v != nil {
		t.Errorf("Value(header) = %v, want nil", v)
	}
	derived, stop := context.WithCancel(context.WithValue(up, ctxKey("session"), "inner"))
	defer stop()
	if v := derived.Value(ctxKey("session")); v != "inner" {
		t.Errorf("Value(session) = %v, want the derived context's own value", v)
	}
	cancelOuter(errGone)
	<-derived.Done()
	if got := context.Cause(derived); !errors.Is(got, errGone) {
		t.Errorf("Cause(derived) = %v, want %v: the derived context was not linked directly", got, errGone)
	}
	if dl, ok := derived.Deadline(); !ok || dl.IsZero() {
		t.Errorf("Deadline() = %v, %v, want the call's deadline", dl, ok)
	}
}
