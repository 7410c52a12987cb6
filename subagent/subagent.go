package subagent

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/cloudwego/eino/adk"
	"github.com/cloudwego/eino/adk/middlewares/patchtoolcalls"
	"github.com/cloudwego/eino/components/model"
	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/compose"
	"github.com/cloudwego/eino/schema"

	"github.com/mcpfleet/mcpfleet"
	mcpeino "github.com/mcpfleet/mcpfleet/adapters/eino"
	"github.com/mcpfleet/mcpfleet/catalog"
)

// Defaults for zero Config fields.
const (
	DefaultMaxSteps   = 12
	DefaultMaxServers = 3
	// DefaultToolBudget bounds, in o200k tokens, the slice tool definitions
	// activated before the first model call in mode on.
	DefaultToolBudget = 8000
	// serverParamTokens estimates what the added "server" parameter costs.
	serverParamTokens = 20
	// MaxTools is the most tool definitions one model call carries: folded
	// tools, loadTools and searchTools, readResult and grepResult. Common
	// model APIs refuse more than 128. Preloading stops short of it and
	// loadTools refuses a load that would pass it.
	MaxTools = 128
	// reservedTools are MaxTools' places kept for the meta and result tools.
	reservedTools = 4
)

// Config configures a subagent. Servers and Model are required.
type Config struct {
	// Servers is the slice whose full tools the subagent holds: 1..MaxServers
	// known servers with at least one permitted tool.
	Servers []string
	// Model drives the agent. Required (see adapters/eino/openai.ModelFromEnv).
	Model model.ToolCallingChatModel
	// Scopes limit the tools (catalog scopes: "read", "write", "*"). Nil means
	// the scopes in ctx (catalog.WithScopes), else read-only.
	Scopes []string
	// MaxSteps bounds model calls; the last one must answer (tool choice none).
	MaxSteps int
	// Instruction replaces the default framing; the slice and catalog are appended.
	Instruction string
	// MaxServers bounds len(Servers); default 3.
	MaxServers int
	// Mode is the deferred-tools mode: on, off, auto, auto:N%, auto:N.
	// Empty means the fleet file's deferred_tools, else auto.
	Mode string
	// Name names the agent in events and reports; default "subagent".
	Name string
	// ContextWindow of the model in tokens, for auto mode; default 131072.
	ContextWindow int
	// ToolBudget bounds the slice's preloaded tool definitions in mode on
	// (default 8000 tokens); kinds over it start with core tools only.
	ToolBudget int
	// Catalog, if set, is used instead of building one from the Mux (and the
	// fleet file's kind_settings). Share one across subagents to save work.
	Catalog *catalog.Catalog
	// Multimodal passes images in tool results to the model as image parts
	// (adapters/eino.MultimodalTool) besides the text rendering. Leave it
	// off for models that take only text in tool messages (OpenAI chat
	// completions); images are then referenced by MIME type and size.
	Multimodal bool
	// ConversationID, if set, keeps the tools loadTools loaded for the next
	// subagent of the same conversation (see catalog.SessionConfig).
	ConversationID string
	// Store keeps conversations' loads; nil means the catalog's in-memory store.
	Store catalog.ActivationStore
	// Recorder, if set, receives every searchTools, loadTools and gate decision.
	Recorder catalog.Recorder
	// Cache, if set, shares tool-definition conversions with the other
	// subagents of the Mux (the orchestrator sets one); building a subagent
	// is then mostly lookups. Nil gives the subagent a cache of its own.
	Cache *mcpeino.Cache
}

// Subagent is an adk ChatModelAgent over a few servers' full tools, with the
// rest of the fleet reachable through loadTools and searchTools.
//
// Run and RunMessages are serialised: one Subagent runs one task at a time.
// Tools loaded in one run stay loaded for the next, so a conversation
// continued with RunMessages keeps what earlier turns loaded.
type Subagent struct {
	mx    *mcpfleet.Mux
	cat   *catalog.Catalog
	cfg   Config
	sess  *catalog.Session
	plan  mcpeino.Plan
	tools map[string]*mcpeino.Tool // by model-facing name
	order []string                 // plan order of tool names
	meta  []tool.BaseTool
	// results are readResult and grepResult, offered once a result has
	// been offloaded in this run: until then they would only cost tokens.
	results []tool.BaseTool
	mw      *middleware
	agent   *adk.ChatModelAgent
	runMu   sync.Mutex
	instr   string
	run     *runState
}

