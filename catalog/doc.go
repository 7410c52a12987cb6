// Package catalog decides which tools an agent sees, lists the rest in a
// budgeted catalog, and finds and loads them on request.
//
// [Build] folds a fleet's servers into kinds (see kindgroups) and makes one
// [Entry] per (kind, tool): five Kubernetes clusters give one pods_log,
// callable on five servers. A [Session] is one agent run's view of the
// catalog: its slice of servers, its scopes and its active set. The
// agent sees active tools in full; every other tool it may use appears in
// [Session.CatalogBlock] as one line without a schema; it brings tools in
// with the loadTools meta-tool ([Session.Load]) or finds them with
// searchTools ([Session.Search]). [Session.Allow] is the execution gate.
//
// # Tiers
//
// A tool is active, deferred or invisible. In mode "on" the active set
// starts as the core tools of the slice: a kind's CoreTools, a server's
// ServerCoreTools, and tools whose _meta says "always_load": true (or
// "anthropic/alwaysLoad"). Every other permitted tool, on a slice server
// or not, is deferred: listed in the catalog and loadable. In mode "off"
// every permitted tool of the slice is active and there is no catalog and
// no meta-tool. Mode "auto" (the default) counts the o200k tokens of the
// full definitions of the slice's permitted tools and picks "off" when
// they fit in 10% of the context window ("auto:N%" with 0 < N <= 100, or
// "auto:N" tokens with N > 0, to change that, exactly as the fleet file's
// deferred_tools), else "on". Deferral is per server: a tool active on k8s-1
// stays deferred on k8s-2 until loaded there or for its whole kind.
//
// # Loading
//
// loadTools takes three forms of name. A bare "tool" loads the tool on
// every server of the one kind that has it (a name several kinds share is
// refused with the qualified options). "server.tool" loads it on that
// server only. "kind.tool" loads it on every server of the kind. Where a
// server and a kind share a name ("jira" of kind "jira", or server
// "gitlab" among gitlab-a and gitlab-b), the server wins whenever it has
// the tool: "name.tool" never loads more than the server asked for. Such a
// shadowed kind is loaded whole by the bare tool name, or, when another
// kind has the tool too, by one "server.tool" per server; the ambiguity
// error and the gate's refusal name exactly those forms.
//
// # Permissions
//
// Scopes travel in the context ([WithScopes]) or in [SessionConfig]. A
// context without scopes is read-only: forgetting to pass scopes must
// never widen access. "*" grants all; "write" implies "read". A tool needs
// "read" if it declares readOnlyHint: true and "write" otherwise, unless
// KindConfig.ToolScopes or the Enrich hook says otherwise: the MCP spec
// makes unannotated tools destructive, and a create is a write even when
// it destroys nothing. Filtering happens before search, rendering, loading
// and the gate, and an unpermitted tool is indistinguishable from one that
// does not exist: loadTools answers "no such tool", the gate "unknown".
//
// # Search
//
// [Session.Search] and [Catalog.Search] rank with the engine in
// catalog/search: BM25F over each tool's name, aliases, catalog line,
// title, kind, description and parameters, with a built-in lexicon, a
// fitted reranker and, with an [Embedder], embeddings fused by reciprocal
// rank. A tool named verbatim in the query ("pods_log",
// "kubernetes.pods_log", "k8s-2.pods_log") ranks first. Config.Synonyms,
// NoLexicon, NoRerank, RerankWeights and the Embed fields tune it.
// Sessions filter the shared index by scope; nothing is re-indexed per
// session. How the ranking works, its constants and how they were fitted
// are in docs/search.md; fitting, evaluation and alias mining are
// catalog/tuning's.
//
// # Budget
//
// The catalog block has a budget in o200k tokens (Config.Budget, default
// 1500). Within it every deferred tool gets "- tool: line", where line is
// hand-written (KindConfig.CatalogLines) or generated from the first
// clause of the description ([GenerateLine]). Past it, kinds turn into
// name lists, the largest kind first; past that, the longest lists are cut
// with "… and N more; use searchTools". The block always names its
// kinds, so the model knows where to search; if even the kinds with
// counts do not fit, the block goes over budget rather than hide one.
// Token costs of lines and names are counted once at Build, and a session
// re-renders only after a load.
//
// # Conversations
//
// Loads live for one session. With SessionConfig.ConversationID they live
// for the conversation: each load is saved to an [ActivationStore] (the
// catalog's in-memory [MemoryStore] unless SessionConfig.Store is set),
// and the next session of the conversation starts with those tools
// active, in mode on. A store failure costs persistence, never the run.
//
// # Negative guidance
//
// KindConfig.AvoidWhen ("the resource is a pod: use pods_get") tells near
// twins apart. Search hits carry it ([Hit].AvoidWhen), and adapters append
// it to a loaded tool's description with [ToolDescription].
//
// # Telemetry
//
// A [Recorder] (SessionConfig.Recorder) sees every searchTools query and
// its results, every loadTools name and what it resolved to, and every
// gate decision, so a log shows which loaded tools were then called.
// [NewJSONLRecorder] writes JSON Lines; catalog/tuning reads such a log
// into a report (likely false negatives, empty queries, tools no search
// found), which `mcpfleet search-report` prints.
package catalog
