package gateway

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpfleet/mcpfleet"
	"github.com/mcpfleet/mcpfleet/catalog"
)

// DefaultDrainTimeout bounds how long shutdown waits for calls in flight
// when Config.DrainTimeout is zero.
const DefaultDrainTimeout = 30 * time.Second

// ErrNoMux is returned by New when Config.Mux is nil.
var ErrNoMux = errors.New("gateway: Config.Mux is required")

// Config configures a Gateway. Mux is required; every other zero field has
// a working default.
type Config struct {
	// Mux is the fleet. The gateway never closes it.
	Mux *mcpfleet.Mux
	// Catalog tunes search (kind settings, aliases, scopes per tool).
	Catalog catalog.Config
	// SettingsFromMux replaces Catalog's fleet settings with those of
	// Mux.Config() each time the catalog is rebuilt (see
	// catalog.Config.WithFleet), so that search follows the presets the
	// Mux re-matches when a tool list changes. Catalog's other fields
	// (budget, embedder) are kept. `mcpfleet serve` sets it.
	SettingsFromMux bool
	// Name and Version are announced in initialize; defaults "mcpfleet"
	// and "dev".
	Name, Version string
	// Scopes are granted to callers that do not authenticate: stdio and
	// in-process clients. nil means ["read"], as in catalog: a forgotten
	// setting must not grant write tools.
	Scopes []string
	// Tokens maps HTTP bearer tokens to scopes. Empty means no auth, which
	// ListenAndServe allows on loopback addresses only.
	Tokens map[string][]string
	// DrainTimeout bounds the wait for calls in flight at shutdown; 0
	// means DefaultDrainTimeout.
	DrainTimeout time.Duration
	// Logger receives diagnostics; nil discards them.
	Logger *slog.Logger
	// Limiter counts the rate limits of the fleet file's rate_limits
	// section (Mux.Config().RateLimits); nil means a MemoryLimiter, which
	// counts in this process only. stores/redislimit shares the counts
	// between replicas.
	Limiter Limiter
	// Activations keeps the tools each conversation described (see
	// HeaderConversation); nil means conversations are not kept.
	Activations catalog.ActivationStore
	// Store, if set, is the shared state's health check: /healthz says
	// degraded while it fails. StoreBackend names it ("redis").
	Store        Pinger
	StoreBackend string
	// MaxRequestBytes bounds a /mcp request body; 0 means
	// DefaultMaxRequestBytes. A larger body is refused with HTTP 413.
	MaxRequestBytes int64
	// MaxQueryBytes bounds a searchTools query (0 = DefaultMaxQueryBytes),
	// MaxDescribeNames the names of one describeTools call
	// (0 = DefaultMaxDescribeNames) and MaxPatternBytes a grepResult
	// pattern (0 or more than DefaultMaxPatternBytes =
	// DefaultMaxPatternBytes). A request over one gets a tool error that
	// says the limit and what it sent.
	MaxQueryBytes    int
	MaxDescribeNames int
	MaxPatternBytes  int
	// MetricsHandler serves /metrics, typically the Prometheus exporter's
	// handler (telemetry.Telemetry.MetricsHandler) over the same Metrics
	// the Mux was built with. nil leaves /metrics unserved.
	MetricsHandler http.Handler
}

// Pinger is a health check of shared state, such as
// redisstore.Stores.Ping.
type Pinger interface {
	Ping(ctx context.Context) error
}

// Gateway is the fleet as one MCP server. It is safe for concurrent use.
type Gateway struct {
	cfg Config
	mux *mcpfleet.Mux
	srv *server.MCPServer
	log *slog.Logger
	// inflight counts requests being served; shutdown waits for it.
	inflight atomic.Int64
	limits   *limits // nil when no kind is rate limited
	// added remembers names recently added to conversations.
	added addedMemo
	// draining is set at shutdown: new calls are refused while those in
	// flight finish.
	draining atomic.Bool

	mu     sync.Mutex
	cat    *catalog.Catalog
	catVer uint64 // the Mux snapshot version the catalog was built from
}