// New builds a subagent. It fails with a *ServersError when the servers are
// not 1..MaxServers known, permitted servers.
func New(ctx context.Context, mx *mcpfleet.Mux, cfg Config) (*Subagent, error) {
	sa, err := prepare(ctx, mx, cfg)
	if err != nil {
		return nil, err
	}
	if sa.cfg.Model == nil {
		return nil, errors.New("subagent: Config.Model is required")
	}
	if err := sa.build(ctx); err != nil {
		return nil, err
	}
	return sa, nil
}

// prepare validates cfg and opens the catalog session; it needs no model.
func prepare(ctx context.Context, mx *mcpfleet.Mux, cfg Config) (*Subagent, error) {
	if cfg.MaxServers <= 0 {
		cfg.MaxServers = DefaultMaxServers
	}
	if cfg.MaxSteps <= 0 {
		cfg.MaxSteps = DefaultMaxSteps
	}
	if cfg.Name == "" {
		cfg.Name = "subagent"
	}
	if cfg.Mode == "" && mx.Config() != nil {
		cfg.Mode = mx.Config().DeferredTools
	}
	if cfg.Scopes == nil {
		cfg.Scopes, _ = catalog.ScopesFrom(ctx)
	}
	cfg.Servers = slices.Clone(cfg.Servers)
	if cfg.Cache == nil {
		cfg.Cache = mcpeino.NewCache() // still pays off: every model call rebuilds the active ToolInfos
	}
	cat := cfg.Catalog
	if cat == nil {
		var err error
		if cat, err = catalog.BuildFleet(mx.Servers(), mx.Config()); err != nil {
			return nil, fmt.Errorf("subagent: %w", err)
		}
	}
	// Validate against the catalog with every permitted server, so the error
	// lists what would have been accepted.
	all, err := cat.NewSession(catalog.SessionConfig{Scopes: cfg.Scopes, Mode: catalog.ModeOff})
	if err != nil {
		return nil, fmt.Errorf("subagent: %w", err)
	}
	valid := permittedServers(all)
	serr := &ServersError{Given: cfg.Servers, Valid: valid, Max: cfg.MaxServers}
	for _, s := range cfg.Servers {
		if !slices.Contains(valid, s) {
			serr.Unknown = append(serr.Unknown, s)
		}
	}
	if len(cfg.Servers) == 0 || len(cfg.Servers) > cfg.MaxServers || serr.Unknown != nil {
		return nil, serr
	}
	sess, err := openSession(ctx, cat, cfg)
	if err != nil {
		return nil, fmt.Errorf("subagent: %w", err)
	}
	sa := &Subagent{mx: mx, cat: cat, cfg: cfg, sess: sess, tools: map[string]*mcpeino.Tool{}, run: &runState{}}
	sa.plan = mcpeino.Fold(mx.KindGroups(), mx.Tool)
	for _, s := range sa.plan.Specs {
		// Tools no scope permits are left out of the ToolsNode: the gate
		// would refuse them anyway, and each costs a schema conversion.
		if e, ok := cat.Lookup(s.Kind, s.Tool); ok && !catalog.Permitted(e, sess.Scopes()) {
			continue
		}
		t, err := cfg.Cache.NewTool(mx, s, sa.record)
		if err != nil {
			return nil, fmt.Errorf("subagent: %w", err)
		}
		sa.tools[s.Name] = t
		sa.order = append(sa.order, s.Name)
	}
	sa.instr = sa.instruction()
	return sa, nil
}

