// Package gateway serves a whole fleet as one MCP server, so that agents
// that cannot import Go (Claude Code, Cursor, any MCP client) get the fleet
// through four small tools instead of every server's full tool list.
//
// # The tools
//
// Their names and argument names are a contract. Four do the work; two
// read back results too large to return whole:
//
//   - listKinds {}: the kinds, their servers and how many tools each kind
//     has that the caller may use.
//   - searchTools {query, k?}: search of the permitted tools (BM25 over
//     names, catalog lines, descriptions and parameters).
//   - describeTools {names}: the full input schemas of the named tools
//     ("tool", "kind.tool" or "server.tool"), one per kind, each with an
//     added required "server" argument whose enum lists the servers that
//     have the tool.
//   - callTool {server, tool, arguments}: the call, through the Mux's whole
//     pipeline (repair, placeholder rejection, schema validation, hooks).
//     A tool the caller's scopes do not permit is refused here, before the
//     Mux sees it.
//   - readResult {handle, offset?, limit?} and grepResult {handle, pattern,
//     context?}: read a result the Mux offloaded because it was too large
//     for the context; callTool's preview of it gives the handle. The Mux
//     keeps the result; these tools only read it back.
//
// Every refusal is a tool result with isError set and text written for a
// model, never a protocol error: clients show tool results to the model but
// often hide JSON-RPC errors from it.
//
// # Scopes and auth
//
// Scopes come from [catalog.WithScopes] on the request context. Over stdio
// the caller is whoever started the process and gets [Config.Scopes]. Over
// HTTP every request needs a bearer token, mapped to scopes by
// [Config.Tokens] (see [ParseTokens] for the file format); without tokens
// [Gateway.ListenAndServe] refuses any address that is not loopback. Each
// token is also a caller ([CallerID], set with mcpfleet.WithCaller): a
// result offloaded for one token reads back with that token only; any other
// gets the answer an unknown handle gets.
//
// # Rate limits
//
// The fleet file's rate_limits section bounds each caller's callTool
// requests per kind (calls per minute, per server or for the whole kind);
// each token is one caller, and callers without one share a budget. A call
// over the limit is refused before the Mux sees it, with a tool result that
// says when to retry, and counted as rate_limited in /metrics.
// [Config.Limiter] counts: [MemoryLimiter] in one process by default,
// stores/redislimit across replicas. When it fails, on_store_error says
// whether calls go through (open) or are refused (closed). [CacheScope]
// keys the Mux's response cache by the caller's scopes.
//
// # Limits
//
// A shared gateway serves many callers, so one request is bounded: the
// body ([Config.MaxRequestBytes]), a searchTools query
// ([Config.MaxQueryBytes]), the names of one describeTools call
// ([Config.MaxDescribeNames]) and a grepResult pattern
// ([Config.MaxPatternBytes], at most the Mux's own 512 bytes). mcpfleet
// serve takes them from the fleet file's request_limits section, and its
// flags override that. Each refusal says the limit and what was sent.
//
// # Conversations
//
// The default protocol revision has no sessions, and replicas behind a
// load balancer may each see one request of a client. A client that sends
// [HeaderConversation] gets the tools it described kept in
// [Config.Activations] under its caller id plus the conversation id;
// listKinds then names them, on whichever replica answers. Stores shared
// by replicas are in stores/redisstore (see docs/replicas.md).
//
// # HTTP endpoints
//
//   - /mcp: streamable HTTP MCP. A body over [Config.MaxRequestBytes]
//     (default 4 MB) gets 413 before it is read whole.
//   - /healthz: 200 with {"status": "ok"|"degraded", "servers": [...]}, the
//     Mux's status per server, and with [Config.Store] set, "store":
//     {"backend", "state": "up"|"down"}; a store that does not answer makes
//     the status degraded. Unauthenticated, like most health checks; it
//     shows server names and states, never arguments or results.
//   - /metrics: [Config.MetricsHandler], typically the Prometheus text
//     format from telemetry's OpenTelemetry Prometheus exporter. The
//     gateway keeps no counters of its own: it counts through the Mux's
//     Metrics (mcpfleet.WithMetrics), the calls it refuses itself included,
//     and, when that Metrics implements [RequestMetrics], every request per
//     gateway tool. Needs a token when tokens are configured.
//
// # Traces
//
// With a Mux built WithTracerProvider, every request is a server span, a
// child of the W3C trace context the client sent in the request's _meta: a
// tools/call is "tools/call <gateway tool>", and the Mux's spans are its
// children; any other request (tools/list, initialize, server/discover) is
// a span named for its method, with mcp.method.name.
//
// # Shutdown
//
// When the context of [Gateway.ListenAndServe] or [Gateway.ServeStdio] ends,
// the gateway stops accepting requests, waits for calls in flight (up to
// [Config.DrainTimeout]) and returns. Closing the Mux is the caller's job,
// after that.
package gateway
