// Package eino translates an mcpfleet Mux into cloudwego/eino components:
// kind-folded tools, compose lambda nodes, the callbacks bridge, and the
// adapter from eino embedders to catalog.Embedder.
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
// timeouts come back as text starting with "REJECTED server.tool (reason):"
// or "ERROR from server.tool:", and the CallRecord carries the status for
// logs and reports. A rejection keeps the root RejectError's problems,
// hints and advice but not its opening line, which would name the call and
// the verdict a second time.
//
// # Callbacks
//
// Every MCP call fires OnStart and OnEnd (or OnError) on the eino callback
// handlers found in ctx, with RunInfo.Type "MCP" and the tool component.
// OnError gets the Mux's own error (a *mcpfleet.RejectError or
// *mcpfleet.UpstreamError), not the model-facing text.
// Pass handlers per run with compose.WithCallbacks or adk.WithCallbacks;
// nothing here registers global handlers.
//
// # Embeddings
//
// CatalogEmbedder adapts any eino embedding.Embedder to catalog.Embedder;
// a nil one (embeddings off) gives a nil catalog.Embedder, so search stays
// BM25. The OpenAI-compatible embedder and chat model constructors live in
// package [github.com/mcpfleet/mcpfleet/adapters/eino/openai].
//
// # Multimodal results
//
// A Tool is an InvokableTool returning a string: images and audio are
// referenced by MIME type and size, and structured content is appended as
// JSON (Render). That suits every chat model, including OpenAI's chat
// completions API, which accepts only text in tool messages.
//
// Tool.Multimodal returns the same tool as an eino v0.9.13
// EnhancedInvokableTool (MultimodalTool): its schema.ToolResult carries the
// text rendering first and then each image as an image part, which adk's
// ToolsNode turns into the tool message's UserInputMultiContent, so the next
// model call sees the image. adk gates that path with
// WrapEnhancedInvokableToolCall, and subagent implements it next to
// WrapInvokableToolCall, so the execution gate holds on both. Audio stays a
// text reference: eino-ext's OpenAI request builder fails on audio parts
// whose MIME type it cannot map to a format, and a failed request would end
// the run.
package eino
