package mcpfleet

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"golang.org/x/sync/semaphore"

	"github.com/mcpfleet/mcpfleet/config"
	"github.com/mcpfleet/mcpfleet/internal/pinning"
	"github.com/mcpfleet/mcpfleet/internal/upstream"
	"github.com/mcpfleet/mcpfleet/kindgroups"
)

// toolEntry is one tool with its schema compiled once, lazily.
type toolEntry struct {
	def     mcp.Tool
	once    sync.Once
	schema  *jsonschema.Schema
	decoded map[string]any
	err     error // the schema is unusable
}

func (t *toolEntry) compiled(server string) (*jsonschema.Schema, map[string]any, error) {
	t.once.Do(func() {
		t.schema, t.decoded, t.err = compileSchema(server+"/"+t.def.Name, kindgroups.SchemaOf(t.def))
	})
	return t.schema, t.decoded, t.err
}

type serverConn struct {
	m        *Mux
	name     string
	kind     string
	cfg      config.Server
	spec     upstream.Spec
	sem      *semaphore.Weighted
	brk      breaker
	inflight atomic.Int64

	mu         sync.RWMutex
	client     *client.Client
	calls      toolCaller // how calls reach client: see upstream.Caller
	gen        uint64     // bumps on every (re)connect, so a stale failure cannot mark a fresh connection down
	tools      map[string]*toolEntry
	order      []mcp.Tool // the tools listed: all but the quarantined
	all        []mcp.Tool // every tool the server lists, once each
	pins       map[string]*PinIssue
	info       mcp.Implementation // serverInfo from initialize
	instr      string             // instructions from initialize
	problems   []ToolProblem
	state      State
	lastErr    string
	reconnects int
	changed    time.Time
	retrying   bool

	refreshing, refreshPending bool

	// Lazy and background start (start.go). mode and key are fixed at
	// New; started is nil for an eager server, else closed when its
	// deferred start has finished; warning says why a lazy server fell
	// back to eager; fromCache is true until the server lists its own
	// tools.
	mode      string
	key       string
	started   chan struct{}
	startOnce sync.Once
	warning   string
	fromCache bool
}

func newServerConn(m *Mux, s config.Server) *serverConn {
	spec := upstream.Spec{
		Name: s.Name, Transport: s.Transport, Command: s.Command, Args: s.Args, Env: s.Env,
		URL: s.URL, Headers: s.Headers, Stderr: m.opts.stderr, Legacy: m.opts.legacy,
		MaxResultBytes: m.file.MaxResultBytesOf(s),
	}
	if ip, ok := m.opts.inprocess[s.Name]; ok {
		spec.Transport, spec.InProcess = "inprocess", ip.srv
	}
	inflight := s.MaxInFlight
	if inflight <= 0 {
		inflight = config.DefaultMaxInFlight
	}
	return &serverConn{m: m, name: s.Name, kind: s.KindName(), cfg: s, spec: spec,
		sem: semaphore.NewWeighted(int64(inflight)), state: StateConnecting, changed: time.Now(),
		brk:  breaker{limit: breakerLimit(m.rel.Breaker), cooldown: m.rel.Breaker.Cooldown},
		mode: m.file.StartMode(s), key: launchKey(s)}
}

func (sc *serverConn) connectTimeout() time.Duration {
	if sc.cfg.ConnectTimeout > 0 {
		return sc.cfg.ConnectTimeout
	}
	return 20 * time.Second
}

func (sc *serverConn) callTimeout() time.Duration {
	if sc.cfg.CallTimeout > 0 {
		return sc.cfg.CallTimeout
	}
	return 60 * time.Second
}

