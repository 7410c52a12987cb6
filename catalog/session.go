package catalog

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpfleet/mcpfleet/catalog/search"
	"github.com/mcpfleet/mcpfleet/internal/textdist"
	"github.com/mcpfleet/mcpfleet/internal/tokens"
)

// Modes a session resolves to.
const (
	ModeOn   = "on"
	ModeOff  = "off"
	ModeAuto = "auto"
)

// DefaultContextWindow is the model context window assumed when
// SessionConfig.ContextWindow is zero.
const DefaultContextWindow = 131072

// defaultAutoPercent is the share of the context window that the full
// definitions of a slice may take before auto mode defers them.
const defaultAutoPercent = 10

// SessionConfig describes one agent run.
type SessionConfig struct {
	// Servers is the agent's slice. Empty means every server with a
	// permitted tool. Tools of other servers are deferred (mode on) or
	// unavailable (mode off).
	Servers []string
	// Scopes the agent holds; nil means ["read"].
	Scopes []string
	// Mode is "on", "off" or "auto" (the default). "auto:N%" sets the
	// threshold to N% of ContextWindow (0 < N <= 100), "auto:N" to N
	// tokens (N > 0): the same forms as the fleet file's deferred_tools.
	Mode string
	// ContextWindow is the model's context window in tokens; 0 means
	// DefaultContextWindow.
	ContextWindow int

	// ID names the session in telemetry; empty means a random ID.
	ID string
	// ConversationID, if set, makes loads outlive the run: the session
	// starts with every tool earlier sessions of the conversation loaded
	// (in mode on; mode off has nothing to load), and saves its own loads.
	// Empty means loads live for this session only.
	ConversationID string
	// Store keeps conversations' loads; nil means the catalog's own
	// in-memory store, shared by every session of the catalog.
	Store ActivationStore
	// Recorder, if set, receives every search, load and gate decision.
	Recorder Recorder
	// Preload names tools (as loadTools takes them) active from the start
	// in mode on, like core tools: they are the caller's choice, not the
	// model's, so they are neither recorded nor saved to the conversation.
	// A name that does not resolve fails NewSession with a *SessionError.
	Preload []string
}

// Ref is an active (kind, tool) and the servers it may be called on.
type Ref struct {
	Kind    string   `json:"kind"`
	Tool    string   `json:"tool"`
	Servers []string `json:"servers"`
}

// Session is one agent run's view of a catalog: its slice of servers, its
// scopes and its active set. Load changes the active set; every method is
// safe for concurrent use.
type Session struct {
	c         *Catalog
	scopes    []string
	slice     []string
	mode      string
	reason    string
	permitted []bool // per entry

	id    string
	conv  string
	store ActivationStore
	rec   Recorder

	mu     sync.Mutex
	active []map[string]bool // per entry: servers it is active on
	// gen counts changes to active; block is the catalog rendered at
	// blockGen, since counting tokens costs milliseconds.
	gen, blockGen int
	block         string
}

// NewSession is NewSessionContext with context.Background().
func (c *Catalog) NewSession(cfg SessionConfig) (*Session, error) {
	return c.NewSessionContext(context.Background(), cfg)
}

