package mcpfleet

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"slices"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"golang.org/x/sync/errgroup"

	"github.com/mcpfleet/mcpfleet/config"
	"github.com/mcpfleet/mcpfleet/internal/neutralize"
	"github.com/mcpfleet/mcpfleet/kindgroups"
	"github.com/mcpfleet/mcpfleet/normalizers"
	"github.com/mcpfleet/mcpfleet/presets"
)

// Mux is the fleet multiplexer: one connection per server, tool lists kept
// current, and every call run through the same gates. Its methods are safe
// for concurrent use; calls to one server never wait on another.
type Mux struct {
	file   *config.Fleet // the fleet file as given (in-process servers added); Config has the presets merged
	opts   options
	rel    config.Reliability // the file's section, Options applied, defaults filled
	log    *slog.Logger
	reg    map[string]normalizers.Transformer
	life   context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup

	servers map[string]*serverConn // fixed at New; values mutate under their own locks
	names   []string               // sorted server names

	snap atomic.Pointer[snapshot]
	// snapMu serializes snapshot rebuilds so a slow rebuild cannot overwrite
	// a newer one.
	snapMu sync.Mutex
	closed atomic.Bool

	store ResultStore             // nil when offloading is off
	own   *MemoryStore            // the default store, which Close closes; nil when WithResultStore gave one
	near  *MemoryStore            // results this process stored in a shared store; nil for the default store
	neut  *neutralize.Neutralizer // nil when neutralization is off
	pin   *pinner                 // nil when pinning is off
	cache *callCache              // nil when no kind is cached
	// tcache is the tool cache file, nil when every server starts
	// eagerly. startMu orders a deferred start's wg.Add before Close's
	// wg.Wait (start.go).
	tcache  *toolCache
	startMu sync.Mutex
	// defs holds one copy of each tool description and input schema the
	// servers list: servers of one kind list the same ones.
	defs interner
	// all are the built-in presets, parsed once at New; rebuild matches
	// them against the current tool lists.
	all []presets.Preset
}

// snapshot is an immutable view of the fleet's tools, swapped atomically
// whenever a tool list changes.
type snapshot struct {
	groups  []kindgroups.Group
	servers []kindgroups.Server // in m.names order, the lists groups were folded from
	index   map[string]int      // server name -> position in servers
	version uint64              // see Mux.Version
	// cfg is the fleet file with the presets matched against servers
	// merged in (see withPresets), presets what each kind got, and norms
	// each server's argument handling resolved from cfg: a call reads
	// them from the same snapshot, so a re-match never mixes old and new
	// settings within one call.
	cfg     *config.Fleet
	presets []presets.Assignment
	norms   map[string]*normalizeSettings
}

