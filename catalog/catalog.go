package catalog

import (
	"encoding/json"
	"regexp"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpfleet/mcpfleet/catalog/search"
	"github.com/mcpfleet/mcpfleet/internal/tokens"
	"github.com/mcpfleet/mcpfleet/kindgroups"
)

// DefaultBudget is the catalog block budget, in o200k tokens, used when
// Config.Budget is zero.
const DefaultBudget = 1500

// MaxLineLen is the longest catalog line, in runes, hand-written or generated.
const MaxLineLen = 120

// KindConfig is the per-kind tuning a fleet file carries
// (config.kind_settings.<kind>); the caller converts it.
type KindConfig struct {
	// CoreTools are loaded at session start in mode "on".
	CoreTools []string
	// CatalogLines maps a tool to its hand-written catalog line
	// (at most MaxLineLen runes; longer lines are cut).
	CatalogLines map[string]string
	// Aliases maps a tool to the phrasings users reach for
	// ("crashloop", "rollback", "who changed"); search weights them high.
	Aliases map[string][]string
	// AvoidWhen maps a tool to a "don't use this when…" hint shown in
	// search hits and, through ToolDescription, in loaded tools.
	AvoidWhen map[string]string
	// ToolScopes maps a tool to the scopes it requires, overriding the
	// default derived from its annotations.
	ToolScopes map[string][]string
	// IDPatterns match the identifiers of this kind's objects as people
	// write them: a Jira key (OPS-412), a GitLab merge request (!4102) or
	// project path (infra/terraform). A request that carries one points
	// at the kind as plainly as one that names it.
	IDPatterns []*regexp.Regexp
}

// Config tunes Build. The zero value is valid.
type Config struct {
	Kinds map[string]KindConfig
	// ServerCoreTools maps a server to tools that are core on that server
	// only.
	ServerCoreTools map[string][]string
	// Budget is the catalog block budget in o200k tokens; 0 means
	// DefaultBudget.
	Budget int
	// Enrich, if set, is called once per entry after the defaults are
	// applied. It may change Scopes, Line, Aliases, Core and AvoidWhen;
	// changes to other fields are ignored.
	Enrich func(e *Entry)
	// Embedder, if set, makes search hybrid: BM25 fused with embedding
	// similarity by reciprocal rank fusion. Entry vectors are computed
	// once, from the first search on, and kept. Whenever embeddings fail,
	// time out or are cooling down, search answers with BM25 alone,
	// exactly as without an Embedder.
	Embedder Embedder
	// EmbedQueryPrefix and EmbedDocPrefix are put before the texts sent to
	// the Embedder for a query and for each tool entry: the instruction
	// prefixes that models such as e5 ("query: ", "passage: "), bge or
	// nomic ("search_query: ", "search_document: ") were trained with.
	// They are used as written, trailing space included.
	EmbedQueryPrefix, EmbedDocPrefix string
	// EmbedTimeout bounds how long one search waits for embeddings, first
	// for the entry vectors while they are computed, then for the query's
	// vector ([search.DefaultEmbedTimeout]); when it runs out the search answers
	// with BM25. A search never waits longer behind another's slow call.
	// Negative means no bound of the catalog's own: each search waits as
	// long as the Embedder takes, and the entry vectors are computed under
	// the searching ctx. Batch evaluations want that, so that every query
	// is ranked the same way.
	EmbedTimeout time.Duration
	// EmbedEntriesTimeout bounds the one computation of the entry vectors
	// ([search.DefaultEmbedEntriesTimeout]). Unless EmbedTimeout is negative it
	// runs apart from the search that started it, so that a large fleet
	// on a slow endpoint can take longer than EmbedTimeout; searches
	// answer with BM25 until it is done.
	EmbedEntriesTimeout time.Duration
	// EmbedCooldown is how long search leaves the Embedder alone after a
	// failure or a timeout, answering with BM25 ([search.DefaultEmbedCooldown]);
	// then one search tries again. Negative means for good: the first
	// failure turns embeddings off for the Catalog's life. An error that
	// asks for a longer wait (a [search.RetryDelayer], such as a 429's
	// Retry-After) gets it, up to [search.MaxEmbedRetryDelay]. A search its caller
	// cancelled is not a failure.
	EmbedCooldown time.Duration
	// OnEmbedError, if set, is called with the error when embeddings start
	// failing: once per outage, not per search or retry, and never for a
	// search its caller cancelled. It may run on a goroutine of its own and
	// must not block.
	OnEmbedError func(error)
	// Now is the clock of EmbedCooldown; nil means time.Now.
	Now func() time.Time
	// Synonyms extend the built-in ops lexicon: when a request says the
	// phrase (a key; one or more words, matched as written after
	// stemming), tools may say the value's words, weighed below the
	// request's own. {"blast radius": "dependencies"}. Per-tool phrasings
	// belong in KindConfig.Aliases instead.
	Synonyms map[string]string
	// NoLexicon turns the built-in lexicon off, leaving Synonyms alone.
	NoLexicon bool
	// NoRerank ranks by BM25 alone. The reranker's weights were fitted
	// to requests over this project's fixture fleet, held close to the
	// engine's own order so that they carry over to kinds they never
	// saw; a fleet unlike it may still rank better without them (compare
	// with eval-search).
	NoRerank bool
	// RerankWeights replace the reranker's built-in weights, e.g. with
	// catalog/tuning's FitRerank fit to a fleet's own queries; nil means
	// [search.DefaultRerankWeights]. They must pass [search.RerankWeights.Validate]: Build
	// panics on weights that do not, as on a programming error, so check
	// weights read from a file first (BuildFleet does
	// for a fleet file's). NoRerank wins over them.
	RerankWeights search.RerankWeights
}

