// Package testfleet provides real MCP servers for tests: mcp-go servers
// served in-process, over httptest streamable HTTP and SSE, and as stdio
// subprocesses built from this repository. Only test code imports it.
package testfleet