// connect dials, lists tools and marks the server up.
func (sc *serverConn) connect(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, sc.connectTimeout())
	defer cancel()
	// A stdio child that exits marks its own generation down at once; the
	// generation is known only after the handshake, so the watch records
	// an early exit and connect checks it.
	var w struct {
		sync.Mutex
		gen    uint64
		exited bool
	}
	spec := sc.spec
	spec.OnExit = func() {
		w.Lock()
		w.exited = true
		gen := w.gen
		w.Unlock()
		if gen != 0 {
			sc.markDown(gen, errors.New("the server process exited"))
		}
	}
	c, initRes, err := upstream.Dial(ctx, sc.m.life, spec)
	if err != nil {
		sc.markDown(0, err)
		return err
	}
	tools, err := c.ListTools(ctx, mcp.ListToolsRequest{}) // follows nextCursor
	if err != nil {
		_ = c.Close()
		err = fmt.Errorf("tools/list: %w", err)
		sc.markDown(0, err)
		return err
	}
	sc.mu.Lock()
	if sc.state == StateClosed {
		sc.mu.Unlock()
		_ = c.Close()
		return errors.New("closed")
	}
	old := sc.client
	sc.client = c
	sc.calls = c
	if k := upstream.NewCaller(c, spec, initRes); k != nil {
		sc.calls = k
	}
	sc.gen++
	gen := sc.gen
	if initRes != nil {
		sc.info, sc.instr = initRes.ServerInfo, initRes.Instructions
	}
	sc.setToolsLocked(tools.Tools)
	sc.state, sc.lastErr, sc.changed = StateUp, "", time.Now()
	sc.mu.Unlock()
	sc.brk.reset()
	if old != nil {
		_ = old.Close()
	}
	w.Lock()
	w.gen = gen
	exited := w.exited
	w.Unlock()
	if exited {
		sc.markDown(gen, errors.New("the server process exited"))
		return errors.New("the server process exited during startup")
	}
	c.OnNotification(func(n mcp.JSONRPCNotification) {
		switch n.Method {
		case string(mcp.MethodNotificationToolsListChanged):
			go sc.refresh(gen)
		case string(mcp.MethodNotificationSubscriptionsAcknowledged):
			// The stream opens after tools/list was read: a change in
			// between sent no notification to us, so look once more.
			go sc.refresh(gen)
		}
	})
	// Over streamable HTTP on the 2026 protocol, notifications flow only on
	// a subscription stream; elsewhere this fails harmlessly.
	if sc.spec.Transport != "inprocess" {
		_, _ = c.ListenAsync(sc.m.life, mcp.SubscriptionFilter{ToolsListChanged: true}, nil)
	}
	sc.m.log.Info("server up", "server", sc.name, "kind", sc.kind, "tools", len(tools.Tools))
	return nil
}

func (sc *serverConn) setToolsLocked(list []mcp.Tool) {
	tools := make(map[string]*toolEntry, len(list))
	order := make([]mcp.Tool, 0, len(list))
	names := make([]string, len(list))
	for i, t := range list {
		names[i] = t.Name
	}
	sc.problems = listProblems(sc.name, names)
	all := make([]mcp.Tool, 0, len(list))
	seen := make(map[string]bool, len(list))
	for _, t := range list {
		if seen[t.Name] {
			sc.m.log.Warn("server lists a tool twice; keeping the first", "server", sc.name, "tool", t.Name)
			continue
		}
		seen[t.Name] = true
		all = append(all, sc.m.defs.tool(normalizeTool(t)))
	}
	var pins map[string]*PinIssue
	if sc.m.pin != nil {
		pins = sc.m.pin.check(sc.name, sc.kind, all, sc.m.otherKindsTools(sc.kind, all))
		sc.logPins(sc.pins, pins)
	}
	for _, t := range all {
		if is := pins[t.Name]; is != nil && is.Quarantined {
			continue
		}
		tools[t.Name] = &toolEntry{def: t}
		order = append(order, t)
	}
	sc.tools, sc.order, sc.all, sc.pins = tools, order, all, pins
}

// interner keeps one copy of each tool description and input schema, so
// that a fleet of five identical servers holds their definitions once,
// not five times. Entries stay for the Mux's life; they are bounded by
// the distinct definitions the fleet ever listed.
type interner struct {
	mu      sync.Mutex
	descs   map[string]string
	schemas map[[sha256.Size]byte]json.RawMessage
}

// tool returns t with its description and raw input schema replaced by
// the copies already held, when there are.
func (in *interner) tool(t mcp.Tool) mcp.Tool {
	sum := sha256.Sum256(t.RawInputSchema)
	in.mu.Lock()
	defer in.mu.Unlock()
	if in.descs == nil {
		in.descs, in.schemas = map[string]string{}, map[[sha256.Size]byte]json.RawMessage{}
	}
	if d, ok := in.descs[t.Description]; ok {
		t.Description = d
	} else {
		in.descs[t.Description] = t.Description
	}
	if s, ok := in.schemas[sum]; ok {
		t.RawInputSchema = s
	} else {
		in.schemas[sum] = t.RawInputSchema
	}
	return t
}

