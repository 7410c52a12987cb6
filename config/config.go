package config

import (
	"maps"
	"net/url"
	"slices"
	"time"
)

// Defaults applied by [Load] and [LoadBytes] to zero fields.
const (
	DefaultDeferredTools  = "auto"
	DefaultCallTimeout    = 60 * time.Second
	DefaultConnectTimeout = 20 * time.Second
	DefaultMaxInFlight    = 16
	// DefaultMaxResultBytes bounds one message from a server: 64 MiB.
	DefaultMaxResultBytes = 64 << 20
	DefaultOffloadTokens  = 8000
	DefaultJoinSeparator  = " "
	// MaxCatalogLine is the longest catalog_lines entry, in characters.
	MaxCatalogLine = 120
)

// Defaults the multiplexer applies when the reliability keys are zero or
// absent. They live here, not in the root package, so the file reference
// and the Mux cannot disagree about them.
const (
	DefaultQueueTimeout    = 10 * time.Second
	DefaultHealthInterval  = 30 * time.Second
	DefaultBreakerFailures = 5
	DefaultBreakerCooldown = 30 * time.Second
)

// Transports accepted in Server.Transport.
const (
	TransportStdio = "stdio"
	TransportHTTP  = "http"
	TransportSSE   = "sse"
)

// Redaction replaces secret values in [Fleet.Redacted].
const Redaction = "[redacted]"

// Fleet is the whole configuration file: the servers and per-kind settings.
type Fleet struct {
	DeferredTools string                  `koanf:"deferred_tools" json:"deferred_tools,omitempty"`
	Servers       []Server                `koanf:"servers" json:"servers"`
	KindSettings  map[string]KindSettings `koanf:"kind_settings" json:"kind_settings,omitempty"`
	Reliability   Reliability             `koanf:"reliability" json:"reliability,omitzero"`
	ResultStore   ResultStore             `koanf:"result_store" json:"result_store,omitzero"`
	// Store chooses where state that replicas of `mcpfleet serve` share
	// lives: offloaded results and conversations' loaded tools.
	Store Store `koanf:"store" json:"store,omitzero"`
	// Neutralize, when false, turns off the envelope that marks tool
	// output as data; nil means on. A pointer, because "absent" and
	// "false" must differ.
	Neutralize *bool `koanf:"neutralize" json:"neutralize,omitempty"`
	// Search tunes tool search (searchTools and `mcpfleet search`).
	Search Search `koanf:"search" json:"search,omitzero"`
	// Presets, when false, turns the built-in per-server presets off
	// (package presets); nil means on.
	Presets *bool `koanf:"presets" json:"presets,omitempty"`
	// Pinning is off, warn or enforce: what to do with a tool whose
	// definition differs from the lock, is absent from it, or reads as
	// poisoned. "" means warn when a lock was loaded, else off (see
	// [Fleet.PinningMode]).
	Pinning string `koanf:"pinning" json:"pinning,omitempty"`
	// LockFile is the lock file's path, resolved against the fleet file's
	// folder; "" means fleet.lock there, if it exists.
	LockFile string `koanf:"lock_file" json:"lock_file,omitempty"`
	// Lock is the lock file Load read, nil if there is none.
	Lock *Lock `koanf:"-" json:"-"`
	// Cache opts kinds into the response cache.
	Cache Cache `koanf:"cache" json:"cache,omitzero"`
	// RateLimits bounds each caller's calls per kind (mcpfleet serve).
	RateLimits RateLimits `koanf:"rate_limits" json:"rate_limits,omitzero"`
	// RequestLimits bounds what one client may send to mcpfleet serve.
	RequestLimits RequestLimits `koanf:"request_limits" json:"request_limits,omitzero"`
	// Telemetry chooses the trace and metric exporters (telemetry.go).
	Telemetry Telemetry `koanf:"telemetry" json:"telemetry,omitzero"`
	// Audit turns on the audit log, one JSON line per call.
	Audit Audit `koanf:"audit" json:"audit,omitzero"`
	// Start is how servers start by default: eager (the default), lazy
	// or background; see [StartMode]. A server's own start key wins.
	Start string `koanf:"start" json:"start,omitempty"`
	// Dir is the folder of the loaded file, against which relative paths
	// were resolved; "" for LoadBytes without a dir.
	Dir string `koanf:"-" json:"-"`
	// Path is the absolute path of the loaded file, "" for LoadBytes. The
	// tool cache is keyed to it, so that a fleet built in Go, with no
	// file, has no tool cache.
	Path string `koanf:"-" json:"-"`
}

