// Package subagent runs one eino agent over the full tools of two or three
// servers, with the rest of the fleet reachable through loadTools and searchTools.
//
// # Tool set per model call
//
// The agent's ToolsNode holds every fleet tool, kind-folded by adapters/eino,
// but what the model sees is decided before each model call by an
// adk.ChatModelAgentMiddleware: BeforeModelRewriteState sets state.ToolInfos
// to the catalog session's active tools (the slice, with the "server" enum
// narrowed to servers the tool is active on) plus the meta-tools. After
// loadTools, the next model call carries the loaded schemas.
//
// # Execution gate
//
// WrapInvokableToolCall refuses any call to a tool that is not active on the
// chosen server (catalog Session.Allow) with text pointing at loadTools or
// searchTools; the server is never hit.
//
// # Conversations
//
// Run takes one task; RunMessages takes a conversation (a chat's earlier
// turns and the new user message) and returns the same Report, covering
// that run only. Report.Messages holds the assistant and tool messages the
// run added, in the order the model read them, so the next turn's history
// is the old one, those messages and the next user message. Tools loaded
// in one turn stay loaded for the next, as between Runs. A tool call in the
// history that never got its result is answered with an error text before
// the model sees it (eino's patchtoolcalls), since model APIs refuse such
// histories.
//
// # Last step
//
// When MaxSteps-1 model calls have run, the next one carries tool choice
// "forbidden" (none) and an answer-now message; tool calls a model makes
// anyway are dropped, so no run ends without an answer.
//
// # Modes
//
// Config.Mode "off" gives only the slice; "on" the slice plus the deferred
// rest of the fleet; "auto" activates the whole permitted fleet when it fits
// the threshold and otherwise behaves as "on".
//
// # Images
//
// With Config.Multimodal, fleet tools are adapters/eino MultimodalTools:
// images in results reach the next model call as image parts after the text
// rendering, and the gate also wraps that path (WrapEnhancedInvokableToolCall).
// Off by default, because OpenAI's chat completions API accepts only text in
// tool messages.
//
// # Build cost
//
// Every permitted fleet tool's schema becomes an eino ToolInfo. Config.Cache
// (an adapters/eino Cache) shares those conversions across subagents of a
// Mux; with it, New on a 23-server fleet drops from ~90 ms to ~5 ms
// (BenchmarkNew). The orchestrator and Lambda share one; a subagent built
// without one gets its own, which still saves the per-step rebuilds.
package subagent
