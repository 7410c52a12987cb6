// Package upstream dials one MCP server over stdio, streamable HTTP, SSE or
// in-process, with the environment and headers the fleet config gives it and
// nothing more. It knows nothing of kinds or gates: the multiplexer owns those.
//
// Between a stdio server and mcp-go sit two readers: cutReader bounds each
// message to max_result_bytes, and bigReader decodes a tools/call answer of
// BigResultBytes or more itself, from one copy of the line, handing the
// result to the caller that passed [WithBigResult] (mcp-go gets a stand-in
// answer with the same id).
package upstream