// NewSessionContext resolves cfg against the catalog. Unknown servers, and
// servers with no tool the scopes permit, are rejected with a
// *SessionError that lists the valid servers. With a ConversationID, ctx
// bounds reading the conversation's loads from the store; if that fails,
// the session is returned with a *StoreError and starts without them.
func (c *Catalog) NewSessionContext(ctx context.Context, cfg SessionConfig) (*Session, error) {
	s := &Session{c: c, scopes: slices.Clone(cfg.Scopes), id: cfg.ID, conv: cfg.ConversationID, store: cfg.Store, rec: cfg.Recorder}
	if s.id == "" {
		s.id = randomID()
	}
	if s.store == nil {
		s.store = &c.convs
	}
	if s.scopes == nil {
		s.scopes = []string{ScopeRead}
	}
	s.permitted = make([]bool, len(c.entries))
	s.active = make([]map[string]bool, len(c.entries))
	validSet := map[string]bool{}
	for i, e := range c.entries {
		s.permitted[i] = Permitted(e, s.scopes)
		if s.permitted[i] {
			for _, srv := range e.Servers {
				validSet[srv] = true
			}
		}
	}
	valid := sortedKeys(validSet)
	serr := &SessionError{ValidServers: valid}
	for _, srv := range cfg.Servers {
		if !validSet[srv] {
			serr.UnknownServers = append(serr.UnknownServers, srv)
		}
	}
	s.slice = slices.Clone(cfg.Servers)
	if len(s.slice) == 0 {
		s.slice = valid
	}
	slices.Sort(s.slice)
	s.slice = slices.Compact(s.slice)
	mode, threshold, ok := parseMode(cfg.Mode, cmp0(cfg.ContextWindow, DefaultContextWindow))
	if !ok {
		serr.BadMode = cfg.Mode
	}
	if serr.UnknownServers != nil || serr.BadMode != "" {
		return nil, serr
	}
	inSlice := func(i int) []string {
		var out []string
		for _, srv := range c.entries[i].Servers {
			if _, found := slices.BinarySearch(s.slice, srv); found {
				out = append(out, srv)
			}
		}
		return out
	}
	if mode == ModeAuto {
		var defs []mcp.Tool
		for i, e := range c.entries {
			if s.permitted[i] && len(inSlice(i)) > 0 {
				defs = append(defs, c.tools[e.Key()])
			}
		}
		n := tokens.MCPTools(defs)
		if n <= threshold {
			mode = ModeOff
			s.reason = fmt.Sprintf("auto: %d tools take %d tokens, within the %d-token threshold", len(defs), n, threshold)
		} else {
			mode = ModeOn
			s.reason = fmt.Sprintf("auto: %d tools take %d tokens, over the %d-token threshold", len(defs), n, threshold)
		}
	} else {
		s.reason = "mode " + mode + " requested"
	}
	s.mode = mode
	for i, e := range c.entries {
		if !s.permitted[i] {
			continue
		}
		for _, srv := range inSlice(i) {
			if mode == ModeOff || e.Core || slices.Contains(c.serverCore[srv], e.Tool) {
				s.activate(i, srv)
			}
		}
	}
	if mode == ModeOn && len(cfg.Preload) > 0 {
		rec := s.rec
		s.rec = nil // the caller's choice, not the model's
		s.mu.Lock()
		_, err := s.loadLocked(ctx, cfg.Preload, false)
		s.mu.Unlock()
		s.rec = rec
		var le *LoadError
		if errors.As(err, &le) {
			serr.BadPreload = le.Problems
			return nil, serr
		}
	}
	if s.conv == "" || mode == ModeOff {
		return s, nil
	}
	names, err := s.store.Load(ctx, s.conv)
	if err != nil {
		return s, &StoreError{Op: StoreOpLoad, Conversation: s.conv, Err: err}
	}
	if len(names) > 0 {
		s.mu.Lock()
		_, lerr := s.loadLocked(ctx, names, true)
		s.mu.Unlock()
		_ = lerr // tools that vanished or the scopes no longer permit stay unloaded
	}
	return s, nil
}

// randomID returns 16 hex digits for a session without an ID.
func randomID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// parseMode returns the mode and, for auto, the token threshold. It
// accepts exactly what config.ParseDeferred accepts (deferred_tools in the
// fleet file): a threshold of zero, in percent or tokens, would mean
// "always on" spelled as auto, so both reject it. catalog does not import
// config, which would pull koanf into every catalog user; a test holds the
// two rules together.
func parseMode(m string, window int) (mode string, threshold int, ok bool) {
	switch m {
	case ModeOn, ModeOff:
		return m, 0, true
	case "", ModeAuto:
		return ModeAuto, window * defaultAutoPercent / 100, true
	}
	arg, found := strings.CutPrefix(m, "auto:")
	if !found {
		return "", 0, false
	}
	if pct, isPct := strings.CutSuffix(arg, "%"); isPct {
		n, err := strconv.ParseFloat(pct, 64)
		if err != nil || !(n > 0 && n <= 100) { // also rejects NaN
			return "", 0, false
		}
		return ModeAuto, int(float64(window) * n / 100), true
	}
	n, err := strconv.Atoi(arg)
	if err != nil || n <= 0 {
		return "", 0, false
	}
	return ModeAuto, n, true
}

func (s *Session) activate(i int, srv string) bool {
	if s.active[i] == nil {
		s.active[i] = map[string]bool{}
	}
	if s.active[i][srv] {
		return false
	}
	s.active[i][srv] = true
	s.gen++
	return true
}

