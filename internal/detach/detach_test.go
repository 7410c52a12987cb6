package detach_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/mcpfleet/mcpfleet/internal/detach"
)

type ctxKey string

// TestValues checks both halves of the contract: the caller's values stay
// hidden, and a context derived from the detached one (as mcp-go derives
// one per request) ends with the caller's cause and keeps its deadline.
// (Moved from the root's TestNoValues when Values replaced noValues.)
func TestValues(t *testing.T) {
	errGone := errors.New("caller gone")
	outer, cancelOuter := context.WithCancelCause(context.WithValue(t.Context(), ctxKey("header"), "outer"))
	cctx, cancel := context.WithTimeout(outer, time.Minute)
	defer cancel()
	up, stop := detach.Values(cctx)
	defer stop()
	if v := up.Value(ctxKey("header")); v != nil {
		t.Errorf("Value(header) = %v, want nil", v)
	}
	derived, stopDerived := context.WithCancel(context.WithValue(up, ctxKey("session"), "inner"))
	defer stopDerived()
	if v := derived.Value(ctxKey("session")); v != "inner" {
		t.Errorf("Value(session) = %v, want the derived context's own value", v)
	}
	want, _ := cctx.Deadline()
	if dl, ok := derived.Deadline(); !ok || !dl.Equal(want) {
		t.Errorf("Deadline() = %v, %v, want the call's deadline %v", dl, ok, want)
	}
	cancelOuter(errGone)
	<-derived.Done()
	if got := context.Cause(derived); !errors.Is(got, errGone) {
		t.Errorf("Cause(derived) = %v, want %v", got, errGone)
	}
}

// TestValuesStop: stopping ends the detached context and unlinks it, so
// the caller's later end cannot reach it.
func TestValuesStop(t *testing.T) {
	ctx, cancel := context.WithCancelCause(t.Context())
	up, stop := detach.Values(ctx)
	stop()
	if !errors.Is(up.Err(), context.Canceled) {
		t.Errorf("Err() after stop = %v, want context.Canceled", up.Err())
	}
	cancel(errors.New("later"))
	if got := context.Cause(up); !errors.Is(got, context.Canceled) {
		t.Errorf("Cause after stop = %v, want context.Canceled", got)
	}
}