// Search tunes the catalog's tool search.
type Search struct {
	// Synonyms extend the built-in ops lexicon: when a request says the
	// phrase (the key), tools may say the value's words. Use it for the
	// vocabulary of a fleet's users that no tool says ("blast radius":
	// "dependencies"); phrasings of one tool belong in kind aliases.
	Synonyms map[string]string `koanf:"synonyms" json:"synonyms,omitempty"`
	// Lexicon, when false, turns the built-in lexicon off; nil means on.
	Lexicon *bool `koanf:"lexicon" json:"lexicon,omitempty"`
	// Rerank, when false, ranks by BM25 alone, without the reranker whose
	// weights were fitted to incident-ops queries; nil means on.
	Rerank *bool `koanf:"rerank" json:"rerank,omitempty"`
	// RerankWeights is the path of a JSON file of reranker weights (as
	// `mcpfleet fit-search` writes), resolved against the fleet file's
	// folder; "" means the built-in weights.
	RerankWeights string `koanf:"rerank_weights" json:"rerank_weights,omitempty"`
	// RerankWeightValues are the weights Load read from RerankWeights,
	// feature name to weight. Load checks that they are a JSON object of
	// numbers; the feature names are the catalog's to check
	// (catalog/search.RerankWeights.Validate), since this package does not know
	// them.
	RerankWeightValues map[string]float64 `koanf:"-" json:"-"`
}

// Server is one upstream MCP server.
type Server struct {
	Name      string            `koanf:"name" json:"name"`
	Kind      string            `koanf:"kind" json:"kind,omitempty"`
	Transport string            `koanf:"transport" json:"transport,omitempty"`
	Command   string            `koanf:"command" json:"command,omitempty"`
	Args      []string          `koanf:"args" json:"args,omitempty"`
	Env       map[string]string `koanf:"env" json:"env,omitempty"`
	URL       string            `koanf:"url" json:"url,omitempty"`
	Headers   map[string]string `koanf:"headers" json:"headers,omitempty"`

	CallTimeout    time.Duration `koanf:"call_timeout" json:"call_timeout,omitempty"`       // default 60s when 0
	ConnectTimeout time.Duration `koanf:"connect_timeout" json:"connect_timeout,omitempty"` // default 20s when 0
	MaxInFlight    int           `koanf:"max_in_flight" json:"max_in_flight,omitempty"`     // default 16 when 0
	// Start overrides the fleet-wide start for this server: eager, lazy
	// or background ("" = the fleet's).
	Start string `koanf:"start" json:"start,omitempty"`
	// MaxResultBytes bounds one message from the server (0 =
	// reliability.max_result_bytes, else DefaultMaxResultBytes); a larger
	// result is cut as it is read, with a note. See MaxResultBytesOf.
	MaxResultBytes int64 `koanf:"max_result_bytes" json:"max_result_bytes,omitempty"`

	ArgsTransformer   []string            `koanf:"args_transformer" json:"args_transformer,omitempty"`
	FieldMap          map[string]string   `koanf:"field_map" json:"field_map,omitempty"`
	JoinSeparator     string              `koanf:"join_separator" json:"join_separator,omitempty"`
	CoreTools         []string            `koanf:"core_tools" json:"core_tools,omitempty"`
	AllowPlaceholders []string            `koanf:"allow_placeholders" json:"allow_placeholders,omitempty"` // tool names (or "*") where "none", "null" etc. are real values
	Scopes            map[string][]string `koanf:"tool_scopes" json:"tool_scopes,omitempty"`               // tool -> required scopes override
}

