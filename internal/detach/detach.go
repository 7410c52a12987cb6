package detach

import (
	"context"
	"time"
)

// Values returns a context that has ctx's deadline and ends when ctx
// ends, with ctx's cause, but holds none of ctx's values. Call stop when
// the work is done, to release the link to ctx.
//
// It ends after ctx, never before: it keeps no timer of its own, so a
// caller that checks its own ctx after an error from work done under the
// detached one finds its ctx already ended.
func Values(ctx context.Context) (_ context.Context, stop context.CancelFunc) {
	out, cancel := context.WithCancelCause(context.Background())
	unlink := context.AfterFunc(ctx, func() { cancel(context.Cause(ctx)) })
	d := &detached{Context: out}
	d.deadline, d.hasDeadline = ctx.Deadline()
	return d, func() {
		unlink()
		cancel(context.Canceled)
	}
}

// detached reports the caller's deadline over a context of its own. The
// embedded context answers Value, so contexts derived from a detached one
// find its cancellation directly, as they do for any context.WithCancel.
type detached struct {
	context.Context
	deadline    time.Time
	hasDeadline bool
}

func (d *detached) Deadline() (time.Time, bool) { return d.deadline, d.hasDeadline }
