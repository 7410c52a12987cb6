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
package subagent
