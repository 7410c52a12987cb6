// Package cli implements the mcpfleet subcommands behind one entry point,
// [Run], with its I/O passed in so that tests run the CLI in-process.
//
// # Shape
//
// Each subcommand is a function run(ctx, env, stdin, stdout, stderr, args)
// with its own flag.FlagSet (ContinueOnError, so there is no global flag
// state) and one row in the dispatch table: adding a subcommand is one
// line. Flags may come before or after positional arguments. Each
// subcommand builds one report value and renders it either as JSON
// (--json) or as text, so the two never disagree.
//
// # Output and exit codes
//
// Model-facing and human output goes to stdout; diagnostics, warnings
// about down servers and rejection texts go to stderr. Run prints every
// diagnostic itself and returns an error only to carry the exit code
// through [ExitError]: 0 success, 1 failure (a rejected call, a tool that
// answered with isError, a connection or config failure), 2 usage.
//
// # Fleets with down servers
//
// A server that fails to connect is named on stderr and the command runs
// on the servers that are up. --strict makes any down server fatal, and
// makes catalog --lint findings fail the command.
//
// # Hybrid search
//
// search, eval-search and serve fuse embeddings into search when the
// command's environment (Run's env, never the process's) sets
// MCPFLEET_EMBED_MODEL; see adapters/eino/openai EmbedderConfigFromEnv for the
// other variables. A set model without an endpoint fails the command. A
// failing endpoint is a warning and search goes on with BM25: the one-shot
// commands stop asking after the first failure, so a dead endpoint costs
// eval-search one timeout rather than one per query, and serve bounds each
// search's wait (5 s) and asks again after a 30 s cool-down. A search
// cancelled by its caller is neither warned about nor counted as a failure.
// MCPFLEET_EMBED_QUERY_PREFIX and MCPFLEET_EMBED_DOC_PREFIX become the
// catalog's instruction prefixes.
//
// fit-search stays lexical whatever the environment sets: the reranker
// reorders BM25's candidates, and its before/after figures should show
// what the weights change, not what embeddings add.
package cli