// normalizeTool keeps a tool's input schema as JSON, so kinds compare and
// render, and pins hash, exactly what was received.
func normalizeTool(t mcp.Tool) mcp.Tool {
	if len(t.RawInputSchema) == 0 {
		t.RawInputSchema = schemaJSON(t.InputSchema)
		t.InputSchema = mcp.ToolInputSchema{}
	}
	return t
}

// repin checks the current tools against the lock once more.
func (sc *serverConn) repin() {
	sc.mu.Lock()
	defer sc.mu.Unlock()
	if sc.all != nil {
		sc.setToolsLocked(sc.all)
	}
}

// schemaJSON re-encodes a schema decoded by mcp-go's client, which keeps
// only type, properties, required, $defs and additionalProperties. A server
// that sends no "type" (some do) still means an object, and empty fields are
// left out rather than sent as "" or null.
func schemaJSON(in mcp.ToolInputSchema) json.RawMessage {
	m := map[string]any{"type": in.Type}
	if in.Type == "" {
		m["type"] = "object"
	}
	if in.Properties != nil {
		m["properties"] = in.Properties
	}
	if len(in.Required) > 0 {
		m["required"] = in.Required
	}
	if in.Defs != nil {
		m["$defs"] = in.Defs
	}
	if in.AdditionalProperties != nil {
		m["additionalProperties"] = in.AdditionalProperties
	}
	b, err := json.Marshal(m)
	if err != nil {
		return json.RawMessage(`{"type":"object"}`)
	}
	return b
}

// refresh re-fetches the tool list after tools/list_changed. Notifications
// that arrive during a fetch set a flag that makes the running fetch go
// again, so the last change is never lost, and a burst of notifications
// costs at most two fetches.
func (sc *serverConn) refresh(gen uint64) {
	sc.mu.Lock()
	sc.refreshPending = true
	if sc.refreshing {
		sc.mu.Unlock()
		return
	}
	sc.refreshing = true
	sc.mu.Unlock()
	for {
		sc.mu.Lock()
		c, cur := sc.client, sc.gen
		if !sc.refreshPending || c == nil || cur != gen {
			sc.refreshing, sc.refreshPending = false, false
			sc.mu.Unlock()
			return
		}
		sc.refreshPending = false
		sc.mu.Unlock()
		ctx, cancel := context.WithTimeout(sc.m.life, sc.connectTimeout())
		res, err := c.ListTools(ctx, mcp.ListToolsRequest{})
		cancel()
		if err != nil {
			sc.m.log.Warn("tools/list after list_changed failed", "server", sc.name, "err", err)
			continue // the flag decides; the probe catches what is left
		}
		if sc.replaceIfChanged(gen, res.Tools) {
			sc.m.rebuild()
			sc.m.saveToolCache()
		}
	}
}

// markDown records a failure of connection generation gen (0 = the dial
// itself) and starts reconnecting.
func (sc *serverConn) markDown(gen uint64, err error) {
	sc.mu.Lock()
	if gen != 0 && gen != sc.gen {
		sc.mu.Unlock()
		return
	}
	if sc.state == StateClosed {
		sc.mu.Unlock()
		return
	}
	wasUp := sc.state == StateUp
	sc.state, sc.lastErr, sc.changed = StateDown, err.Error(), time.Now()
	c := sc.client
	sc.client, sc.calls = nil, nil
	sc.mu.Unlock()
	if c != nil {
		_ = c.Close()
	}
	if wasUp {
		sc.m.log.Warn("server down", "server", sc.name, "err", err)
		sc.startReconnect()
	}
}