// openSession opens the catalog session of a subagent. The catalog's own
// modes are about one flat agent; for a subagent they mean:
//   - off: only the slice's tools, no meta-tools;
//   - on: the slice's tools all active, every other permitted tool of the
//     fleet deferred behind loadTools and searchTools;
//   - auto (and auto:N): if every permitted tool of the fleet fits the
//     threshold, all of them active and no meta-tools; otherwise as on.
func openSession(ctx context.Context, cat *catalog.Catalog, cfg Config) (*catalog.Session, error) {
	base := catalog.SessionConfig{Servers: cfg.Servers, Scopes: cfg.Scopes, Mode: cfg.Mode, ContextWindow: cfg.ContextWindow,
		ConversationID: cfg.ConversationID, Store: cfg.Store, Recorder: cfg.Recorder}
	switch cfg.Mode {
	case catalog.ModeOff:
		return cat.NewSession(base)
	case catalog.ModeOn:
	default:
		probe := base
		probe.Servers = nil
		s, err := cat.NewSession(probe)
		if err != nil {
			return nil, err
		}
		if s.Mode() == catalog.ModeOff {
			return s, nil
		}
	}
	base.Mode = catalog.ModeOn
	scopes := cfg.Scopes
	if scopes == nil {
		scopes = []string{catalog.ScopeRead} // what the session assumes
	}
	base.Preload = preload(cat, scopes, cfg.Servers, cfg.ToolBudget, cfg.Cache)
	s, err := cat.NewSessionContext(ctx, base)
	var se *catalog.StoreError
	if errors.As(err, &se) {
		return s, nil // the conversation's earlier loads are lost, the run is not
	}
	return s, err
}

// preload picks the slice tools to activate up front in mode on: kind by
// kind, cheapest first, every permitted tool of the kind's slice servers
// while the running total of definitions stays within budget. A kind that
// does not fit keeps only its core tools active (kind_settings.core_tools);
// the rest stay in the deferred catalog, one loadTools away. This keeps a
// 3-server slice with a 63-tool GitLab under 10k tokens.
func preload(cat *catalog.Catalog, scopes, servers []string, budget int, cache *mcpeino.Cache) []string {
	if budget <= 0 {
		budget = DefaultToolBudget
	}
	type kindCost struct {
		kind  string
		names []string
		cost  int
		tools int // folded tools: one per (kind, tool)
	}
	byKind := map[string]*kindCost{}
	var order []*kindCost
	for _, e := range cat.Entries() {
		if !catalog.Permitted(e, scopes) {
			continue
		}
		var names []string
		for _, srv := range e.Servers {
			if slices.Contains(servers, srv) {
				names = append(names, srv+"."+e.Tool)
			}
		}
		if names == nil {
			continue
		}
		kc := byKind[e.Kind]
		if kc == nil {
			kc = &kindCost{kind: e.Kind}
			byKind[e.Kind] = kc
			order = append(order, kc)
		}
		kc.names = append(kc.names, names...)
		kc.tools++
		if t, ok := cat.Tool(e.Kind, e.Tool); ok {
			kc.cost += cache.ToolTokens(t) + serverParamTokens
		}
	}
	slices.SortStableFunc(order, func(a, b *kindCost) int { return a.cost - b.cost })
	var out []string
	used, tools := 0, 0
	for _, kc := range order {
		if used+kc.cost > budget || tools+kc.tools > MaxTools-reservedTools {
			continue
		}
		used += kc.cost
		tools += kc.tools
		out = append(out, kc.names...)
	}
	return out
}

