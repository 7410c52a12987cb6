// Package detach gives a call its own context: the caller's deadline and
// cancellation, none of the caller's values.
//
// An in-process mcp-go server reads per-request state (the HTTP headers,
// the client session) from ctx values. A call relayed from an outer MCP
// server, such as mcpfleet serve, must not hand it the outer request's:
// mcp-go would compare the outer headers with the inner call and refuse
// it. The Mux detaches every in-process call; the gateway detaches each
// relayed call and puts back only the caller's scopes and id.
//
// It is written against the public context API (WithCancelCause,
// WithDeadline, AfterFunc), so it depends on no private detail of the
// context package, and contexts derived from it link to it directly,
// without a goroutine each.
package detach