// startReconnect retries with exponential backoff and full jitter, capped.
func (sc *serverConn) startReconnect() {
	sc.mu.Lock()
	if sc.retrying || sc.state == StateClosed {
		sc.mu.Unlock()
		return
	}
	sc.retrying = true
	sc.mu.Unlock()
	sc.m.wg.Add(1)
	go func() {
		defer sc.m.wg.Done()
		defer func() { sc.mu.Lock(); sc.retrying = false; sc.mu.Unlock() }()
		base, ceiling := 200*time.Millisecond, 30*time.Second
		for attempt := 0; ; attempt++ {
			d := min(ceiling, base<<min(attempt, 20))
			wait := time.Duration(rand.Int64N(int64(d) + 1))
			select {
			case <-sc.m.life.Done():
				return
			case <-time.After(wait):
			}
			if err := sc.connect(sc.m.life); err == nil {
				sc.mu.Lock()
				sc.reconnects++
				sc.mu.Unlock()
				sc.m.rebuild()
				sc.m.saveToolCache()
				if mt := sc.m.opts.metrics; mt != nil {
					mt.Reconnected(sc.m.life, sc.name)
				}
				return
			}
		}
	}()
}

// probe lists tools on an up server to notice one that died quietly (on
// the 2026 protocol Ping sends nothing, so tools/list is the probe), and
// picks up a changed tool list whose notification was lost.
func (sc *serverConn) probe() {
	sc.mu.RLock()
	c, gen, state := sc.client, sc.gen, sc.state
	sc.mu.RUnlock()
	if c == nil || state != StateUp {
		return
	}
	ctx, cancel := context.WithTimeout(sc.m.life, sc.connectTimeout())
	defer cancel()
	res, err := c.ListTools(ctx, mcp.ListToolsRequest{})
	if err != nil {
		if sc.m.life.Err() == nil {
			sc.markDown(gen, fmt.Errorf("health probe: %w", err))
		}
		return
	}
	if sc.replaceIfChanged(gen, res.Tools) {
		sc.m.rebuild()
		sc.m.saveToolCache()
	}
}

// replaceIfChanged swaps in list if it differs from the current tools of
// generation gen, and reports whether it did.
func (sc *serverConn) replaceIfChanged(gen uint64, list []mcp.Tool) bool {
	sc.mu.Lock()
	defer sc.mu.Unlock()
	if sc.gen != gen || sameTools(sc.all, list) {
		return false
	}
	sc.setToolsLocked(list)
	sc.changed = time.Now()
	return true
}

func sameTools(have, got []mcp.Tool) bool {
	if len(have) != len(got) {
		return false
	}
	for i := range have {
		// Every pinned field counts: a rug pull may change only an
		// annotation or the output schema.
		if have[i].Name != got[i].Name || have[i].Description != got[i].Description ||
			!bytes.Equal(pinning.Canonical(have[i]), pinning.Canonical(normalizeTool(got[i]))) {
			return false
		}
	}
	return true
}

// markClosed marks the server closed and hands back its client, if any, for
// the caller to close.
func (sc *serverConn) markClosed() *client.Client {
	sc.mu.Lock()
	defer sc.mu.Unlock()
	c := sc.client
	sc.client, sc.calls = nil, nil
	sc.state, sc.changed = StateClosed, time.Now()
	return c
}

func (sc *serverConn) toolList() []mcp.Tool {
	sc.mu.RLock()
	defer sc.mu.RUnlock()
	return sc.order
}

// self returns what the server said of itself at initialize.
func (sc *serverConn) self() (mcp.Implementation, string) {
	sc.mu.RLock()
	defer sc.mu.RUnlock()
	return sc.info, sc.instr
}

func (sc *serverConn) tool(name string) *toolEntry {
	sc.mu.RLock()
	defer sc.mu.RUnlock()
	return sc.tools[name]
}

func (sc *serverConn) toolNames() []string {
	sc.mu.RLock()
	defer sc.mu.RUnlock()
	names := make([]string, 0, len(sc.order))
	for _, t := range sc.order {
		names = append(names, t.Name)
	}
	return names
}

// live returns how to call the current client and its generation, or an
// error if down.
func (sc *serverConn) live() (toolCaller, uint64, State, string) {
	sc.mu.RLock()
	defer sc.mu.RUnlock()
	if sc.client == nil {
		return nil, sc.gen, sc.state, sc.lastErr
	}
	return sc.calls, sc.gen, sc.state, sc.lastErr
}

// toolCaller is what a call needs of a connection: a *client.Client, or
// the upstream.Caller that stands in for it on stdio and in process.
type toolCaller interface {
	CallTool(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error)
}