// KindSettings applies to every server of one kind.
type KindSettings struct {
	ArgsTransformer   []string            `koanf:"args_transformer" json:"args_transformer,omitempty"`
	FieldMap          map[string]string   `koanf:"field_map" json:"field_map,omitempty"`
	JoinSeparator     string              `koanf:"join_separator" json:"join_separator,omitempty"`
	CoreTools         []string            `koanf:"core_tools" json:"core_tools,omitempty"`
	CatalogLines      map[string]string   `koanf:"catalog_lines" json:"catalog_lines,omitempty"`           // tool -> one-line catalog entry (<=120 chars)
	Aliases           map[string][]string `koanf:"aliases" json:"aliases,omitempty"`                       // tool -> user phrasings for search
	AvoidWhen         map[string]string   `koanf:"avoid_when" json:"avoid_when,omitempty"`                 // tool -> "don't use when..." hint
	ToolScopes        map[string][]string `koanf:"tool_scopes" json:"tool_scopes,omitempty"`               // tool -> required scopes
	OffloadTokens     int                 `koanf:"offload_tokens" json:"offload_tokens,omitempty"`         // 0 = default 8000
	AllowPlaceholders []string            `koanf:"allow_placeholders" json:"allow_placeholders,omitempty"` // tool names (or "*")
	// IDPatterns are RE2 expressions matching this kind's identifiers as
	// people write them: `\b(OPS|PLAT)-[0-9]+\b` for the keys of two Jira
	// projects. A search request that carries one is taken to be about the
	// kind. They are case-sensitive unless they start with (?i).
	IDPatterns []string `koanf:"id_patterns" json:"id_patterns,omitempty"`
	// AllowFlagged maps a tool to the sha256 of a definition whose
	// poisoned-description finding is a false positive. The allow holds
	// for that exact definition only: if the tool changes, it is flagged
	// again.
	AllowFlagged map[string]string `koanf:"allow_flagged" json:"allow_flagged,omitempty"`
}

// Reliability bounds how the multiplexer waits for, and gives up on, slow
// or failing servers. Zero fields mean the defaults named on each.
type Reliability struct {
	// QueueTimeout is how long a call waits for a free max_in_flight slot
	// before it is rejected as overloaded (0 = DefaultQueueTimeout).
	QueueTimeout time.Duration `koanf:"queue_timeout" json:"queue_timeout,omitempty"`
	// MaxInFlight is the max_in_flight of servers that set none
	// (0 = DefaultMaxInFlight). Load copies it into those servers.
	MaxInFlight int `koanf:"max_in_flight" json:"max_in_flight,omitempty"`
	// MaxResultBytes is the max_result_bytes of servers that set none
	// (0 = DefaultMaxResultBytes).
	MaxResultBytes int64 `koanf:"max_result_bytes" json:"max_result_bytes,omitempty"`
	// HealthInterval is how often idle servers are probed with tools/list
	// (0 = DefaultHealthInterval).
	HealthInterval time.Duration `koanf:"health_interval" json:"health_interval,omitempty"`
	// HealthProbes, when false, turns probing off; nil means on.
	HealthProbes *bool   `koanf:"health_probes" json:"health_probes,omitempty"`
	Breaker      Breaker `koanf:"breaker" json:"breaker,omitzero"`
}

// Breaker is the per-server circuit breaker.
type Breaker struct {
	// Enabled, when false, turns the breaker off; nil means on.
	Enabled *bool `koanf:"enabled" json:"enabled,omitempty"`
	// Failures is how many consecutive timeouts or transport errors open
	// the circuit (0 = DefaultBreakerFailures).
	Failures int `koanf:"failures" json:"failures,omitempty"`
	// Cooldown is how long the circuit stays open before one trial call
	// (0 = DefaultBreakerCooldown).
	Cooldown time.Duration `koanf:"cooldown" json:"cooldown,omitempty"`
}

// ResultStore bounds the default in-memory store of offloaded results.
// Zero fields take the store's own defaults (256 MiB, 1h).
type ResultStore struct {
	// MaxBytes is the budget for all stored result texts together; the
	// least recently used are evicted to stay under it.
	MaxBytes int64 `koanf:"max_bytes" json:"max_bytes,omitempty"`
	// TTL is how long a stored result stays readable.
	TTL time.Duration `koanf:"ttl" json:"ttl,omitempty"`
	// Spill moves big results out of memory into temporary files.
	Spill Spill `koanf:"spill" json:"spill,omitzero"`
}

