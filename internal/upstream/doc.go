// Package upstream dials one MCP server over stdio, streamable HTTP, SSE or
// in-process, with the environment and headers the fleet config gives it and
// nothing more. It knows nothing of kinds or gates: the multiplexer owns those.
package upstream
