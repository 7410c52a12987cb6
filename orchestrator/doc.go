// Package orchestrator answers questions about a fleet with an eino agent
// that sees only the "kind: servers" overview and runs subagents in parallel.
//
// # What the orchestrator sees
//
// Its system prompt is task framing plus mcpfleet's kinds overview; its one
// tool is spawnSubagents. No MCP tool name or schema reaches its model: the
// subagent reports it reads carry answers and a call log by server and status.
//
// # spawnSubagents
//
// Each entry {name, task, servers} becomes a subagent.Subagent, named by
// the optional name ("triage") or "subagent-N", in the trace and the result. They run in
// parallel (errgroup, Config.MaxParallel at once), each under
// Config.SubagentTimeout. A subagent that fails validation, errors or times
// out gets a FAILED or TIMED OUT section; it never sinks its siblings. The
// whole result is trimmed to Config.ReportTokens (o200k), an equal share per
// subagent. The subagents share one tool-definition cache
// (Config.Subagent.Cache), so each costs lookups rather than conversions.
//
// # Trace
//
// Run returns a JSON-serializable Trace: the answer, the orchestrator's steps
// and token usage, and every subagent with its servers, report (tool calls
// with status and duration, loaded tools, tokens) or error.
package orchestrator