// New builds the gateway's MCP server over cfg.Mux. The server
// instructions carry the kinds overview as it is at New.
func New(cfg Config) (*Gateway, error) {
	if cfg.Mux == nil {
		return nil, ErrNoMux
	}
	if cfg.Name == "" {
		cfg.Name = "mcpfleet"
	}
	if cfg.Version == "" {
		cfg.Version = "dev"
	}
	if cfg.Scopes == nil {
		cfg.Scopes = []string{catalog.ScopeRead}
	}
	cfg.Scopes = slices.Clone(cfg.Scopes)
	if cfg.DrainTimeout <= 0 {
		cfg.DrainTimeout = DefaultDrainTimeout
	}
	if cfg.MaxRequestBytes <= 0 {
		cfg.MaxRequestBytes = DefaultMaxRequestBytes
	}
	if cfg.MaxQueryBytes <= 0 {
		cfg.MaxQueryBytes = DefaultMaxQueryBytes
	}
	if cfg.MaxDescribeNames <= 0 {
		cfg.MaxDescribeNames = DefaultMaxDescribeNames
	}
	if cfg.MaxPatternBytes <= 0 || cfg.MaxPatternBytes > DefaultMaxPatternBytes {
		cfg.MaxPatternBytes = DefaultMaxPatternBytes
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	g := &Gateway{cfg: cfg, mux: cfg.Mux, log: cfg.Logger}
	g.limits = newLimits(cfg.Mux.Config().RateLimits, cfg.Limiter)
	opts := []server.ServerOption{
		server.WithToolCapabilities(false),
		server.WithRecovery(),
		server.WithInstructions(instructions(g.kinds(cfg.Scopes))),
	}
	if tp := cfg.Mux.TracerProvider(); tp != nil {
		// A server span for every request; tools/call's is observe's.
		opts = append(opts, server.WithTracer(methodTracer{tp}), server.WithMetaPropagator(metaPropagator{}))
	}
	g.srv = server.NewMCPServer(cfg.Name, cfg.Version, opts...)
	g.srv.AddTools(g.tools()...)
	return g, nil
}

// MCPServer returns the underlying mcp-go server, for serving it over a
// transport of the caller's choice (in-process clients, tests). Calls that
// arrive this way get Config.Scopes unless ctx already carries scopes.
func (g *Gateway) MCPServer() *server.MCPServer { return g.srv }

// catalog returns a catalog of the fleet's current tools. The Mux numbers
// its snapshot of the tool lists (Mux.Version), so the catalog is rebuilt
// only when a list changed, without hashing every schema on every request.
func (g *Gateway) catalog() *catalog.Catalog {
	ver := g.mux.Version()
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.cat != nil && ver == g.catVer {
		return g.cat
	}
	cfg := g.cfg.Catalog
	if g.cfg.SettingsFromMux {
		// Read after Version: a snapshot swapped in between is newer than
		// ver, and the next call rebuilds again.
		cfg = cfg.WithFleet(g.mux.Config())
	}
	g.cat = catalog.Build(g.mux.Servers(), cfg)
	g.catVer = ver
	return g.cat
}

// scopes returns the caller's scopes: those on ctx (set by HTTP auth or an
// embedding program), else Config.Scopes.
func (g *Gateway) scopes(ctx context.Context) []string {
	if s, ok := catalog.ScopesFrom(ctx); ok {
		return s
	}
	return slices.Clone(g.cfg.Scopes)
}

// drain waits for calls in flight, at most DrainTimeout. It polls a
// counter rather than using a WaitGroup, whose Add may not race with Wait:
// a request can still arrive (and be refused) while draining.
func (g *Gateway) drain() {
	deadline := time.Now().Add(g.cfg.DrainTimeout)
	for g.inflight.Load() > 0 {
		if time.Now().After(deadline) {
			g.log.Warn("gateway: calls still in flight after the drain timeout", "timeout", g.cfg.DrainTimeout)
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
}
