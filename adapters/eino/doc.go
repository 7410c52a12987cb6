// Package eino translates an mcpfleet Mux into cloudwego/eino components:
// kind-folded tools, compose lambda nodes, the callbacks bridge and an
// OpenAI-compatible model constructor.
//
// # Folding
//
// Fold turns the fleet's kind groups into one tool per (kind, tool name) with
// a required "server" parameter whose enum lists only the servers that have
// the tool. Tools whose schemas drift between servers are offered per server
// ("server__tool") and reported in Plan.Drift. A tool name shared by several
// kinds becomes "kind__tool"; otherwise the MCP name is kept.
//
// # Failures are text
//
// A Go error from a tool aborts an eino agent run, so Tool.InvokableRun and
// Call never return one: rejections, IsError answers, upstream failures and
// timeouts come back as text starting with "REJECTED" or "ERROR", and the
// CallRecord carries the status for logs and reports.
//
// # Callbacks
//
// Every MCP call fires OnStart and OnEnd (or OnError) on the eino callback
// handlers found in ctx, with RunInfo.Type "MCP" and the tool component.
// Pass handlers per run with compose.WithCallbacks or adk.WithCallbacks;
// nothing here registers global handlers.
//
// # Multimodal results
//
// Tools are InvokableTools returning strings, because adk's execution gate
// (WrapInvokableToolCall) sits on that path. Images and audio are therefore
// referenced by MIME type and size, and structured content is appended as JSON.
package eino
