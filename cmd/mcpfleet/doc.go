// Command mcpfleet inspects and exercises a fleet of MCP servers from the
// terminal: what the orchestrator sees, what each server offers, what it
// costs in tokens, and what a call through mcpfleet's gates returns.
//
// Usage:
//
//	mcpfleet <command> [flags] [args]
//
// Every command takes --config FILE (default $MCPFLEET_CONFIG), the fleet
// file, and --strict. Flags may come before or after arguments.
//
// # Commands
//
//	overview     --config F [--json]
//	    The orchestrator's view: one "kind: servers" line per kind.
//	tools        --config F [--server S] [--json]
//	    Tools per kind (or of one server), name and first line of the
//	    description. --json prints every (server, tool) with its full
//	    definition: server, kind, name, description, inputSchema, annotations.
//	call         --config F [--json] [--as-model] SERVER TOOL ['JSON' | -]
//	    Calls a tool through the gates (normalize, placeholders, schema) and
//	    prints the result: text as is, images as "[image image/png, N bytes]",
//	    structured content as one line of JSON. '-' reads the arguments from
//	    stdin; none means {}. By default the output is the tool's own, whole;
//	    --as-model shows it as a model gets it (tool_output envelope,
//	    offloading of large results).
//	tokens       --config F [--json] [--servers a,b,c] [--scopes s,…] [--svg FILE]
//	    o200k token figures: full_tokens (the sum over servers of each
//	    server's tools serialized as one chat API tools array, so it equals
//	    the sum of per_server), kinds_tokens ("kind (servers): tool, …"
//	    lines, no schemas), orchestrator_tokens (the overview),
//	    catalog_tokens (the deferred catalog block of the whole fleet at the
//	    default budget, mode on), gateway_tokens (the tool definitions of
//	    mcpfleet serve), per_server, and with --servers
//	    subagent_tokens: what a sub-agent over that slice is sent first
//	    (subagent.SliceTokens: folded tools, loadTools/searchTools, and the
//	    instruction with its catalog block), detailed under "subagent".
//	    --scopes (default all) applies to the catalog and sub-agent figures.
//	    --svg FILE also draws full, kinds, overview, slice and gateway as a
//	    bar chart (log scale); docs/tokens.svg is drawn this way.
//	search       --config F [--k N] [--scopes s,…] [--json] QUERY
//	    BM25 search (with the ops lexicon and the file's search.synonyms)
//	    over every tool the scopes permit (default all); --json prints
//	    [{kind, tool, servers, line, score, …}]. Hybrid when
//	    MCPFLEET_EMBED_MODEL is set (see Environment).
//	eval-search  --config F --queries FILE [--json] [--k 5]
//	    Scores search on JSON Lines {"q", "expect": ["kind:tool"]}: recall@1,
//	    recall@3, recall@5, nDCG@5, per split, and the misses.
//	catalog      --config F [--lint] [--servers a,b] [--scopes s,…] [--json]
//	    The deferred catalog block an agent over the slice would see. --lint
//	    lists tools without a hand-written catalog line and colliding lines.
//	status       --config F [--json]
//	    Each server's state, tool count, reconnects and last error.
//	lock         --config F [--diff | --approve KIND/TOOL...] [--judge] [--json]
//	    Pins every tool definition in fleet.lock (docs/pinning.md). --diff
//	    shows what differs, field by field (exit 1 when anything does);
//	    --approve pins the named tools anew; --judge asks the chat model
//	    of MCPFLEET_MODEL and OPENAI_BASE_URL about each definition the lock
//	    has no verdict for and records the verdicts.
//	serve        --config F [--transport stdio|http] [--addr A] [--token-file F] [--scopes s,…] [--max-request-bytes N] [--max-query-bytes N] [--max-describe-names N] [--max-pattern-bytes N]
//	    Serves the fleet as one MCP server until SIGTERM, SIGINT or the end
//	    of stdin. With store.backend redis in the fleet file, replicas share
//	    offloaded results and conversations (docs/replicas.md).
//	help [command]
//	    Lists the commands, or one command's flags.
//
// # Environment
//
//	MCPFLEET_CONFIG          the fleet file when --config is not given
//	MCPFLEET_*               overrides of fleet-file keys (see package config)
//	MCPFLEET_EMBED_MODEL     an embedding model: search, eval-search and
//	                         serve fuse its ranking with BM25 (reciprocal
//	                         rank fusion); unset means BM25 alone
//	MCPFLEET_EMBED_BASE_URL  its own OpenAI-compatible endpoint, with
//	MCPFLEET_EMBED_API_KEY   its key (the chat key is never sent there);
//	OPENAI_BASE_URL          else the endpoint and key shared with the
//	OPENAI_API_KEY           example's chat model. A key may be empty
//	                         for a localhost endpoint.
//	MCPFLEET_MODEL           the chat model lock --judge asks, at
//	                         OPENAI_BASE_URL with OPENAI_API_KEY
//	MCPFLEET_EMBED_QUERY_PREFIX  prefixes the model expects on queries and
//	MCPFLEET_EMBED_DOC_PREFIX    on tools, as written ("query: " and
//	                             "passage: " for e5)
//
// An unreachable embedding endpoint costs one warning on stderr; search
// goes on with BM25. serve waits at most 5 s for embeddings per search and,
// after a failure, leaves the endpoint alone for 30 s; a cancelled search
// is not a failure.
//
// # Exit codes
//
//	0  success
//	1  failure: a call rejected by a gate (the model-readable rejection text
//	   is on stderr), a tool that answered with isError (its result is on
//	   stdout), a config or connection failure, or with --strict a down
//	   server or a catalog lint finding
//	2  usage: unknown command (the nearest valid name is suggested), bad
//	   flags or arguments
//
// # Down servers
//
// A server that fails to connect is named in a warning on stderr and the
// command runs on the servers that are up. --strict makes that fatal.
package main
