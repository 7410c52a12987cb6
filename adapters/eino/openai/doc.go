// Package openai builds OpenAI-compatible clients for eino: the chat
// model (ModelFromEnv, through eino-ext's openai model) and an embedder
// (Embedder, EmbedderFromEnv) for any endpoint speaking OpenAI's API, such
// as vLLM, Ollama, llama.cpp or OpenAI itself. The tool adapter, package
// adapters/eino, does not need them; a program picks its model here.
//
// # Chat model
//
// ModelFromEnv reads MCPFLEET_MODEL, OPENAI_BASE_URL and OPENAI_API_KEY
// (ModelConfigFromEnv). The key may be empty only for a local endpoint
// (localhost or 127.0.0.1); anything missing is a *MissingEnvError naming
// the variables, so a program can fall back to a scripted model.
//
// # Embeddings
//
// Embedder is an eino embedding.Embedder for any endpoint speaking
// OpenAI's POST /embeddings, written on net/http because eino-ext's
// embedding modules pin older eino. EmbedderFromEnv configures it like
// ModelFromEnv configures the chat model, from MCPFLEET_EMBED_MODEL plus the
// shared OPENAI_BASE_URL and OPENAI_API_KEY, or its own
// MCPFLEET_EMBED_BASE_URL with MCPFLEET_EMBED_API_KEY (the chat key never
// goes to another host); an unset MCPFLEET_EMBED_MODEL means no embedder and
// no error. It sends texts in batches, bounds each request by a timeout and
// each response by a size, places vectors by data[].index, and fails with
// an *EmbedError naming the endpoint, model, status and an [EmbedReason],
// never the key. eino.CatalogEmbedder (package adapters/eino) adapts it, or any eino
// embedder, to catalog.Embedder; catalog.FromFleet does not set it, so that translating a
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
// caches nothing from a failed one but the batches an Embedder it
// wraps directly finished before the failure (EmbedError.Embedded), so a
// large catalog's next attempt sends only the rest, and drops the least
// recently used vector beyond its bound (DefaultEmbedCacheEntries).
package openai
