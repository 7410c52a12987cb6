package catalog

import (
	"context"
	"math"
	"slices"
	"strings"

	"github.com/mcpfleet/mcpfleet/catalog/search"
)

// Embedder turns texts into vectors. It is the one method catalog needs of
// an embedding model; adapters wrap real models to fit it.
type Embedder = search.Embedder

// Hit is one searchTools result.
type Hit struct {
	Kind    string   `json:"kind"`
	Tool    string   `json:"tool"`
	Servers []string `json:"servers"`
	Line    string   `json:"line"`
	Score   float64  `json:"score"`
	// Loaded is true when the tool is already callable on every server in
	// Servers (sessions only).
	Loaded    bool   `json:"loaded"`
	AvoidWhen string `json:"avoid_when,omitempty"`
}

// Search limits.
const (
	DefaultK = 5
	MaxK     = 20
)

// search ranks allowed entries for query: exact tool names in the query
// first, then BM25 (fused with embeddings when an Embedder is set).
func (c *Catalog) search(ctx context.Context, query string, k int, allow func(int) bool) []search.Result {
	if k <= 0 {
		k = DefaultK
	}
	k = min(k, MaxK)
	exact := c.exactNames(query, allow)
	ranked := c.idx.Search(ctx, query, allow, k+len(exact))
	if len(exact) > 0 {
		top := 0.0
		if len(ranked) > 0 {
			top = ranked[0].Score
		}
		pinned := make([]search.Result, 0, len(exact)+len(ranked))
		for _, d := range exact {
			pinned = append(pinned, search.Result{Doc: d, Score: top + 1})
		}
		for _, s := range ranked {
			if !slices.Contains(exact, s.Doc) {
				pinned = append(pinned, s)
			}
		}
		ranked = pinned
	}
	if len(ranked) > k {
		ranked = ranked[:k]
	}
	return ranked
}

// exactNames returns the allowed entries whose tool name (or kind.tool, or
// server.tool) appears verbatim as a word of the query.
func (c *Catalog) exactNames(query string, allow func(int) bool) []int {
	var out []int
	for w := range strings.FieldsSeq(query) {
		w = strings.Trim(w, "\"'`,;:!?()[]{}")
		w = strings.TrimSuffix(w, ".")
		for _, d := range c.resolveExact(w) {
			if allow(d) && !slices.Contains(out, d) {
				out = append(out, d)
			}
		}
	}
	return out
}

// resolveExact maps "tool", "kind.tool" or "server.tool" to entries. A
// bare name of one word ("search", "find", "click") is a word of the
// request, not a name it quotes: it is left to BM25.
func (c *Catalog) resolveExact(w string) []int {
	if ds, ok := c.byTool[w]; ok && len(search.NameWords(w)) > 1 {
		return ds
	}
	if i := strings.IndexByte(w, '.'); i > 0 {
		if d, ok := c.byKey[w]; ok {
			return []int{d}
		}
		if kind, ok := c.serverKind[w[:i]]; ok {
			if d, ok := c.byKey[kind+"."+w[i+1:]]; ok {
				return []int{d}
			}
		}
	}
	return nil
}

// Search is the fleet-wide searchTools for the CLI: every entry the scopes
// in ctx permit (read-only when ctx has none). k defaults to 5, at most 20.
func (c *Catalog) Search(ctx context.Context, query string, k int) []Hit {
	scopes, _ := ScopesFrom(ctx)
	// Not Permitted(c.entries[d], …): that copies the entry, for every
	// tool the request touches. "*" is looked for once.
	all := slices.Contains(scopes, ScopeAll)
	allow := func(d int) bool { return all || permits(scopes, c.entries[d].Scopes) }
	res := c.search(ctx, query, k, allow)
	hits := make([]Hit, len(res))
	for i, s := range res {
		hits[i] = c.hit(s, c.entries[s.Doc].Servers, false)
	}
	return hits
}

func (c *Catalog) hit(s search.Result, servers []string, loaded bool) Hit {
	e := c.entries[s.Doc]
	return Hit{Kind: e.Kind, Tool: e.Tool, Servers: slices.Clone(servers), Line: e.Line,
		Score: math.Round(s.Score*1e4) / 1e4, Loaded: loaded, AvoidWhen: e.AvoidWhen}
}
