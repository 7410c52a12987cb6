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
// One BM25F index per catalog (k1 1.2, b 0.75) weighs fields: tool name
// words (split on '_', '-' and camelCase) and aliases 3, title 1.5,
// catalog line and kind 1, description 0.5, parameter names 0.6 and
// parameter descriptions 0.3 (walked out of the schema). Words are lower-cased, a
// small stopword list dropped, and plurals, -ing, -ed and a final 'e'
// folded, so "traces", "tracing" and "trace" meet; a dozen ops shorthands
// fold into the words descriptions use ("ticket" = "issue", "MR" = "merge
// request", "find" = "search"), and "approval", "deployment" and
// "dependency" meet "approve", "deploy" and "depends".
//
// Requests rarely say the API's words, so an ops lexicon bridges them:
// about 110 entries of generic incident-ops vocabulary ("pager" may
// match "oncall", "bump … instances" "scale replicas", "request rate" and
// "p99" "promql metrics", "who approved" "approval"; an issue key such as
// OPS-88 "issue key"; a "#channel" "conversations channel"). A trigger is
// a word or a phrase matched as written after stemming. Its expansion
// words are weaker alternatives of the word that triggered them (0.7 of
// a request's own word, 0.9 for a phrase trigger): a tool earns the best
// alternative per query word, and coordination counts query words, so an
// expansion widens what matches without costing a tool that matches the
// request's own words. Config.Synonyms adds entries; Config.NoLexicon
// drops the built-in ones. Phrasings specific to one fleet belong in
// KindConfig.Aliases.
//
// A document's score is scaled by the square root of the share of query
// words it matches (chatty requests carry many words no tool says),
// and an alias found as written in the query (stemmed, articles skipped:
// "kill pod" matches "kill the pod", not "the pod keeps getting OOM
// killed") adds a bonus: an operator wrote that phrase down for that tool.
// So does a tool name whose words all occur, in any order (a leading read
// verb such as "get" or "list" optional; name words count once, so
// merge_merge_request is no more about merging than list_merge_requests).
//
// Near twins of one kind share their object words, so two more factors
// scale the word score (alias bonuses stay whole). The verb: a request
// that says no change verb in its base form ("what's in the sprint", "who
// changed…") multiplies tools whose name's first verb is a change
// (jira_update_sprint) by 0.55 ("open a ticket" and "file a bug" say
// create, "open the page" does not); one that does ("start a sprint") gives
// the tools whose name says the same class of change (create, update,
// delete) 1.4 and other changes 0.8. And name coverage: 1 + the
// idf-weighted share of the tool name's distinguishing words (no kind
// prefix, no leading read verb) the query contains.
//
// Many queries could go to several kinds ("search loki for timeouts" hits
// the search tools of slack, jira and wiki), so a kind signal scales each
// score. A second BM25 runs over one document per kind, holding its tools'
// weighted words, its name and its servers' names, and a tool's score is
// multiplied by 1 + 0.5 × its kind's share of that signal (the strongest
// kind has 1). A kind the query names outright doubles its tools' scores:
// the words of its name, the tool-name words most of its tools share
// ("confluence_…", "jira_…") and the words most of its servers' names share
// ("prom" of prom-eu and prom-us), unless two kinds share the word or a
// third of the kinds use it.
//
// Structural cues expand like lexicon entries: an issue key (OPS-88), a
// merge request reference (!1234), a mention, a #channel, a metric name
// (container_memory_working_set_bytes), a file name (values-prod.yaml),
// "log 2h", a generated pod name (checkout-api-7d9f8c-x2kqp). In a long
// request of several sentences, the words found only outside the
// sentences that ask ("can you…", "show me…", a question) weigh half:
// the story around an ask names services and times, the ask names the
// tool.
//
// A reranker then reorders BM25's best 30 with a linear model over
// lexical features: the idf-weighted share of the request's words each
// field matches (name, catalog line, description, parameters), how much
// of the tool's name the request says and how many of its name words it
// does not, whether request and tool verbs agree (and the tool's with the
// request's first change verb: "open a ticket and assign it to me"
// creates), the kind signal, and whether a get_ tool meets a request
// carrying an identifier (INC-2291, !1842, a pod name). The weights were fitted by pairwise logistic
// regression to the labelled queries, with and without aliases
// (rerank_train_test.go; TRAIN=1 refits them and prints leave-one-split-out
// figures). [FitRerank] fits them to another fleet's labelled queries,
// and Config.RerankWeights puts a fit to use ([RerankWeights] is keyed by
// feature name, so it makes a readable JSON file; `mcpfleet fit-search`
// writes one). A Hit's Score is exp of the linear score: comparable within
// one search, not across searches. Nothing but arithmetic runs at search
// time.
//
// A tool named verbatim in the query ("pods_log", "kubernetes.pods_log",
// "k8s-2.pods_log") ranks first; a bare name of one word ("search",
// "click") is a word of the request and left to BM25. Run-together names
// meet the request through the index's own vocabulary: adjacent request
// words joined into a term some tool has count as the request's own
// ("who am i" meets whoami), and a name word no text uses on its own
// also says the words it splits into ("keyvault": key vault). The
// description's first sentence weighs again as a field of its own, and
// parameters' enum values weigh as parameter names. With an [Embedder], the top 100 of BM25
// and of cosine similarity are fused by reciprocal rank fusion (k = 60).
// Queries and tool texts can carry the instruction prefixes some models
// expect (Config.EmbedQueryPrefix, EmbedDocPrefix). The endpoint never
// stalls a search: a search waits at most Config.EmbedTimeout (5 s) for
// vectors, then answers with BM25, and after a failure the catalog uses
// BM25 alone for Config.EmbedCooldown (30 s), or as long as the error's
// [RetryDelayer] asks (a 429's Retry-After, at most 10 min), before one
// search tries again. A search its caller cancelled is not an endpoint
// failure.
// Sessions filter the shared index by scope; nothing is re-indexed per
// session. [Eval] scores the search on labelled queries
// (testdata/queries.jsonl).
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
// [NewJSONLRecorder] writes JSON Lines; [ReadLog] and [AnalyzeLog] turn a
// log into a [SearchReport] (likely false negatives, empty queries, tools
// no search found), which `mcpfleet search-report` prints.
package catalog