// New connects every server of cfg at once and returns when all have
// connected or failed. A server that fails is marked down with its reason,
// unless WithStrict is given. ctx bounds only the startup; the connections
// live until Close.
//
// A server with start: lazy or background is not waited for when the
// tool cache beside the fleet file holds its last listing: New takes the
// cached tools, a lazy server starts on its first call, and a background
// one at once. Without a usable cached listing it starts eagerly, with a
// warning (docs/lazy-start.md).
func New(ctx context.Context, cfg *config.Fleet, opts ...Option) (*Mux, error) {
	if cfg == nil {
		cfg = &config.Fleet{}
	}
	var o options
	for _, opt := range opts {
		opt(&o)
	}
	if o.logger == nil {
		o.logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if o.connectLimit <= 0 {
		o.connectLimit = 32
	}
	rel := reliabilityOf(cfg.Reliability, o.reliability)
	setupTracing(&o, cfg.Telemetry.CaptureBytes)
	reg, err := buildRegistry(&o)
	if err != nil {
		return nil, err
	}
	cfg = withInProcess(cfg, o.inprocess)
	if err := validationView(cfg).Validate(slices.Sorted(maps.Keys(reg))); err != nil {
		return nil, err
	}
	pin, err := newPinner(cfg)
	if err != nil {
		return nil, err
	}
	if err := openAudit(&o, cfg); err != nil {
		return nil, err
	}
	all, err := presets.All() // parsed even under presets: false, to report what would match
	if err != nil {
		return nil, err
	}
	life, cancel := context.WithCancel(context.WithoutCancel(ctx))
	m := &Mux{file: cfg, all: all, opts: o, rel: rel, log: o.logger, reg: reg, life: life, cancel: cancel, servers: map[string]*serverConn{}}
	if !o.noOffload {
		m.store = o.store
		if m.store == nil {
			m.own = NewMemoryStoreFrom(cfg.ResultStore, m.log)
			m.store = m.own
		} else {
			near := cfg.ResultStore
			near.MaxBytes = nearBytes
			m.near = NewMemoryStoreFrom(near, m.log)
		}
	}
	if !o.noNeutralize && cfg.NeutralizeOn() {
		m.neut = neutralize.New()
	}
	m.pin = pin
	m.cache = newCallCache(cfg, &o, m.log)
	m.tcache = openToolCache(cfg, m.log)
	for _, s := range cfg.Servers {
		if s.MaxInFlight == 0 { // Load did this already; a Fleet built in Go may not have
			s.MaxInFlight = cfg.Reliability.MaxInFlight
		}
		sc := newServerConn(m, s)
		m.servers[s.Name] = sc
		m.names = append(m.names, s.Name)
	}
	sort.Strings(m.names)
	eager := m.names
	if m.tcache != nil {
		eager = m.prepareStart()
	}
	m.rebuild() // every server listed, with its cached tools or none yet
	for _, name := range m.names {
		if sc := m.servers[name]; sc.mode == config.StartBackground {
			sc.beginStart()
		}
	}

	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(o.connectLimit)
	var mu sync.Mutex
	var failed []error
	for _, name := range eager {
		sc := m.servers[name]
		g.Go(func() error {
			if err := sc.connect(gctx); err != nil {
				mu.Lock()
				failed = append(failed, fmt.Errorf("%s: %w", name, err))
				mu.Unlock()
				if !o.strict {
					sc.startReconnect()
				}
			}
			return nil
		})
	}
	_ = g.Wait()
	m.rebuild()
	if m.pin != nil {
		// Each server was checked as it connected, against the others
		// that had connected by then; check again against all, so that a
		// tool shadowing one of a later server's is caught.
		for _, name := range m.names {
			m.servers[name].repin()
		}
		m.rebuild()
	}
	m.cache.warnUncached(m.current())
	m.saveToolCache()
	if len(failed) > 0 {
		sort.Slice(failed, func(i, j int) bool { return failed[i].Error() < failed[j].Error() })
		err := errors.Join(failed...)
		if o.strict {
			m.Close()
			return nil, fmt.Errorf("mcpfleet: %d of %d servers failed to connect: %w", len(failed), len(eager), err)
		}
		m.log.Warn("servers down at start", "count", len(failed), "err", err)
	}
	if *rel.HealthProbes {
		m.wg.Add(1)
		go m.healthLoop()
	}
	if feed, ok := o.cache.(CacheFeed); ok && m.cache != nil {
		m.wg.Go(func() { feed.Watch(m.life, m.cache.fed) })
	}
	return m, nil
}

// reliabilityOf is the fleet file's reliability section r with the
// Options' edits applied over it, then the defaults: the one struct the
// Mux reads. HealthProbes and Breaker.Enabled are always set.
func reliabilityOf(r config.Reliability, edits []func(*config.Reliability)) config.Reliability {
	r.HealthProbes = ptr(r.HealthProbes == nil || *r.HealthProbes)
	r.Breaker.Enabled = ptr(r.Breaker.Enabled == nil || *r.Breaker.Enabled)
	for _, edit := range edits {
		edit(&r)
	}
	r.QueueTimeout = cmp.Or(r.QueueTimeout, config.DefaultQueueTimeout)
	r.HealthInterval = cmp.Or(r.HealthInterval, config.DefaultHealthInterval)
	r.Breaker.Failures = cmp.Or(r.Breaker.Failures, config.DefaultBreakerFailures)
	r.Breaker.Cooldown = cmp.Or(r.Breaker.Cooldown, config.DefaultBreakerCooldown)
	return r
}

// withInProcess adds or overrides servers served in-process.
func withInProcess(cfg *config.Fleet, inproc map[string]inprocessServer) *config.Fleet {
	if len(inproc) == 0 {
		return cfg
	}
	c := *cfg
	c.Servers = slices.Clone(cfg.Servers)
	for name, ip := range inproc {
		i := slices.IndexFunc(c.Servers, func(s config.Server) bool { return s.Name == name })
		if i >= 0 {
			c.Servers[i].Transport = "inprocess"
			continue
		}
		c.Servers = append(c.Servers, config.Server{Name: name, Kind: ip.kind, Transport: "inprocess"})
	}
	return &c
}

// validationView shows in-process servers to the config validator as the
// stdio servers they stand in for: the file format has no in-process
// transport, since only Go code can supply one.
func validationView(cfg *config.Fleet) *config.Fleet {
	c := *cfg
	c.Servers = slices.Clone(cfg.Servers)
	for i := range c.Servers {
		if c.Servers[i].Transport == "inprocess" {
			c.Servers[i].Transport, c.Servers[i].Command = "stdio", "(in-process)"
		}
	}
	return &c
}

func buildRegistry(o *options) (map[string]normalizers.Transformer, error) {
	var nopts *normalizers.Options
	if len(o.resourceSingle) > 0 {
		nopts = normalizers.WithResourceSingular(o.resourceSingle)
	}
	reg := normalizers.Builtins(nopts)
	var errs []error
	for _, name := range slices.Sorted(maps.Keys(o.transformers)) {
		if _, ok := reg[name]; ok {
			errs = append(errs, fmt.Errorf("mcpfleet: WithArgsTransformer(%q): shadows the built-in transformer of that name; choose another name", name))
			continue
		}
		if o.transformers[name] == nil {
			errs = append(errs, fmt.Errorf("mcpfleet: WithArgsTransformer(%q): nil function", name))
			continue
		}
		reg[name] = o.transformers[name]
	}
	return reg, errors.Join(errs...)
}

// Close disconnects every server and stops background work. The results
// the Mux kept in its own store are dropped and their spill files closed.
// It is safe to call more than once.
func (m *Mux) Close() error {
	if !m.closed.CompareAndSwap(false, true) {
		return nil
	}
	// Mark every server closed before cancelling the lifetime context: that
	// cancel kills stdio children, and their exit watches must find the
	// server closed, not mark it down and start a reconnect during Wait.
	clients := make(map[string]interface{ Close() error }, len(m.names))
	for _, name := range m.names {
		if c := m.servers[name].markClosed(); c != nil {
			clients[name] = c
		}
	}
	m.cancel()
	// A deferred start that began before Close has added itself to wg by
	// now; one that had not sees closed and starts nothing.
	m.startMu.Lock()
	m.startMu.Unlock() //nolint:staticcheck // an empty section: a barrier
	var errs []error
	for _, name := range m.names {
		if c, ok := clients[name]; ok {
			if err := c.Close(); err != nil {
				errs = append(errs, fmt.Errorf("%s: %w", name, err))
			}
		}
	}
	m.wg.Wait()
	// The stores the Mux made close their spill files; a store given with
	// WithResultStore is the caller's.
	for _, ms := range []*MemoryStore{m.own, m.near} {
		if ms != nil {
			_ = ms.Close()
		}
	}
	if m.opts.audit != nil {
		errs = append(errs, m.opts.audit.Close())
	}
	return errors.Join(errs...)
}

// Config returns the fleet config the Mux runs with now: the fleet
// file's, with the built-in presets merged under its kind_settings unless
// it says presets: false (see Presets). It is a copy when presets were
// merged; the config passed to New is never changed. It changes when a
// tool list change makes a kind match another preset, and Version grows
// with it, so a catalog rebuilt on a new Version reads the new settings.
func (m *Mux) Config() *config.Fleet { return m.snap.Load().cfg }

// ServerNames returns every configured server, sorted, up or down.
func (m *Mux) ServerNames() []string { return slices.Clone(m.names) }

// KindGroups returns the fleet folded by kind, sorted by kind. Down servers
// are listed with the tools they had when last seen, if any.
func (m *Mux) KindGroups() []kindgroups.Group { return m.snap.Load().groups }

// Overview renders the orchestrator's view: one line per kind.
func (m *Mux) Overview() string { return kindgroups.Overview(m.KindGroups()) }

// Servers returns each server's current tool list, for building catalogs.
//
// Servers, Tools, Tool and KindGroups read one snapshot, so they always
// agree with each other; a call may see a newer list a moment earlier.
func (m *Mux) Servers() []kindgroups.Server { return slices.Clone(m.snap.Load().servers) }

// Version numbers the snapshot that KindGroups, Servers, Tools and Tool
// read. It grows whenever a tool list changes, so something built from
// them (a catalog) is current while Version is what it was when the
// building began.
func (m *Mux) Version() uint64 { return m.snap.Load().version }

// current reads every server's tool list now.
func (m *Mux) current() []kindgroups.Server {
	out := make([]kindgroups.Server, 0, len(m.names))
	for _, name := range m.names {
		sc := m.servers[name]
		info, instr := sc.self()
		out = append(out, kindgroups.Server{Name: name, Kind: sc.kind, Tools: sc.toolList(), Info: info, Instructions: instr})
	}
	return out
}

// Tools returns the tools of one server, in the server's order.
func (m *Mux) Tools(server string) ([]mcp.Tool, error) {
	if _, err := m.resolveServer(server, ""); err != nil {
		return nil, err
	}
	snap := m.snap.Load()
	return snap.servers[snap.index[server]].Tools, nil
}

// Tool returns one tool's definition.
func (m *Mux) Tool(server, tool string) (mcp.Tool, bool) {
	snap := m.snap.Load()
	i, ok := snap.index[server]
	if !ok {
		return mcp.Tool{}, false
	}
	for _, t := range snap.servers[i].Tools {
		if t.Name == tool {
			return t, true
		}
	}
	return mcp.Tool{}, false
}

// KindOf returns the kind of a server.
func (m *Mux) KindOf(server string) (string, bool) {
	sc, ok := m.servers[server]
	if !ok {
		return "", false
	}
	return sc.kind, true
}

// rebuild recomputes the kind groups from every server's current tools,
// and matches the presets against them again: the groups, the merged
// config and each server's argument handling are swapped in one snapshot.
func (m *Mux) rebuild() {
	m.snapMu.Lock()
	defer m.snapMu.Unlock()
	servers := m.current()
	index := make(map[string]int, len(servers))
	for i, s := range servers {
		index[s.Name] = i
	}
	next := &snapshot{groups: kindgroups.Fold(servers), servers: servers, index: index}
	next.cfg, next.presets = withPresets(m.file, m.all, servers)
	old := m.snap.Load()
	if old != nil {
		next.version = old.version + 1
	}
	if old != nil && samePresets(old.presets, next.presets) {
		next.cfg, next.norms = old.cfg, old.norms
	} else {
		next.norms = make(map[string]*normalizeSettings, len(m.names))
		for _, name := range m.names {
			sc := m.servers[name]
			n := resolveNormalize(next.cfg, m.reg, sc.cfg)
			if old != nil { // the compiled acceptors depend on the schemas only
				n.accept = old.norms[name].accept
			}
			next.norms[name] = &n
		}
	}
	m.snap.Store(next)
}

func (m *Mux) healthLoop() {
	defer m.wg.Done()
	t := time.NewTicker(m.rel.HealthInterval)
	defer t.Stop()
	for {
		select {
		case <-m.life.Done():
			return
		case <-t.C:
			// In parallel: one hung server must not delay the others'
			// probes by its connect timeout.
			var wg sync.WaitGroup
			for _, name := range m.names {
				wg.Go(m.servers[name].probe)
			}
			wg.Wait()
		}
	}
}
