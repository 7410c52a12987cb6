// Package mcpfleet multiplexes a fleet of MCP servers for LLM agents.
//
// A fleet is many MCP servers, often the same server software deployed many
// times: five Kubernetes clusters, four GitLab instances. [New] connects them
// all at once and keeps their tool lists current; [Mux.KindGroups] folds
// identical servers into kinds, so that an agent sees "kubernetes: k8s-1, …"
// instead of five copies of twenty schemas; and [Mux.CallTool] runs every call
// through the same deterministic gates.
//
// # The call pipeline
//
// Every call passes these steps, in this order:
//
//  1. Resolve the server and the tool. An unknown name is rejected with the
//     closest valid one; a down server gives server_down, not "unknown tool".
//  2. Check that the arguments are a JSON object.
//  3. Normalize: the kind's transformers, then the server's (lists
//     concatenate, kind first, duplicates dropped), then the merged field map.
//  4. Reject placeholders ("", whitespace, undefined, null, none, <none>,
//     <unknown>, nil, n/a; case-insensitive) at any depth. JSON null on an
//     optional field is dropped as absent; on a required field it is rejected.
//     allow_placeholders opts a tool out where "none" is a real value.
//  5. Validate against the tool's input schema, compiled once. Remote and
//     file $refs are never fetched.
//  6. Run the [BeforeFunc] hooks: abort, short-circuit, or replace ctx.
//  7. Call the server with the per-call timeout. tools/call is never retried:
//     it is not idempotent.
//  8. Run the [ResultFunc] hooks.
//  9. Run the [AfterFunc] hooks, on every path, with the duration and the
//     reject reason.
//
// Steps 1–5 never reach the server. Their failures are [*RejectError], whose
// text is written for a model: what was wrong, at which JSON path, and what to
// send instead.
//
// # Why the multiplexer is the root package
//
// It is what every user constructs first, and everything else (catalog,
// agents, the MCP gateway) is built on it, so it gets the shortest import
// path. Its dependencies are kept to the leaves: config, kindgroups,
// normalizers and internal/upstream.
package mcpfleet