// Defaults and bounds of ResultStore.Spill.
const (
	DefaultSpillMinBytes = 1 << 20
	DefaultSpillMaxBytes = 1 << 30
	// MinSpillMinBytes is the smallest min_bytes: every spilled result
	// holds a file descriptor open, so tiny ones are not worth one.
	MinSpillMinBytes = 64 << 10
)

// Spill moves each stored result of at least MinBytes out of the
// process's memory into a temporary file of its own in Dir. The file's
// name is removed as soon as it is created, so nothing is left behind
// even when the process dies; its space is freed when the result is
// evicted or the Mux is closed. Such results count against MaxBytes
// instead of the store's memory budget. A folder where no file can be
// made keeps results in memory, with one warning. Zero fields take the
// defaults.
type Spill struct {
	// Enabled, when false, keeps every result in memory; nil means on.
	Enabled *bool `koanf:"enabled" json:"enabled,omitempty"`
	// MinBytes is the size from which a result spills (0 =
	// DefaultSpillMinBytes, else at least MinSpillMinBytes).
	MinBytes int64 `koanf:"min_bytes" json:"min_bytes,omitempty"`
	// Dir is the folder of the files, relative to the fleet file's
	// folder; ${VAR} expands. "" means os.TempDir().
	Dir string `koanf:"dir" json:"dir,omitempty"`
	// MaxBytes is the budget of all spilled results together; the least
	// recently used are evicted to stay under it (0 = DefaultSpillMaxBytes).
	MaxBytes int64 `koanf:"max_bytes" json:"max_bytes,omitempty"`
}

// On reports whether results spill.
func (s Spill) On() bool { return s.Enabled == nil || *s.Enabled }

// MinBytesOrDefault is MinBytes, or DefaultSpillMinBytes for 0.
func (s Spill) MinBytesOrDefault() int64 {
	if s.MinBytes > 0 {
		return s.MinBytes
	}
	return DefaultSpillMinBytes
}

// MaxBytesOrDefault is MaxBytes, or DefaultSpillMaxBytes for 0.
func (s Spill) MaxBytesOrDefault() int64 {
	if s.MaxBytes > 0 {
		return s.MaxBytes
	}
	return DefaultSpillMaxBytes
}

// MaxResultBytesOf is the bound on one message from s: its own
// max_result_bytes, else the fleet's, else DefaultMaxResultBytes.
func (f *Fleet) MaxResultBytesOf(s Server) int64 {
	switch {
	case s.MaxResultBytes > 0:
		return s.MaxResultBytes
	case f.Reliability.MaxResultBytes > 0:
		return f.Reliability.MaxResultBytes
	}
	return DefaultMaxResultBytes
}

// NeutralizeOn reports whether tool output is to be neutralized: true
// unless the file says neutralize: false.
func (f *Fleet) NeutralizeOn() bool { return f.Neutralize == nil || *f.Neutralize }

// BuiltinTransformers returns the names of the argument transformers that
// ship with mcpfleet, in a fresh slice the caller may change.
func BuiltinTransformers() []string {
	return []string{"camelCase", "snakeCase", "joinArrays", "splitStrings", "singularResourceType", "coerceTypes", "dropUnknown"}
}

// KindName is the server's kind: Kind, or Name when Kind is empty, so a
// server without a kind is a kind of its own.
func (s Server) KindName() string {
	if s.Kind != "" {
		return s.Kind
	}
	return s.Name
}

// Server returns the server with the given name.
func (f *Fleet) Server(name string) (Server, bool) {
	for _, s := range f.Servers {
		if s.Name == name {
			return s, true
		}
	}
	return Server{}, false
}

// Settings returns the settings of a kind, or the zero value if it has none.
func (f *Fleet) Settings(kind string) KindSettings {
	return f.KindSettings[kind]
}

// Transformers returns the transformer names for a server: its kind's list,
// then its own, with duplicates dropped (the first one wins) so a server
// can add to its kind's list without repeating it. Unknown server: nil.
func (f *Fleet) Transformers(server string) []string {
	s, ok := f.Server(server)
	if !ok {
		return nil
	}
	var out []string
	for _, name := range slices.Concat(f.Settings(s.KindName()).ArgsTransformer, s.ArgsTransformer) {
		if !slices.Contains(out, name) {
			out = append(out, name)
		}
	}
	return out
}

