// Package eino translates an mcpfleet Mux into cloudwego/eino components:
// kind-folded tools, compose lambda nodes, the callbacks bridge, and
// OpenAI-compatible chat model and embedder constructors.
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
// OpenAIEmbedder is an eino embedding.Embedder for any endpoint speaking
// OpenAI's POST /embeddings, written on net/http because eino-ext's
// embedding modules pin older eino. EmbedderFromEnv configures it like
// ModelFromEnv configures the chat model, from MCPFLEET_EMBED_MODEL plus the
// shared OPENAI_BASE_URL and OPENAI_API_KEY, or its own
// MCPFLEET_EMBED_BASE_URL with MCPFLEET_EMBED_API_KEY (the chat key never
// goes to another host); an unset MCPFLEET_EMBED_MODEL means no embedder and
// no error. It sends texts in batches, bounds each request by a timeout and
// each response by a size, places vectors by data[].index, and fails with
// an *EmbedError naming the endpoint, model, status and an [EmbedReason],
// never the key. CatalogEmbedder adapts it, or any eino embedder, to
// catalog.Embedder; catalog.FromFleet does not set it, so that translating a
// fleet file stays pure and does no I/O. A failing embedder costs nothing
// but quality: the catalog falls back to BM25. MCPFLEET_EMBED_QUERY_PREFIX
// and MCPFLEET_EMBED_DOC_PREFIX fill EmbedderConfig.QueryPrefix and
// DocPrefix ("query: " / "passage: " for e5-style models); the embedder
// does not apply them, since only the catalog knows which text is a
// query: copy them into catalog.Config.EmbedQueryPrefix and EmbedDocPrefix.
//
// A request that fails for a reason that passes (429, 408, a 5xx other
// than 501, a dropped connection) is sent again, up to
// EmbedderConfig.MaxRetries times (2 by default; negative for none;
// MCPFLEET_EMBED_MAX_RETRIES, where 0 means none). It waits what a 429 or
// 503 asks in Retry-After (seconds or an HTTP date), else a jittered
// backoff from 0.5 s doubling to 5 s; the waits of one request add up to
// at most MaxRetryWait (10 s), and a wait that would not fit it or ctx's
// deadline is not begun: the call fails at once, and the *EmbedError
// carries the requested RetryAfter, which the catalog honours as its
// cool-down (EmbedError is a catalog/search.RetryDelayer). Every wait ends when
// ctx does. Other 4xx answers, malformed responses and the per-request
// Timeout are not retried. The error's text counts the attempts.
//
// EmbedCache wraps any eino embedder and remembers vectors by model and
// exact text, so that serve, which rebuilds its catalog whenever the
// fleet changes, sends only the entries whose text changed (and repeated
// queries not at all). It forwards the misses in input order in one call,
// caches nothing from a failed one but the batches an OpenAIEmbedder it
// wraps directly finished before the failure (EmbedError.Embedded), so a
// large catalog's next attempt sends only the rest, and drops the least
// recently used vector beyond its bound (DefaultEmbedCacheEntries).
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