// Entry is one (kind, tool), folded over the kind's servers.
type Entry struct {
	Kind, Tool string
	// Servers of the kind that have this tool, sorted.
	Servers []string
	// Line is the catalog line: hand-written, else generated from the
	// description. At most MaxLineLen runes.
	Line        string
	HandWritten bool
	Description string
	// Schema is the exact input schema of the first server (in Servers
	// order) that has the tool; schema drift is the adapter's business.
	Schema      json.RawMessage
	Annotations mcp.ToolAnnotation
	// Scopes the caller must hold to see or call the tool. See Permitted.
	Scopes []string
	// Core marks the core tier: kind CoreTools, _meta "always_load": true
	// (or "anthropic/alwaysLoad"), or the Enrich hook. Tools that are core
	// on some servers only (Config.ServerCoreTools) are not marked here;
	// sessions apply those per server.
	Core      bool
	Aliases   []string
	AvoidWhen string
}

// Key returns "kind.tool", the name that is unique across the fleet.
func (e Entry) Key() string { return e.Kind + "." + e.Tool }

// aboutOf collects what each kind's servers say of themselves at
// initialize: serverInfo names and titles, and instructions.
func aboutOf(servers []kindgroups.Server) map[string]search.About {
	out := map[string]search.About{}
	for _, s := range servers {
		k := s.KindOf()
		ab := out[k]
		// A parenthetical is a remark on the name, not the name:
		// "jaeger (jaeger-query MCP endpoint)".
		n, _, _ := strings.Cut(s.Info.Name, " (")
		if n = strings.TrimSpace(n); n != "" && !slices.Contains(ab.Names, n) {
			ab.Names = append(ab.Names, n)
		}
		if t := s.Info.Title; t != "" && !slices.Contains(ab.Titles, t) {
			ab.Titles = append(ab.Titles, t)
		}
		if in := s.Instructions; in != "" && !slices.Contains(ab.Instructions, in) {
			ab.Instructions = append(ab.Instructions, in)
		}
		out[k] = ab
	}
	return out
}

// Catalog is every tool of a fleet, folded by kind, with a search index. It
// is immutable after Build and safe for concurrent use.
type Catalog struct {
	entries    []Entry             // sorted by kind, tool
	byKey      map[string]int      // "kind.tool" -> index
	byTool     map[string][]int    // tool -> indexes, in kind order
	serverKind map[string]string   // server -> kind
	serverCore map[string][]string // server -> core tools
	tools      map[string]mcp.Tool // "kind.tool" -> definition (first server)
	budget     int
	idx        *search.Index
	searchOpt  search.Options // idx's, for tests that reweigh it
	costs      []cost         // per entry, for the catalog block
	// introCost and namesOnlyCost are the token costs of the fixed texts.
	introCost, namesOnlyCost int

	// convs is the default ActivationStore of the catalog's sessions: the
	// one mutable part of a Catalog, safe for concurrent use.
	convs MemoryStore
}

