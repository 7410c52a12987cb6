// Package agenttest starts real in-process fleets for the agent layers'
// tests (subagent, orchestrator): mcp-go servers serving real fixture tools
// through a Mux, with per-server call counters. Only test code imports it.
package agenttest
