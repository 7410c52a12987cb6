// Package mcpfleet multiplexes a fleet of MCP servers for LLM agents.
//
// A fleet is many MCP servers, often the same server software deployed many
// times: five Kubernetes clusters, four GitLab instances. [New] connects them
// all at once and keeps their tool lists current; [Mux.KindGroups] folds
// identical servers into kinds, so that an agent sees "kubernetes: k8s-1, …"
// instead of five copies of twenty schemas; and [Mux.CallTool] runs every call
// through the same deterministic gates.
//
// # The call pipeline
//
// Every call passes these steps, in this order:
//
//  1. Resolve the server and the tool. An unknown name is rejected with the
//     closest valid one; a down server gives server_down, not "unknown tool".
//  2. Check that the arguments are a JSON object.
//  3. Normalize: the kind's transformers, then the server's (lists
//     concatenate, kind first, duplicates dropped), then the merged field map.
//  4. Reject placeholders ("", whitespace, undefined, null, none, <none>,
//     <unknown>, nil, n/a; case-insensitive) at any depth. JSON null on an
//     optional field is dropped as absent; on a required field it is rejected.
//     allow_placeholders opts a tool out where "none" is a real value.
//  5. Validate against the tool's input schema, compiled once. Remote and
//     file $refs are never fetched.
//  6. Run the [BeforeFunc] hooks: abort, short-circuit, or replace ctx.
//  7. Call the server with the per-call timeout. tools/call is never retried:
//     it is not idempotent.
//  8. Run the [ResultFunc] hooks.
//  9. Run the [AfterFunc] hooks, on every path, with the duration and the
//     reject reason.
//
// Steps 1–5 never reach the server. Their failures are [*RejectError]: its
// Error is one line for logs, and [RejectError.ModelText] is written for a
// model: what was wrong, at which JSON path, and what to send instead.
// [Classify] turns what CallTool returned into one [Status] and [Reason],
// the classification AfterFuncs, metrics and adapters share.
//
// # Health
//
// A server is up, down (with the reason) or connecting, as [Mux.Status]
// reports with its reconnect count and the time of the last change. A
// server goes down when its stdio process exits (watched through an
// inherited pipe, so SIGKILL is seen at once), when a call fails in
// transport, or when the periodic tools/list probe fails ([WithHealthInterval];
// Ping is a no-op on the 2026 protocol). It reconnects with exponential
// backoff and full jitter, capped at 30s; its new tool list replaces the old
// one atomically. Calls to a down server fail at once with server_down.
//
// # Limits
//
// Each server has max_in_flight call slots; a call waits for one at most
// the queue timeout ([WithQueueTimeout], default 10s, overloaded) and then
// runs under the call timeout. When a call's ctx ends, mcp-go sends
// notifications/cancelled, so the server stops too. After consecutive
// timeouts or transport errors the server's circuit opens
// ([WithCircuitBreaker], default 5 failures, 30s): calls fail with
// circuit_open naming the server and when calls resume, until one trial
// call succeeds. tools/call is never retried.
//
// # Observing calls
//
// [WithMetrics] counts every call's outcome; [WithTracerProvider] makes each
// call an execute_tool span with a tools/call client span under it, whose
// W3C trace context travels to the server in the request's _meta
// ([ExtractTraceContext] and [StartServerSpan] are the server side). The
// fleet file's audit: {path} writes one JSON line per call, with a hash of
// its arguments. The telemetry package installs exporters from the fleet
// file and the OTEL_* variables; docs/observability.md lists every span,
// metric and field.
//
// # Large results
//
// A result whose readable part (its text blocks, embedded text resources
// and structuredContent) is over the kind's offload_tokens (default 8000
// o200k tokens) is kept in a [ResultStore] (default: in memory, LRU, 1h,
// 256 MiB) and replaced by a preview with its size and handle.
// [Mux.ReadResult] and [Mux.GrepResult] read it back in bounded pieces, for
// the caller it was stored for only ([WithCaller]); [Mux.Offloading] tells
// adapters to offer them as tools. A byte count decides first: only results
// near the threshold are tokenized.
//
// # Response cache
//
// The fleet file's cache section opts kinds in: a repeated call to a tool
// that declares both readOnlyHint and idempotentHint is answered from the
// cache for the kind's ttl, keyed by server, tool, normalized arguments and
// the caller's scope ([WithCacheScope]); identical calls in flight share one
// upstream call. A hit is marked in _meta under [CacheMetaKey] and counted
// by [Metrics].Cached. The default keeps 64 MiB in memory;
// [WithResponseCache] takes another store, such as stores/rediscache.
// docs/cache-and-limits.md has the details.
//
// # Tool output is data
//
// Every text block of a result is returned in a <tool_output server=…
// tool=…> envelope, and text inside it that imitates instructions, role
// turns, chat-template tokens or tool-call JSON is escaped in place as
// "[defused: …]" ([WithoutNeutralize] turns this off). The other strings
// a client shows the model are defused the same way, without an envelope:
// embedded text resources, structuredContent's string values (keys are
// kept), resource link names, titles and descriptions, MIME types, and
// URIs that hold whitespace (no real URI does). Schemas are
// untrusted too: a tool whose schema is invalid, too deep, too large or
// refers to a remote $ref is unusable (tool_unusable), never fetched, and
// listed by [Mux.Problems] with odd and colliding tool names.
//
// # Why the multiplexer is the root package
//
// It is what every user constructs first, and everything else (catalog,
// agents, the MCP gateway) is built on it, so it gets the shortest import
// path. Its dependencies are kept to the leaves: config, kindgroups,
// normalizers and internal/upstream.
package mcpfleet
