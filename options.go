package mcpfleet

import (
	"context"
	"io"
	"log/slog"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpfleet/mcpfleet/config"
	"github.com/mcpfleet/mcpfleet/normalizers"
)

// Option configures a Mux. Options carry Go values the YAML file cannot:
// loggers, functions, in-process servers.
type Option func(*options)

type options struct {
	logger         *slog.Logger
	strict         bool
	transformers   map[string]normalizers.Transformer
	resourceSingle map[string]string
	before         []BeforeFunc
	results        []ResultFunc
	after          []AfterFunc
	inprocess      map[string]inprocessServer
	connectLimit   int
	stderr         io.Writer
	legacy         bool
	metrics        Metrics
	tel            *tracing                   // nil: tracing off (see trace.go)
	audit          interface{ Close() error } // the fleet file's audit log (audit.go)
	store          ResultStore
	noOffload      bool
	noNeutralize   bool
	cache          ResponseCache
	cacheScope     func(context.Context) string

	// reliability edits the fleet file's reliability section, in the
	// order the Options were given (see reliabilityOf).
	reliability []func(*config.Reliability)
}

type inprocessServer struct {
	kind string
	srv  *server.MCPServer
}

// WithLogger sets the logger; the default discards.
func WithLogger(l *slog.Logger) Option { return func(o *options) { o.logger = l } }

// WithStrict makes New fail if any server fails to connect. By default a
// server that fails is reported as down and the fleet comes up without it.
func WithStrict() Option { return func(o *options) { o.strict = true } }

// WithArgsTransformer registers a custom argument transformer under name, for
// use from kind_settings.<kind>.args_transformer or a server's
// args_transformer. A name may not shadow a built-in; New reports that.
func WithArgsTransformer(name string, fn normalizers.Transformer) Option {
	return func(o *options) {
		if o.transformers == nil {
			o.transformers = map[string]normalizers.Transformer{}
		}
		o.transformers[name] = fn
	}
}

// WithResourceSingular extends the plural→singular table used by the
// singularResourceType transformer.
func WithResourceSingular(m map[string]string) Option {
	return func(o *options) {
		if o.resourceSingle == nil {
			o.resourceSingle = map[string]string{}
		}
		for k, v := range m {
			o.resourceSingle[k] = v
		}
	}
}

// WithBeforeCall adds a hook that runs after validation, before the upstream
// call. The first one added runs first.
func WithBeforeCall(h BeforeFunc) Option { return func(o *options) { o.before = append(o.before, h) } }

// WithResultTransform adds a hook that may rewrite a result before it is
// returned. The first one added runs first.
func WithResultTransform(h ResultFunc) Option {
	return func(o *options) { o.results = append(o.results, h) }
}

// WithAfterCall adds a hook that sees every call's outcome, on every path.
func WithAfterCall(h AfterFunc) Option { return func(o *options) { o.after = append(o.after, h) } }

// WithInProcess serves the named server from s in this process instead of
// its configured transport. A name absent from the config is added with the
// given kind ("" means its own name).
func WithInProcess(name, kind string, s *server.MCPServer) Option {
	return func(o *options) {
		if o.inprocess == nil {
			o.inprocess = map[string]inprocessServer{}
		}
		o.inprocess[name] = inprocessServer{kind: kind, srv: s}
	}
}

// WithConnectConcurrency bounds how many servers connect at once (default
// 32). Startup takes as long as the slowest server while the fleet fits.
func WithConnectConcurrency(n int) Option { return func(o *options) { o.connectLimit = n } }

// WithServerStderr receives the stderr of stdio servers; the default discards.
func WithServerStderr(w io.Writer) Option { return func(o *options) { o.stderr = w } }

// WithLegacyProtocol pins the pre-2026-07-28 MCP handshake for every server.
func WithLegacyProtocol() Option { return func(o *options) { o.legacy = true } }

// WithHealthInterval sets how often idle servers are probed with tools/list
// (default 30s; negative disables probing). It overrides the fleet file's
// reliability.health_interval and health_probes; 0 leaves them in charge.
func WithHealthInterval(d time.Duration) Option {
	return withReliability(func(r *config.Reliability) {
		switch {
		case d > 0:
			r.HealthInterval, r.HealthProbes = d, ptr(true)
		case d < 0:
			r.HealthProbes = ptr(false)
		}
	})
}

// BeforeFunc runs before the upstream call. It may return a new ctx, a
// result to short-circuit the call with, or an error to abort it (the caller
// gets a RejectError with ReasonHookRejected unless the error already is one).
type BeforeFunc func(ctx context.Context, c *Call) (context.Context, *mcp.CallToolResult, error)

// ResultFunc rewrites a result. Returning an error fails the call.
type ResultFunc func(ctx context.Context, c *Call, r *mcp.CallToolResult) (*mcp.CallToolResult, error)

// AfterFunc observes a finished call. It runs on every path, rejections
// included, and cannot change the outcome.
type AfterFunc func(ctx context.Context, c *Call, o Outcome)

// WithQueueTimeout bounds how long a call waits for one of its server's
// max_in_flight slots (default 10s) before it is rejected as overloaded. The
// wait does not count against the call timeout, which starts once the call
// is sent. It overrides the fleet file's reliability.queue_timeout; 0 leaves
// it in charge.
func WithQueueTimeout(d time.Duration) Option {
	return withReliability(func(r *config.Reliability) {
		if d > 0 {
			r.QueueTimeout = d
		}
	})
}

// WithCircuitBreaker opens a server's circuit after failures consecutive
// timeouts or transport errors (default 5; tool results with IsError do not
// count), and lets one trial call through after cooldown (default 30s).
// failures < 0 disables the breaker. Each argument overrides its key under
// the fleet file's reliability.breaker; a zero argument leaves the file's
// value (or the default) in place.
func WithCircuitBreaker(failures int, cooldown time.Duration) Option {
	return withReliability(func(r *config.Reliability) {
		switch {
		case failures > 0:
			r.Breaker.Failures, r.Breaker.Enabled = failures, ptr(true)
		case failures < 0:
			r.Breaker.Enabled = ptr(false)
		}
		if cooldown > 0 {
			r.Breaker.Cooldown = cooldown
		}
	})
}

// withReliability is an Option that edits the fleet file's reliability
// section: Options and the file fill one struct, and an Option, a decision
// in code, is applied over the file.
func withReliability(edit func(*config.Reliability)) Option {
	return func(o *options) { o.reliability = append(o.reliability, edit) }
}

func ptr[T any](v T) *T { return &v }

// WithMetrics reports calls, offloads, defusals and reconnects to mx. The
// default reports nothing. See metrics/otelmetrics for OpenTelemetry.
func WithMetrics(mx Metrics) Option { return func(o *options) { o.metrics = mx } }

// WithResultStore keeps offloaded results in s instead of the default
// in-memory store (LRU, 1h TTL, 256 MiB, or the fleet file's result_store
// bounds, which then no longer apply). Results never change once stored,
// so the Mux also keeps up to 64 MiB of those it stored itself in memory,
// each for result_store.ttl, and reads them there without asking s: on a
// shared store, the replica that made a handle answers it with no round
// trip.
func WithResultStore(s ResultStore) Option { return func(o *options) { o.store = s } }

// WithoutOffload returns every result whole, however large.
func WithoutOffload() Option { return func(o *options) { o.noOffload = true } }

// WithoutNeutralize turns off the default transform that marks tool output
// as data and defuses text imitating instructions. Only for callers that
// neutralize output themselves. The fleet file's neutralize: false has the
// same effect.
func WithoutNeutralize() Option { return func(o *options) { o.noNeutralize = true } }
