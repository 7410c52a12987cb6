// Package upstream dials one MCP server over stdio, streamable HTTP, SSE or
// in-process, with the environment and headers the fleet config gives it and
// nothing more. It knows nothing of kinds or gates: the multiplexer owns those.
//
// Between a stdio server and mcp-go sit two readers: cutReader bounds each
// message to max_result_bytes, and bigReader decodes a tools/call answer of
// BigResultBytes or more itself, from one copy of the line, handing the
// result to the caller that passed [WithBigResult] (mcp-go gets a stand-in
// answer with the same id).
//
// On stdio and in process, calls go through a [Caller], not through
// mcp-go's Client.CallTool: the same request on the wire, with the
// per-request _meta encoded once per connection instead of three
// re-encodings of each call's params for HTTP headers these transports
// drop. Dial, list and probe still use the client:
//
//	c, init, err := upstream.Dial(ctx, life, spec)
//	...
//	calls := upstream.NewCaller(c, spec, init) // nil on HTTP and SSE
//	res, err := calls.CallTool(ctx, req)
package upstream
