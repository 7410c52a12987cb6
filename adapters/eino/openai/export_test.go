package openai

import (
	"context"
	"time"
)

// SetRetryClock replaces the clock and the wait between attempts, so that
// retry tests neither sleep nor depend on timing.
func SetRetryClock(e *Embedder, now func() time.Time, sleep func(context.Context, time.Duration) error) {
	e.now, e.sleep = now, sleep
}
