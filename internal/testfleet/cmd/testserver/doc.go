// Command testserver is a real MCP server over stdio for mcpfleet's tests:
// the testfleet built-in tools, plus the tools of a fixture file if given.
package main