// Build folds servers into kinds and indexes every tool. Tools keep their
// exact input schemas from mcp.Tool.RawInputSchema.
func Build(servers []kindgroups.Server, cfg Config) *Catalog {
	c := &Catalog{
		byKey:      map[string]int{},
		byTool:     map[string][]int{},
		serverKind: map[string]string{},
		serverCore: map[string][]string{},
		tools:      map[string]mcp.Tool{},
		budget:     cfg.Budget,
	}
	if c.budget <= 0 {
		c.budget = DefaultBudget
	}
	for s, ts := range cfg.ServerCoreTools {
		c.serverCore[s] = slices.Clone(ts)
	}
	// Fold keeps the last tool list of a server listed twice; so does defs.
	defs := map[string]map[string]mcp.Tool{}
	for _, s := range servers {
		m := map[string]mcp.Tool{}
		for _, t := range s.Tools {
			if _, dup := m[t.Name]; !dup {
				m[t.Name] = t
			}
		}
		defs[s.Name] = m
	}
	for _, g := range kindgroups.Fold(servers) {
		kc := cfg.Kinds[g.Kind]
		for _, srv := range g.Servers {
			c.serverKind[srv] = g.Kind
		}
		for _, name := range g.Tools {
			srvs := slices.Clone(g.ToolServers[name])
			t := defs[srvs[0]][name]
			e := Entry{
				Kind:        g.Kind,
				Tool:        name,
				Servers:     srvs,
				Description: t.Description,
				Schema:      kindgroups.SchemaOf(t),
				Annotations: t.Annotations,
				Scopes:      defaultScopes(t.Annotations),
				Core:        slices.Contains(kc.CoreTools, name) || alwaysLoad(t.Meta),
				Aliases:     slices.Clone(kc.Aliases[name]),
				AvoidWhen:   kc.AvoidWhen[name],
			}
			if s, ok := kc.ToolScopes[name]; ok {
				e.Scopes = slices.Clone(s)
			}
			if l, ok := kc.CatalogLines[name]; ok && strings.TrimSpace(l) != "" {
				e.Line, e.HandWritten = clip(collapse(l), MaxLineLen), true
			} else {
				e.Line = GenerateLine(t)
			}
			if cfg.Enrich != nil {
				before := e
				cfg.Enrich(&e)
				// Only the documented fields may change.
				e.Kind, e.Tool, e.Servers = before.Kind, before.Tool, before.Servers
				e.Description, e.Schema, e.Annotations = before.Description, before.Schema, before.Annotations
				if e.Line != before.Line {
					e.Line = clip(collapse(e.Line), MaxLineLen)
				}
			}
			c.byKey[e.Key()] = len(c.entries)
			c.byTool[name] = append(c.byTool[name], len(c.entries))
			c.tools[e.Key()] = t
			c.entries = append(c.entries, e)
		}
	}
	c.searchOpt = searchOptions(cfg)
	c.searchOpt.About = aboutOf(servers)
	c.idx = search.New(docsOf(c.entries), c.searchOpt)
	c.costs = make([]cost, len(c.entries))
	for i, e := range c.entries {
		c.costs[i] = entryCost(e)
	}
	c.introCost, c.namesOnlyCost = tokens.Count(catalogIntro), tokens.Count(catalogNamesOnly)
	return c
}

// Entries returns every entry, sorted by kind then tool. The slice is a
// copy; the entries share their slices with the catalog and must not be
// modified.
func (c *Catalog) Entries() []Entry { return slices.Clone(c.entries) }

// Lookup returns the entry of tool in kind.
func (c *Catalog) Lookup(kind, tool string) (Entry, bool) {
	i, ok := c.byKey[kind+"."+tool]
	if !ok {
		return Entry{}, false
	}
	return c.entries[i], true
}

// Tool returns the full definition of (kind, tool) as the first server that
// has it sent it.
func (c *Catalog) Tool(kind, tool string) (mcp.Tool, bool) {
	t, ok := c.tools[kind+"."+tool]
	return t, ok
}

// Servers returns every server name, sorted.
func (c *Catalog) Servers() []string {
	out := make([]string, 0, len(c.serverKind))
	for s := range c.serverKind {
		out = append(out, s)
	}
	sort.Strings(out)
	return out
}

// KindOf returns the kind of a server.
func (c *Catalog) KindOf(server string) (string, bool) {
	k, ok := c.serverKind[server]
	return k, ok
}

// alwaysLoad reports a _meta flag asking for the tool to be loaded up front.
func alwaysLoad(m *mcp.Meta) bool {
	if m == nil {
		return false
	}
	for _, k := range []string{"always_load", "anthropic/alwaysLoad"} {
		if v, ok := m.AdditionalFields[k].(bool); ok && v {
			return true
		}
	}
	return false
}

// searchOptions is the engine's share of cfg.
func searchOptions(cfg Config) search.Options {
	o := search.Options{Synonyms: cfg.Synonyms, NoLexicon: cfg.NoLexicon, NoRerank: cfg.NoRerank,
		RerankWeights: cfg.RerankWeights, Embedder: cfg.Embedder,
		EmbedQueryPrefix: cfg.EmbedQueryPrefix, EmbedDocPrefix: cfg.EmbedDocPrefix, EmbedTimeout: cfg.EmbedTimeout,
		EmbedEntriesTimeout: cfg.EmbedEntriesTimeout, EmbedCooldown: cfg.EmbedCooldown, OnEmbedError: cfg.OnEmbedError, Now: cfg.Now}
	for kind, kc := range cfg.Kinds {
		if len(kc.IDPatterns) > 0 {
			if o.IDPatterns == nil {
				o.IDPatterns = map[string][]*regexp.Regexp{}
			}
			o.IDPatterns[kind] = kc.IDPatterns
		}
	}
	return o
}

// docsOf is what the engine reads of each entry.
func docsOf(entries []Entry) []search.Doc {
	docs := make([]search.Doc, len(entries))
	for i, e := range entries {
		docs[i] = search.Doc{Kind: e.Kind, Tool: e.Tool, Servers: e.Servers, Line: e.Line, Title: e.Annotations.Title,
			Description: e.Description, Schema: e.Schema, Aliases: e.Aliases}
	}
	return docs
}

// Index is the catalog's search engine; document i is Entries()[i].
// Offline tuning (catalog/tuning) reads features through it.
func (c *Catalog) Index() *search.Index { return c.idx }