// Mode returns the resolved mode, "on" or "off"; auto resolves to one of
// them when the session is created.
func (s *Session) Mode() string { return s.mode }

// Reason says why the session has its mode, for logs.
func (s *Session) Reason() string { return s.reason }

// MetaTools reports whether loadTools and searchTools are offered: only in
// mode on.
func (s *Session) MetaTools() bool { return s.mode == ModeOn }

// ID returns the session's telemetry ID.
func (s *Session) ID() string { return s.id }

// ConversationID returns SessionConfig.ConversationID.
func (s *Session) ConversationID() string { return s.conv }

// Scopes returns the session's scopes.
func (s *Session) Scopes() []string { return slices.Clone(s.scopes) }

// Active returns the active tools, sorted by kind then tool.
func (s *Session) Active() []Ref {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Ref
	for i, set := range s.active {
		if len(set) == 0 {
			continue
		}
		e := s.c.entries[i]
		out = append(out, Ref{Kind: e.Kind, Tool: e.Tool, Servers: sortedKeys(set)})
	}
	return out
}

// Deferred returns exactly the permitted entries that are not active,
// each with Servers narrowed to the servers it is not active on, sorted by
// kind then tool. In mode off it is empty: there is no catalog.
func (s *Session) Deferred() []Entry {
	if s.mode == ModeOff {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.deferredLocked()
}

func (s *Session) deferredLocked() []Entry {
	var out []Entry
	for i, e := range s.c.entries {
		if !s.permitted[i] {
			continue
		}
		var rest []string
		for _, srv := range e.Servers {
			if !s.active[i][srv] {
				rest = append(rest, srv)
			}
		}
		if len(rest) > 0 {
			e.Servers = rest
			out = append(out, e)
		}
	}
	return out
}

// LoadResult is what loadTools returns to the model.
type LoadResult struct {
	Loaded        []string `json:"loaded"`
	AlreadyActive []string `json:"already_active"`
}

// Load is LoadContext with context.Background().
func (s *Session) Load(names []string) (LoadResult, error) {
	return s.LoadContext(context.Background(), names)
}

// LoadContext is the loadTools meta-tool. Each name is "tool", "kind.tool"
// or "server.tool" (the last activates that server only). Where a server
// and a kind share a name, "name.tool" is the server's tool whenever that
// server has it; see the package doc, "Loading". Valid names are
// loaded even when others fail; the failures come back as a *LoadError.
// Names the scopes do not permit are reported exactly like unknown names.
// Loading is idempotent. Load works in every mode; in mode off the model
// is offered no loadTools, so only the caller can load.
//
// With a ConversationID the newly loaded names are saved to the store;
// a store failure comes back as a *StoreError (joined with any
// *LoadError), after the tools were loaded.
func (s *Session) LoadContext(ctx context.Context, names []string) (LoadResult, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	res, err := s.loadLocked(ctx, names, false)
	if perr := s.persistLocked(ctx, res.Loaded); perr != nil {
		return res, errors.Join(err, perr)
	}
	return res, err
}

// loadLocked loads names and records the event; restored marks a restore
// from the activation store. The caller holds s.mu.
func (s *Session) loadLocked(ctx context.Context, names []string, restored bool) (LoadResult, error) {
	res := LoadResult{Loaded: []string{}, AlreadyActive: []string{}}
	lerr := &LoadError{}
	var ev []LoadedName
	seen := map[string]bool{}
	for _, raw := range names {
		name := strings.TrimSpace(raw)
		if name == "" || seen[name] {
			continue
		}
		seen[name] = true
		d, servers, prob := s.resolve(name)
		if prob != nil {
			lerr.Problems = append(lerr.Problems, *prob)
			ev = append(ev, LoadedName{Name: name, Status: prob.Reason})
			continue
		}
		added := false
		for _, srv := range servers {
			if s.activate(d, srv) {
				added = true
			}
		}
		status := LoadStatusAlreadyActive
		if added {
			res.Loaded = append(res.Loaded, name)
			status = LoadStatusLoaded
		} else {
			res.AlreadyActive = append(res.AlreadyActive, name)
		}
		ev = append(ev, LoadedName{Name: name, Tool: s.c.entries[d].Key(), Status: status})
	}
	if s.rec != nil && len(ev) > 0 {
		s.rec.RecordLoad(ctx, LoadEvent{Time: time.Now(), Session: s.id, Conversation: s.conv, Names: ev, Restored: restored})
	}
	if len(lerr.Problems) > 0 {
		return res, lerr
	}
	return res, nil
}

// resolve maps a loadTools name to an entry and the servers to activate.
//
// A bare tool name loads the tool on every server of the one permitted
// kind that has it. In "prefix.tool" the prefix is a server first: if a
// server of that name has the tool, only that server is loaded, even when
// its kind bears the same name (server "gitlab" of kind "gitlab" beside
// "gitlab-b"). Otherwise the prefix is a kind and the tool is loaded on
// every server of the kind. A kind shadowed this way is loaded whole by
// the bare tool name, or server by server; kindName says which.
func (s *Session) resolve(name string) (int, []string, *NameProblem) {
	d, servers, hits := s.lookup(name)
	switch {
	case servers != nil:
		return d, servers, nil
	case len(hits) > 1:
		p := &NameProblem{Name: name, Reason: ProblemAmbiguous}
		for _, d := range hits {
			p.Kinds = append(p.Kinds, s.c.entries[d].Kind)
			p.Options = append(p.Options, s.kindNames(d)...)
		}
		return 0, nil, p
	}
	return 0, nil, &NameProblem{Name: name, Reason: ProblemUnknown, Options: s.nearest(name, 3)}
}

// lookup is resolve without the problem report: servers is nil when name
// does not resolve, and hits then lists the kinds' entries of an
// ambiguous bare name.
func (s *Session) lookup(name string) (d int, servers []string, hits []int) {
	c := s.c
	for _, d := range c.byTool[name] {
		if s.permitted[d] {
			hits = append(hits, d)
		}
	}
	switch len(hits) {
	case 1:
		return hits[0], c.entries[hits[0]].Servers, nil
	case 0:
	default:
		return 0, nil, hits
	}
	prefix, tool, ok := strings.Cut(name, ".")
	if !ok {
		return 0, nil, nil
	}
	if kind, ok := c.serverKind[prefix]; ok {
		if d, ok := c.byKey[kind+"."+tool]; ok && s.permitted[d] && slices.Contains(c.entries[d].Servers, prefix) {
			return d, []string{prefix}, nil
		}
	}
	if d, ok := c.byKey[prefix+"."+tool]; ok && s.permitted[d] {
		return d, c.entries[d].Servers, nil
	}
	return 0, nil, nil
}

// kindNames returns the loadTools names that together load entry d on
// every server of its kind: "kind.tool" unless a server named like the
// kind takes that name, then the bare tool if no other permitted kind has
// it, else one "server.tool" per server.
func (s *Session) kindNames(d int) []string {
	e := s.c.entries[d]
	for _, name := range []string{e.Key(), e.Tool} {
		if got, srvs, _ := s.lookup(name); srvs != nil && got == d && len(srvs) == len(e.Servers) {
			return []string{name}
		}
	}
	out := make([]string, len(e.Servers))
	for i, srv := range e.Servers {
		out[i] = srv + "." + e.Tool
	}
	return out
}

// nearestSearchWeight weighs the search ranking against the edit-distance
// ranking in nearest. A misspelt name is first of all a string: search
// ranks by what the words mean (and favours short, specific names), so
// it fills in and breaks ties but should not outvote the closest spelling.
const nearestSearchWeight = 0.6

// nearest suggests up to n permitted names close to name: by edit distance
// to the tool name, and by searching for its words.
func (s *Session) nearest(name string, n int) []string {
	c := s.c
	score := map[int]float64{}
	bare := name
	if _, after, ok := strings.Cut(name, "."); ok {
		bare = after
	}
	type cand struct{ d, dist int }
	var byDist []cand
	for d, e := range c.entries {
		if !s.permitted[d] {
			continue
		}
		dist := min(textdist.Levenshtein(strings.ToLower(bare), strings.ToLower(e.Tool)), textdist.Levenshtein(strings.ToLower(name), strings.ToLower(e.Key())))
		if dist <= max(3, len(bare)/2) {
			byDist = append(byDist, cand{d, dist})
		}
	}
	slices.SortStableFunc(byDist, func(a, b cand) int { return a.dist - b.dist })
	for r, cd := range byDist[:min(len(byDist), 5)] {
		score[cd.d] += 1 / float64(r+1)
	}
	for r, sc := range c.search(context.Background(), strings.Join(search.NameWords(name), " "), 5, func(d int) bool { return s.permitted[d] }) {
		score[sc.Doc] += nearestSearchWeight / float64(r+1)
	}
	docs := make([]int, 0, len(score))
	for d := range score {
		docs = append(docs, d)
	}
	slices.SortFunc(docs, func(a, b int) int {
		if score[a] != score[b] {
			if score[a] > score[b] {
				return -1
			}
			return 1
		}
		return a - b
	})
	var out []string
	for _, d := range docs[:min(len(docs), n)] {
		out = append(out, s.displayName(d))
	}
	return out
}

// displayName is the shortest name that loads entry d on every server of
// its kind for this session: the bare tool if no other permitted kind has
// it, else kind.tool (or, for a kind shadowed by a server of its name, the
// first server's name; see kindNames).
func (s *Session) displayName(d int) string {
	names := s.kindNames(d)
	if e := s.c.entries[d]; len(names) == 1 && names[0] == e.Key() {
		for _, o := range s.c.byTool[e.Tool] {
			if o != d && s.permitted[o] {
				return e.Key()
			}
		}
		return e.Tool
	}
	return names[0]
}

// Search is the searchTools meta-tool over the session's permitted
// entries. k defaults to 5, at most 20.
func (s *Session) Search(ctx context.Context, query string, k int) []Hit {
	res := s.c.search(ctx, query, k, func(d int) bool { return s.permitted[d] })
	if s.rec != nil {
		keys := make([]string, len(res))
		for i, r := range res {
			keys[i] = s.c.entries[r.Doc].Key()
		}
		s.rec.RecordSearch(ctx, SearchEvent{Time: time.Now(), Session: s.id, Conversation: s.conv, Query: query, K: k, Results: keys})
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	hits := make([]Hit, len(res))
	for i, r := range res {
		e := s.c.entries[r.Doc]
		loaded := true
		for _, srv := range e.Servers {
			loaded = loaded && s.active[r.Doc][srv]
		}
		hits[i] = s.c.hit(r, e.Servers, loaded)
	}
	return hits
}

// Allow is AllowContext with context.Background().
func (s *Session) Allow(server, tool string) error {
	return s.AllowContext(context.Background(), server, tool)
}

// AllowContext is the execution gate: nil only if tool is active on server
// in this session and the scopes permit it. Otherwise a *GateError whose
// text tells the model what to do next. Every decision goes to the
// Recorder, so telemetry knows which loaded tools were then called.
func (s *Session) AllowContext(ctx context.Context, server, tool string) error {
	err := s.allow(server, tool)
	if s.rec != nil {
		ev := CallEvent{Time: time.Now(), Session: s.id, Conversation: s.conv, Server: server, Tool: tool, Allowed: err == nil}
		if kind, ok := s.c.serverKind[server]; ok {
			if _, found := s.c.byKey[kind+"."+tool]; found {
				ev.Tool = kind + "." + tool
			}
		}
		var ge *GateError
		if errors.As(err, &ge) {
			ev.Reason = ge.Reason
		}
		s.rec.RecordCall(ctx, ev)
	}
	return err
}

func (s *Session) allow(server, tool string) error {
	c := s.c
	kind, ok := c.serverKind[server]
	d, found := c.byKey[kind+"."+tool]
	if !ok || !found || !s.permitted[d] || !slices.Contains(c.entries[d].Servers, server) {
		return &GateError{Server: server, Tool: tool, Reason: ReasonUnknown, MetaTools: s.MetaTools()}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.active[d][server] {
		return nil
	}
	reason := ReasonNotLoaded
	if !s.MetaTools() {
		reason = ReasonNotInSession
	}
	ge := &GateError{Server: server, Tool: tool, Kind: kind, Reason: reason, MetaTools: s.MetaTools()}
	if names := s.kindNames(d); reason == ReasonNotLoaded && len(names) == 1 && names[0] != server+"."+tool {
		ge.KindName = names[0]
	}
	return ge
}

// CatalogBlock renders the deferred catalog for the model; "" in mode off
// or when nothing is deferred.
func (s *Session) CatalogBlock() string {
	if s.mode == ModeOff {
		return ""
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.blockGen != s.gen || s.block == "" {
		s.block, s.blockGen = s.c.render(s.deferredLocked()), s.gen
	}
	return s.block
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

func cmp0(v, def int) int {
	if v <= 0 {
		return def
	}
	return v
}