func permittedServers(s *catalog.Session) []string {
	set := map[string]bool{}
	for _, r := range s.Active() {
		for _, srv := range r.Servers {
			set[srv] = true
		}
	}
	out := make([]string, 0, len(set))
	for k := range set {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

func (sa *Subagent) instruction() string {
	in := sa.cfg.Instruction
	if in == "" {
		in = defaultInstruction
	}
	on := map[string]bool{}
	for _, r := range sa.sess.Active() {
		for _, srv := range r.Servers {
			on[srv] = true
		}
	}
	kindOf := func(s string) string { k, _ := sa.mx.KindOf(s); return k }
	block := sa.sess.CatalogBlock()
	in += "\n\n" + slicePrompt(sa.cfg.Servers, kindOf, func(s string) bool { return on[s] }, block != "")
	if block != "" {
		in += "\n\n" + catalogPrompt(block)
	}
	return in
}

func (sa *Subagent) build(ctx context.Context) error {
	sa.mw = &middleware{BaseChatModelAgentMiddleware: &adk.BaseChatModelAgentMiddleware{}, sa: sa}
	// History from earlier runs may end in a tool call that never got its
	// result (a cancelled run); OpenAI-compatible servers reject that.
	patch, err := patchtoolcalls.New(ctx, &patchtoolcalls.Config{
		PatchedContentGenerator: func(_ context.Context, name, _ string) (string, error) { return danglingText(name), nil },
	})
	if err != nil {
		return fmt.Errorf("subagent: %w", err)
	}
	all := make([]tool.BaseTool, 0, len(sa.order)+2)
	for _, n := range sa.order {
		if sa.cfg.Multimodal {
			all = append(all, sa.tools[n].Multimodal())
		} else {
			all = append(all, sa.tools[n])
		}
	}
	if sa.sess.MetaTools() {
		sa.meta = metaTools(sa)
		all = append(all, sa.meta...)
	}
	sa.results = mcpeino.ResultTools(sa.mx)
	all = append(all, sa.results...)
	agent, err := adk.NewChatModelAgent(ctx, &adk.ChatModelAgentConfig{
		Name:          sa.cfg.Name,
		Description:   "Works on servers " + fmt.Sprint(sa.cfg.Servers),
		Instruction:   sa.instr,
		Model:         sa.cfg.Model,
		MaxIterations: sa.cfg.MaxSteps + 1,
		ToolsConfig: adk.ToolsConfig{ToolsNodeConfig: compose.ToolsNodeConfig{
			Tools: all,
			UnknownToolsHandler: func(ctx context.Context, name, input string) (string, error) {
				return unknownToolText(name, sa.sess.MetaTools()), nil
			},
		}},
		Handlers: []adk.ChatModelAgentMiddleware{patch, sa.mw},
	})
	if err != nil {
		return fmt.Errorf("subagent: %w", err)
	}
	sa.agent = agent
	return nil
}

// activeServers maps "kind.tool" to the servers the session has it
// active on.
func (sa *Subagent) activeServers() map[string][]string {
	active := map[string][]string{}
	for _, r := range sa.sess.Active() {
		active[r.Kind+"."+r.Tool] = r.Servers
	}
	return active
}

// shown is the server enum the model sees for s: its servers that are
// active, in the spec's order.
func shown(s mcpeino.Spec, active map[string][]string) []string {
	servers := active[s.Kind+"."+s.Tool]
	var keep []string
	for _, srv := range s.Servers {
		if slices.Contains(servers, srv) {
			keep = append(keep, srv)
		}
	}
	return keep
}

// Agent returns the underlying adk agent, e.g. to wrap it with adk.NewAgentTool.
// Reports are only produced by Run and RunMessages.
func (sa *Subagent) Agent() *adk.ChatModelAgent { return sa.agent }

// Servers returns the slice.
func (sa *Subagent) Servers() []string { return slices.Clone(sa.cfg.Servers) }

// Session returns the catalog session (active and deferred tools).
func (sa *Subagent) Session() *catalog.Session { return sa.sess }

// activeInfos is the tool list for the next model call: the folded tools of
// every active (kind, tool), with the server enum narrowed to the servers it
// is active on, in plan order, then the meta-tools.
// A tool active on one server only is shown bound to it, without a server
// parameter (see adapters/eino Tool.InfoFor).
func (sa *Subagent) activeInfos() ([]*schema.ToolInfo, error) {
	active := sa.activeServers()
	var out []*schema.ToolInfo
	for _, n := range sa.order {
		t := sa.tools[n]
		s := t.Spec()
		keep := shown(s, active)
		if len(keep) == 0 {
			continue
		}
		info, err := t.InfoFor(keep)
		if err != nil {
			return nil, err
		}
		if e, ok := sa.cat.Lookup(s.Kind, s.Tool); ok && e.AvoidWhen != "" {
			c := *info
			c.Desc = catalog.ToolDescription(info.Desc, e.AvoidWhen)
			info = &c
		}
		out = append(out, info)
	}
	for _, m := range sa.meta {
		info, _ := m.Info(context.Background())
		out = append(out, info)
	}
	if sa.run.sawOffload() {
		for _, r := range sa.results {
			info, _ := r.Info(context.Background())
			out = append(out, info)
		}
	}
	return out, nil
}
