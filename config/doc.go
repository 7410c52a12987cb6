// Package config loads and validates the fleet file into plain data,
// listing every problem at once.
//
// A fleet file names the MCP servers mcpfleet multiplexes and the settings
// shared by servers of one kind. [Load] reads it (YAML for .yaml/.yml, JSON
// for .json), applies MCPFLEET_* environment overrides, expands ${VAR},
// resolves relative paths against the file's folder, fills defaults and
// calls [Fleet.Validate]. A bad file yields one *[ValidationError] whose
// [Problem] list names every mistake with its location, the bad value, the
// valid choices and, when one is close, the nearest by edit distance:
//
//	config: 2 problems:
//	  - servers[2] (k8s-1): transport: got "htp", want one of stdio, http, sse (did you mean "http"?)
//	  - kind_settings.kubernets: kind: got "kubernets", want a kind some server has: gitlab, kubernetes (did you mean "kubernetes"?)
//
// Env and header values are secrets: no error text ever contains one, and
// [Fleet.Redacted] gives a copy that is safe to print.
//
// # Example
//
//	deferred_tools: auto
//	servers:
//	  - name: k8s-1
//	    kind: kubernetes
//	    transport: stdio
//	    command: kubernetes-mcp-server
//	    args: ["--read-only"]
//	    env: {KUBECONFIG: "${HOME}/.kube/c1"}
//	  - name: gitlab-a
//	    kind: gitlab
//	    transport: http
//	    url: https://gitlab-a.example/mcp
//	    headers: {Authorization: "Bearer ${GITLAB_A_TOKEN}"}
//	    call_timeout: 30s
//	kind_settings:
//	  kubernetes:
//	    args_transformer: [camelCase, singularResourceType]
//	    field_map: {podName: name, pod: name}
//	reliability:
//	  queue_timeout: 5s
//	  breaker: {failures: 3, cooldown: 1m}
//
// The same document in JSON loads to the same [Fleet].
//
// # Top-level keys
//
//   - deferred_tools (string, default "auto"): whether tool definitions are
//     withheld from the model until it asks for them. "on" always defers,
//     "off" never does, "auto" lets mcpfleet decide, "auto:N%" defers when
//     all definitions exceed N percent (0 < N <= 100) of the context window,
//     "auto:N" when they exceed N tokens. [ParseDeferred] parses it.
//   - servers (list, required, at least one): the upstream servers, below.
//   - kind_settings (map of kind to settings): settings shared by every
//     server of a kind, below. Each key must be the kind of some server.
//   - reliability (map): how long calls wait and when a failing server is
//     cut off; see Reliability keys below.
//   - result_store (map): bounds of the store that keeps offloaded
//     results; see Result store keys below.
//   - store (map): where a gateway keeps state between requests, in the
//     process or in Redis shared by replicas; see Store keys below.
//   - cache (map): which kinds' tool results the response cache keeps;
//     see Cache keys below.
//   - rate_limits (map): calls per minute each caller of mcpfleet serve
//     may make to a kind; see Rate limit keys below.
//   - request_limits (map): what one request to mcpfleet serve may send;
//     see Request limit keys below.
//   - neutralize (boolean, default true): false returns tool output as the
//     server sent it, without the envelope that marks it as data and
//     defuses text imitating instructions. Only for a fleet whose consumer
//     neutralizes output itself: with it off, a server's text reaches the
//     model as if trusted. It is fleet-wide rather than per kind because
//     offloaded previews and ReadResult/GrepResult pages are enveloped by
//     the same switch, and one setting keeps all three consistent.
//   - presets (boolean, default true): false turns off the built-in
//     per-server presets (package presets), which mcpfleet.New merges
//     under kind_settings for the kinds it recognises by serverInfo name
//     or tool names; a kind's own keys win key by key.
//   - pinning (string: off, warn or enforce; default warn when a lock file
//     was loaded, else off): what happens to a tool whose definition
//     differs from the lock, is absent from it, or reads as poisoned.
//     warn logs and reports it; enforce quarantines it. See
//     docs/pinning.md and [Fleet.PinningMode].
//   - lock_file (string, default fleet.lock beside the file): the lock
//     written by `mcpfleet lock`, read into [Fleet.Lock] by [ParseLock].
//     The default may be absent; a lock_file set explicitly must exist.
//     A lock that names a kind no server has is a problem. A tool's
//     optional judged entry ([Judgement], written by `mcpfleet lock
//     --judge`) is a model's verdict on that definition; a poisoned one
//     reads as poisoned.
//   - telemetry (map): traces (otlp, none), metrics (prometheus, none),
//     service_name, semconv (only "1.41.0", the version emitted) and
//     capture_bytes (> 0 records arguments and results on spans); unset
//     keys leave the choice to the OTEL_* variables. See [Telemetry] and
//     docs/observability.md.
//   - audit (map): path (the folder must exist; relative to the file's
//     folder), max_bytes, max_files and sync (always, interval or never;
//     default interval): one JSON line per call. See [Audit].
//   - start (string: eager, lazy or background; default eager): how
//     servers start. lazy and background serve each server's last tool
//     list from the tool cache beside the file, so New returns at once;
//     lazy starts a server on its first call, background right away. See
//     docs/lazy-start.md and [Fleet.StartMode].
//
// Any other key is reported as a problem, with the nearest valid key, so a
// typo such as "comand" cannot silently drop configuration.
//
// # Server keys
//
//   - name (string, required): unique; must match [a-z0-9][a-z0-9_-]*.
//   - kind (string, default: the name): servers of one kind run the same
//     software and are shown to the model as one tool set.
//   - transport (string): stdio, http (streamable HTTP) or sse. Default:
//     stdio when command is set, else http when url is set.
//   - command (string, required for stdio): the program to start. ${VAR}
//     expands. A command with a "/" that is not absolute resolves against
//     the config file's folder; a bare name such as "npx" is looked up in
//     PATH when started.
//   - args (list of strings): command arguments. ${VAR} expands; an
//     argument starting with "./" or "../" resolves against the file's
//     folder.
//   - env (map of strings): extra environment for the command. Values
//     expand ${VAR} and resolve "./" and "../" like args. Values are
//     secret: never printed in errors, "[redacted]" in [Fleet.Redacted].
//   - url (string, required for http and sse): an http:// or https:// URL.
//     ${VAR} expands.
//   - headers (map of strings): HTTP headers sent with every request.
//     Values expand ${VAR} and are secret like env values.
//   - call_timeout (duration such as "30s", default 60s): limit per tool
//     call.
//   - connect_timeout (duration, default 20s): limit to connect and
//     initialize.
//   - max_in_flight (integer, default reliability.max_in_flight, else 16):
//     concurrent calls to this server.
//   - max_result_bytes (integer, default reliability.max_result_bytes,
//     else 64 MiB): the largest message taken from this server. A larger
//     result is cut as it is read, before it is decoded, and ends with a
//     note saying it was cut and at what size, instead of exhausting
//     memory. Not applied to in-process servers.
//   - args_transformer (list of names): argument transformers to apply
//     after the kind's list; see Transformers below.
//   - field_map (map of strings): argument renames, merged over the kind's.
//   - join_separator (string): separator used by joinArrays; overrides the
//     kind's.
//   - core_tools (list of tool names): tools always shown to the model even
//     when tools are deferred.
//   - allow_placeholders (list of tool names, or "*"): tools where values
//     such as "none" or "null" are real arguments, not placeholders to
//     reject.
//   - tool_scopes (map of tool to list of scopes): required scopes,
//     overriding the kind's tool_scopes for this server.
//   - start (string: eager, lazy or background): overrides the top-level
//     start for this server.
//
// A duration is a Go duration string ("30s", "1m30s"). A bare integer is
// read as nanoseconds, which is what encoding/json writes for a Go
// time.Duration; a bare integer under one millisecond is refused, because
// "call_timeout: 30" almost surely lacks its unit. Negative durations and
// counts are problems. A zero value means the default.
//
// # Kind settings keys
//
//   - args_transformer (list of names): transformers for every server of
//     the kind, applied before the server's own.
//   - field_map (map of strings): argument renames, e.g. {podName: name}.
//   - join_separator (string, default " "): separator used by joinArrays.
//   - core_tools (list of tool names): tools always shown to the model.
//   - catalog_lines (map of tool to string): the one-line catalog entry for
//     a tool, at most 120 characters, no line breaks.
//   - aliases (map of tool to list of strings): phrasings users use for the
//     tool, to help search find it.
//   - avoid_when (map of tool to string): a "don't use when..." hint.
//   - tool_scopes (map of tool to list of scopes): scopes a tool requires.
//   - offload_tokens (integer, default 8000): tool results above this many
//     tokens are kept out of the model's context.
//   - allow_placeholders (list of tool names, or "*"): as for servers.
//   - id_patterns (list of RE2 expressions): how the kind's identifiers are
//     written, e.g. `\b(OPS|PLAT)-[0-9]+\b`; a search request that carries
//     a match counts as naming the kind. Each must compile and need at
//     least one character to match ([CompileIDPattern]).
//   - allow_flagged (map of tool to sha256): a poisoned-description
//     finding that is a false positive, allowed for the one definition
//     whose hash is given (as `mcpfleet status` and `mcpfleet lock --diff`
//     print it); a changed definition is scanned again.
//
// # Search keys
//
// Top-level "search" tunes tool search (searchTools, `mcpfleet search`).
//
//   - synonyms (map of phrase to words): extends the built-in ops lexicon.
//     When a request says the phrase (one or more words, matched in order
//     after stemming), tools may match the words, weighed below the
//     request's own: {"blast radius": "dependencies"}. For the vocabulary
//     of a fleet's users that no tool uses; a phrasing of one tool belongs
//     in that kind's aliases. An empty phrase or expansion is a problem;
//     one of stopwords or punctuation only ("the", "?!") matches nothing
//     and is ignored. MCPFLEET_SEARCH__SYNONYMS__<phrase>=<words> sets one
//     entry from the environment.
//   - lexicon (bool, default true): false turns the built-in lexicon off
//     (synonyms still apply), for fleets whose words it would mislead;
//     MCPFLEET_SEARCH__LEXICON=false from the environment.
//   - rerank (bool, default true): false ranks by BM25 alone, without
//     the reranker whose built-in weights were fitted to incident-ops
//     requests; MCPFLEET_SEARCH__RERANK=false from the environment.
//   - rerank_weights (path): a JSON file of reranker weights, feature
//     name to number, as `mcpfleet fit-search` writes from a fleet's own
//     labelled queries; absent means the built-in weights. ${VAR}
//     expands, and a relative path is the fleet file's folder's (from
//     MCPFLEET_SEARCH__RERANK_WEIGHTS too). Load reads the file into
//     [Search.RerankWeightValues]: a file that cannot be read, is not
//     one JSON object of numbers, repeats a key or has a null weight is a
//     problem at search.rerank_weights.
//     The feature names are checked when the catalog is built, which
//     knows them. rerank: false wins.
//
// # Reliability keys
//
// Each maps to the multiplexer Option of the same meaning. An Option
// passed to mcpfleet.New wins over the file; an Option's zero value
// (WithQueueTimeout(0), a zero argument of WithCircuitBreaker) leaves the
// file's value in charge. A zero or absent key means the default.
//
//   - queue_timeout (duration, default 10s): how long a call waits for one
//     of its server's max_in_flight slots before it is rejected as
//     overloaded. Waiting longer only hides an overloaded server from the
//     model; the wait does not count against call_timeout.
//   - max_in_flight (integer, default 16): the max_in_flight of every
//     server that sets none, so one line bounds a large fleet.
//   - max_result_bytes (integer, default 64 MiB): the max_result_bytes
//     of every server that sets none.
//   - health_interval (duration, default 30s): how often idle servers are
//     probed with tools/list. Shorter finds a silently dead server sooner,
//     at one request per server per interval.
//   - health_probes (boolean, default true): false turns probing off, for
//     one-shot runs; a dead server is then found by the next call.
//   - breaker (map): the per-server circuit breaker. Only timeouts and
//     transport errors count; a tool result with isError does not.
//   - breaker.enabled (boolean, default true): false lets every call
//     through to a failing server.
//   - breaker.failures (integer, default 5): consecutive failures that open
//     the circuit. While open, calls are rejected at once with the time
//     they resume, instead of each waiting out its call_timeout.
//   - breaker.cooldown (duration, default 30s): how long the circuit stays
//     open before one trial call; its success closes the circuit.
//
// # Result store keys
//
// Results over a kind's offload_tokens are kept out of the model's context
// in an in-memory store and read back by handle. These keys bound that
// store; they do not apply when mcpfleet.WithResultStore supplies another.
//
//   - max_bytes (integer, default 268435456, i.e. 256 MiB): budget for all
//     stored result texts; the least recently used are evicted to stay
//     under it. A result larger than the whole budget is not stored: the
//     model gets its preview, which says the full result could not be kept.
//   - ttl (duration, default 1h): how long a stored result stays readable.
//     Long enough for an agent to page through it, short enough that
//     memory is not held for a finished task. Written as 0 it is a
//     problem: leave it out for the default.
//   - spill (map): moves big results out of the process's memory into
//     temporary files, so that memory stays flat however many are kept.
//     Each file's name is removed as soon as it is made: nothing is left
//     behind, even by a crash. A folder where no file can be made keeps
//     results in memory, with one warning. Spilled results count against
//     spill.max_bytes, not max_bytes.
//   - spill.enabled (boolean, default true): false keeps every result in
//     memory.
//   - spill.min_bytes (integer, default 1048576, i.e. 1 MiB; at least
//     65536): a result this big or bigger spills.
//   - spill.dir (string, default the system's temporary folder): where
//     the files are made; relative to the fleet file's folder, ${VAR}
//     expands.
//   - spill.max_bytes (integer, default 1073741824, i.e. 1 GiB): budget
//     for all spilled results, so a runaway server cannot fill the disk;
//     the least recently used are evicted to stay under it. At most 1024
//     results are spilled at once (each holds a file descriptor).
//
// Both bound the Redis store too (store.backend: redis): max_bytes is then
// the budget of all replicas together.
//
// # Store keys
//
// For example:
//
//	store:
//	  backend: redis
//	  redis: {url: "redis://:${REDIS_PASSWORD}@redis:6379/0", key_prefix: "mcpfleet:"}
//
// The keys:
//
//   - backend (string, default memory): memory keeps offloaded results and
//     conversations' loaded tools in the process; redis keeps them in Redis,
//     so that any replica of `mcpfleet serve` behind a load balancer reads a
//     handle another replica made. The Redis code lives in package
//     stores/redisstore, which a program that does not use it never links.
//   - redis.url (string, required for redis): redis://[user:password@]host:port[/db],
//     or rediss:// for TLS. ${VAR} expands; the password is never shown in
//     a problem, a log line or [Fleet.Redacted].
//   - redis.key_prefix (string, default "mcpfleet:"): starts every key, so
//     that fleets can share one Redis; no spaces.
//   - redis.timeout (duration, default 2s): bound of each Redis operation,
//     and of the connection check at start. When Redis is down, calls go
//     on without it after at most this long.
//
// # Cache keys
//
// The response cache answers a repeated call from a kept result instead of
// the server. Only a tool that declares both readOnlyHint and
// idempotentHint is ever cached, whatever the file says; the multiplexer
// warns at start, naming each configured tool it will not cache.
//
//	cache:
//	  kinds:
//	    kubernetes: {ttl: 30s, tools: [pods_list, pods_log]}
//	    gitlab: {ttl: 2m}   # every tool of the kind that has both hints
//
// Its keys:
//
//   - kinds (map of kind to settings): the kinds cached; each key must be
//     the kind of some server.
//   - kinds.<kind>.ttl (duration, required, > 0): how long a result stays
//     cached. A stale answer is the price; pick it per kind from how fast
//     its data changes.
//   - kinds.<kind>.tools (list of tool names): only these tools; absent
//     means every tool of the kind that has both hints.
//
// # Rate limit keys
//
// mcpfleet serve counts each bearer token's calls (without tokens, all
// callers share one count) and refuses those over the limit with a tool
// result that says when to retry.
//
//	rate_limits:
//	  on_store_error: open
//	  kinds:
//	    kubernetes: {calls_per_minute: 60, per: server}
//
// Its keys:
//
//   - on_store_error (string, default "open"): what a limit does when its
//     shared store (Redis) cannot be reached: "open" lets calls through,
//     "closed" refuses them.
//   - kinds.<kind>.calls_per_minute (integer, required, > 0): calls one
//     caller may make per minute; a whole minute's calls may be spent at
//     once.
//   - kinds.<kind>.per (string, default "server"): "server" counts each
//     server of the kind apart, "kind" counts them together.
//
// # Request limit keys
//
// A shared gateway serves many callers, so mcpfleet serve bounds what one
// request may send; each refusal says the limit and the size sent. serve's
// flags (--max-request-bytes, --max-query-bytes, --max-describe-names,
// --max-pattern-bytes) override these keys. 0 or an absent key means the
// default.
//
//	request_limits: {body_bytes: 4194304, query_bytes: 8192, describe_names: 50, grep_pattern_bytes: 512}
//
// Its keys:
//
//   - body_bytes (1 to 1 GiB, default 4 MiB): a /mcp request body; over it,
//     HTTP 413 before the body is read whole.
//   - query_bytes (1 to 1 MiB, default 8192): a searchTools query.
//   - describe_names (1 to 10000, default 50): names in one describeTools
//     call.
//   - grep_pattern_bytes (1 to 512, default 512): a grepResult pattern;
//     512 is also the Mux's own bound.
//
// A value out of bounds is a problem that names the nearest valid value.
//
// # Merging kind and server settings
//
// [Fleet.Transformers] is the kind's list then the server's, duplicates
// dropped (first wins). [Fleet.FieldMap] is the kind's map with the
// server's entries laid over it. [Fleet.Separator] is the server's
// join_separator, else the kind's, else " ".
//
// # Transformers
//
// Transformer names are checked against [BuiltinTransformers] (camelCase,
// snakeCase, joinArrays, splitStrings, singularResourceType, coerceTypes,
// dropUnknown) plus the extra names passed to [Load], which is how custom
// transformers registered with the multiplexer are accepted.
//
// # Variables
//
// In command, args, env values, url and header values, ${VAR} is replaced
// by the environment variable VAR and ${VAR:-default} by VAR, or by default
// when VAR is unset or empty. An unset variable without a default becomes
// the empty string; this is not an error. Only the braced form expands, so
// "$1" or "$HOME" in an argument stays as written; "$${" is a literal "${".
// Expansion happens before paths are resolved, so "${ROOT:-.}/bin/tool"
// works.
//
// # Environment overrides
//
// Variables starting with MCPFLEET_ override the file (they are read with
// koanf's env provider). After the prefix, "__" separates levels and each
// level is lowercased:
//
//	MCPFLEET_DEFERRED_TOOLS=off                            deferred_tools
//	MCPFLEET_KIND_SETTINGS__KUBERNETES__JOIN_SEPARATOR=,   kind_settings.kubernetes.join_separator
//	MCPFLEET_SERVERS__K8S_1__URL=https://k8s-1/mcp         url of the server named k8s-1
//	MCPFLEET_SERVERS__GITLAB_A__HEADERS__Authorization=... one header of gitlab-a
//	MCPFLEET_KIND_SETTINGS__KUBERNETES__FIELD_MAP__podName=name
//	MCPFLEET_RELIABILITY__QUEUE_TIMEOUT=5s                 reliability.queue_timeout
//	MCPFLEET_RELIABILITY__BREAKER__FAILURES=3              reliability.breaker.failures
//	MCPFLEET_RESULT_STORE__TTL=10m                         result_store.ttl
//	MCPFLEET_STORE__REDIS__URL=redis://redis:6379          store.redis.url
//	MCPFLEET_CACHE__KINDS__KUBERNETES__TTL=30s             cache.kinds.kubernetes.ttl
//	MCPFLEET_RATE_LIMITS__KINDS__KUBERNETES__CALLS_PER_MINUTE=60
//	MCPFLEET_RATE_LIMITS__ON_STORE_ERROR=closed            rate_limits.on_store_error
//	MCPFLEET_REQUEST_LIMITS__BODY_BYTES=1048576            request_limits.body_bytes
//	MCPFLEET_NEUTRALIZE=false                              neutralize
//
// The rules:
//
//   - A server is addressed by name, matched case-insensitively with "_"
//     standing for "-" (K8S_1 is k8s-1). It must already be in the file:
//     overrides change servers, they do not add them. A name that matches
//     no server is a problem.
//   - A kind is matched the same way against the kinds in the file; an
//     unmatched kind is lowercased and creates that kind's settings (which
//     Validate then requires some server to have). The same holds for the
//     kind under CACHE__KINDS__ and RATE_LIMITS__KINDS__.
//   - Any server or kind settings key can be set. For a map key (env,
//     headers, field_map, catalog_lines, aliases, avoid_when, tool_scopes)
//     one more level names the entry, and that entry name keeps its case.
//   - List values (args, args_transformer, core_tools, allow_placeholders,
//     id_patterns, and the lists in aliases and tool_scopes) are
//     comma-separated; spaces around items are trimmed. An id_patterns
//     expression with a comma (`[0-9]{3,5}`) cannot be set this way.
//   - Numbers and durations are written as in the file ("30s", "8");
//     booleans as true or false (1 and 0 also work).
//   - Other MCPFLEET_ variables (for example ones the CLI reads) are
//     ignored. An unknown key under SERVERS__, KIND_SETTINGS__ or a
//     section (RELIABILITY__, RESULT_STORE__, SEARCH__, STORE__,
//     TELEMETRY__, AUDIT__, CACHE__, RATE_LIMITS__, REQUEST_LIMITS__) is a
//     problem, with the nearest valid key.
//
// Overrides apply before ${VAR} expansion, so an override may use ${VAR}.
//
// # Choosing the environment
//
// [Load] and [LoadBytes] read the process environment. [LoadWith] and
// [LoadBytesWith] take a [LoadOptions] whose Environ is the only source of
// overrides and ${VAR} values (nil means the process environment, as in
// os/exec), and whose LookupEnv may resolve ${VAR} elsewhere, such as a
// secret store. A CLI passes the environment it was given, a test passes
// exactly the variables it means, and neither reads the process's.
//
// # Errors
//
// [Load] returns a *[ParseError] when the bytes are not YAML or JSON (its
// text says which), an error wrapping the I/O error when the file cannot be
// read, and otherwise one *[ValidationError] with every [Problem]. A
// Problem's Server is "servers[i] (name)", "kind_settings.<kind>",
// "reliability", "reliability.breaker", "result_store", "store",
// "store.redis", "cache.kinds.<kind>", "rate_limits",
// "rate_limits.kinds.<kind>", "request_limits", or "" for the top
// level and for MCPFLEET_ variables (then Field is the variable's name). An unknown key is reported with Field "key" and the key
// as Value. A wrong type names the expected and the found shape, never the
// value. Problems are listed in a stable order: environment problems
// (sorted by variable), decoding problems (keys sorted), then validation
// problems in file order.
//
// # Order of steps
//
// Parse, apply environment overrides, decode (unknown keys and wrong types
// become problems), expand ${VAR}, resolve relative paths, fill defaults,
// validate. [Fleet.Dir] records the folder paths were resolved against.
package config
