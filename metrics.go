package mcpfleet

import "context"

// Metrics receives what the Mux counts. Implementations must be safe for
// concurrent use and must not block: they run on the call path. The Mux
// never calls them with a nil receiver; leave the option out to count
// nothing. metrics/otelmetrics implements it with OpenTelemetry.
type Metrics interface {
	// CallDone is called once per CallTool, on every path, with the call's
	// outcome: its Status (ok, repaired, rejected, tool_error,
	// upstream_error, timeout, down), the Reason of a rejection, and its
	// duration.
	CallDone(ctx context.Context, c *Call, o Outcome)
	// Offloaded is called when a result of n bytes left the context for the
	// result store.
	Offloaded(ctx context.Context, c *Call, n int64)
	// Defused is called when n pieces of a result that imitated
	// instructions or role turns were escaped.
	Defused(ctx context.Context, c *Call, n int)
	// Reconnected is called when a server that was down is back.
	Reconnected(ctx context.Context, server string)
	// Cached is called for each call the response cache covers, with how
	// it answered: hit, shared (an identical call in flight answered it)
	// or miss.
	Cached(ctx context.Context, c *Call, r CacheResult)
	// PinFlagged is called when a tool definition fails a pinning check
	// at list time (see PinIssue): once per server and definition, when
	// it is first seen, not on every relist of it. Under pinning: warn
	// the tool stays listed (is.Quarantined is false) and this is how
	// the flag is counted; under enforce it is quarantined.
	PinFlagged(ctx context.Context, is PinIssue)
}
