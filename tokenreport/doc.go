// Package tokenreport measures what each view of a fleet costs a model, in
// o200k tokens: every server's full tool schemas, the kinds view, the
// orchestrator's overview, the deferred catalog, the tool definitions of
// `mcpfleet serve`, and a subagent's slice.
//
// `mcpfleet tokens` prints a [Report], and examples/incident prints the same
// figures, so both always agree. Counts come from the tiktoken o200k_base
// vocabulary embedded in the binary: no network, never chars/4.
package tokenreport