// FieldMap returns the kind's field map merged with the server's; the
// server's entry wins per key. It is a fresh map, nil when both are empty.
func (f *Fleet) FieldMap(server string) map[string]string {
	s, ok := f.Server(server)
	if !ok {
		return nil
	}
	kind := f.Settings(s.KindName()).FieldMap
	if len(kind) == 0 && len(s.FieldMap) == 0 {
		return nil
	}
	out := make(map[string]string, len(kind)+len(s.FieldMap))
	maps.Copy(out, kind)
	maps.Copy(out, s.FieldMap)
	return out
}

// Separator returns the join separator for a server: its own, else its
// kind's, else a single space.
func (f *Fleet) Separator(server string) string {
	s, ok := f.Server(server)
	if ok && s.JoinSeparator != "" {
		return s.JoinSeparator
	}
	if ok {
		if sep := f.Settings(s.KindName()).JoinSeparator; sep != "" {
			return sep
		}
	}
	return DefaultJoinSeparator
}

// Redacted returns a deep copy safe to log or print: every env value and
// header value becomes "[redacted]", and a password in a URL is masked.
func (f *Fleet) Redacted() *Fleet {
	out := f.clone()
	for i := range out.Servers {
		s := &out.Servers[i]
		for k := range s.Env {
			s.Env[k] = Redaction
		}
		for k := range s.Headers {
			s.Headers[k] = Redaction
		}
		if u, err := url.Parse(s.URL); err == nil && u.User != nil {
			if _, has := u.User.Password(); has {
				s.URL = u.Redacted()
			}
		}
	}
	if out.Store.Redis.URL != "" {
		out.Store.Redis.URL = out.Store.Redis.RedactedURL()
	}
	return out
}

func (f *Fleet) clone() *Fleet {
	out := *f
	out.Neutralize = clonePtr(f.Neutralize)
	out.Cache = f.Cache.clone()
	out.RateLimits.Kinds = maps.Clone(f.RateLimits.Kinds)
	out.Search.Synonyms = maps.Clone(f.Search.Synonyms)
	out.Search.Lexicon = clonePtr(f.Search.Lexicon)
	out.Search.Rerank = clonePtr(f.Search.Rerank)
	out.Search.RerankWeightValues = maps.Clone(f.Search.RerankWeightValues)
	out.Reliability.HealthProbes = clonePtr(f.Reliability.HealthProbes)
	out.Reliability.Breaker.Enabled = clonePtr(f.Reliability.Breaker.Enabled)
	out.Servers = slices.Clone(f.Servers)
	for i := range out.Servers {
		s := &out.Servers[i]
		s.Args = slices.Clone(s.Args)
		s.Env = maps.Clone(s.Env)
		s.Headers = maps.Clone(s.Headers)
		s.ArgsTransformer = slices.Clone(s.ArgsTransformer)
		s.FieldMap = maps.Clone(s.FieldMap)
		s.CoreTools = slices.Clone(s.CoreTools)
		s.AllowPlaceholders = slices.Clone(s.AllowPlaceholders)
		s.Scopes = cloneLists(s.Scopes)
	}
	if f.KindSettings != nil {
		out.KindSettings = make(map[string]KindSettings, len(f.KindSettings))
		for k, ks := range f.KindSettings {
			ks.ArgsTransformer = slices.Clone(ks.ArgsTransformer)
			ks.FieldMap = maps.Clone(ks.FieldMap)
			ks.CoreTools = slices.Clone(ks.CoreTools)
			ks.CatalogLines = maps.Clone(ks.CatalogLines)
			ks.Aliases = cloneLists(ks.Aliases)
			ks.AvoidWhen = maps.Clone(ks.AvoidWhen)
			ks.ToolScopes = cloneLists(ks.ToolScopes)
			ks.AllowPlaceholders = slices.Clone(ks.AllowPlaceholders)
			ks.IDPatterns = slices.Clone(ks.IDPatterns)
			out.KindSettings[k] = ks
		}
	}
	return &out
}

func cloneLists(m map[string][]string) map[string][]string {
	if m == nil {
		return nil
	}
	out := make(map[string][]string, len(m))
	for k, v := range m {
		out[k] = slices.Clone(v)
	}
	return out
}

func clonePtr[T any](p *T) *T {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}
