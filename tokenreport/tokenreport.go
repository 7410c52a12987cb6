package tokenreport

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpfleet/mcpfleet"
	"github.com/mcpfleet/mcpfleet/catalog"
	"github.com/mcpfleet/mcpfleet/internal/gateway"
	"github.com/mcpfleet/mcpfleet/internal/tokens"
	"github.com/mcpfleet/mcpfleet/kindgroups"
	"github.com/mcpfleet/mcpfleet/subagent"
)

// Count returns the o200k tokens of s.
func Count(s string) int { return tokens.Count(s) }

// Tools returns the o200k tokens of tools serialized as one chat-API tools
// array: name, description and exact input schema of each.
func Tools(tools []mcp.Tool) int { return tokens.MCPTools(tools) }

// Report is every figure of a fleet, in o200k tokens. Its JSON field names
// are a contract of `mcpfleet tokens --json`.
type Report struct {
	Servers int `json:"servers"`
	// Pairs counts (server, tool) pairs: every copy of every tool.
	Pairs int `json:"pairs"`
	// UniqueTools counts (kind, tool) pairs: tools after folding identical
	// servers into kinds.
	UniqueTools int `json:"unique_tools"`
	// FullTokens is the sum over servers of each server's tools serialized
	// as one chat API tools array (name, description, exact schema): what an
	// agent wired to every server separately would be sent. It is the sum of
	// PerServer.
	FullTokens int `json:"full_tokens"`
	// KindsTokens is the "kind (servers): tool, tool, …" lines, one per kind,
	// tool names deduplicated and without schemas.
	KindsTokens int `json:"kinds_tokens"`
	// OrchestratorTokens is the overview: one "kind: servers" line per kind.
	OrchestratorTokens int `json:"orchestrator_tokens"`
	// CatalogTokens is the deferred catalog block of the whole fleet, at
	// the default budget, for a session over every server in mode "on".
	CatalogTokens int `json:"catalog_tokens"`
	// GatewayTokens is the tool definitions `mcpfleet serve` gives a
	// client (listKinds, searchTools, describeTools, callTool, readResult,
	// grepResult): all of the fleet a client carries, whatever its size.
	GatewayTokens int            `json:"gateway_tokens"`
	PerServer     map[string]int `json:"per_server"`
	// Subagent is set when Options.Servers names a slice: what a subagent
	// over that slice is sent on its first model call.
	Subagent *subagent.SliceCost `json:"subagent,omitempty"`
	// SubagentTokens repeats Subagent.Total at the top level; absent
	// without a slice.
	SubagentTokens int `json:"subagent_tokens,omitempty"`
}

// Options says what to measure beyond the fleet-wide views.
type Options struct {
	// Scopes for the catalog and subagent figures; nil means every scope.
	Scopes []string
	// Servers, if set, measures a subagent over this slice too.
	Servers []string
	// Catalog is reused if set; otherwise one is built from the Mux.
	Catalog *catalog.Catalog
	// CatalogConfig builds the catalog when Catalog is nil.
	CatalogConfig catalog.Config
}

// Measure computes the report for the fleet as mx sees it now.
func Measure(ctx context.Context, mx *mcpfleet.Mux, opts Options) (*Report, error) {
	scopes := opts.Scopes
	if len(scopes) == 0 {
		scopes = []string{catalog.ScopeAll}
	}
	servers := mx.Servers()
	groups := mx.KindGroups()
	rep := &Report{Servers: len(servers), PerServer: map[string]int{},
		KindsTokens:        Count(KindLines(groups)),
		OrchestratorTokens: Count(mx.Overview())}
	for _, s := range servers {
		n := Tools(s.Tools)
		rep.PerServer[s.Name] = n
		rep.FullTokens += n
		rep.Pairs += len(s.Tools)
	}
	for _, g := range groups {
		rep.UniqueTools += len(g.Tools)
	}
	cat := opts.Catalog
	if cat == nil {
		cat = catalog.Build(servers, opts.CatalogConfig)
	}
	// An empty fleet has no session and so no catalog: 0 tokens.
	if sess, err := cat.NewSession(catalog.SessionConfig{Scopes: scopes, Mode: catalog.ModeOn}); err == nil {
		rep.CatalogTokens = Count(sess.CatalogBlock())
	}
	g, err := gateway.New(gateway.Config{Mux: mx, Scopes: scopes})
	if err != nil {
		return nil, err
	}
	own := make([]mcp.Tool, 0, 6)
	for _, st := range g.MCPServer().ListTools() {
		own = append(own, st.Tool)
	}
	// tools/list sends them sorted by name; the count follows that order.
	slices.SortFunc(own, func(a, b mcp.Tool) int { return cmp.Compare(a.Name, b.Name) })
	rep.GatewayTokens = Tools(own)
	if len(opts.Servers) > 0 {
		// The slice is measured at any size, though a subagent defaults to
		// at most three servers.
		st, err := subagent.SliceTokens(ctx, mx, subagent.Config{Servers: opts.Servers, Scopes: scopes,
			MaxServers: max(3, len(opts.Servers)), Catalog: cat})
		if err != nil {
			return nil, err
		}
		rep.Subagent, rep.SubagentTokens = &st, st.Total
	}
	return rep, nil
}

// KindLines renders the per-kind view without schemas:
// "kind (servers): tool, tool, …", one line per kind.
func KindLines(groups []kindgroups.Group) string {
	var b strings.Builder
	for _, g := range groups {
		fmt.Fprintf(&b, "%s (%s): %s\n", g.Kind, strings.Join(g.Servers, ", "), strings.Join(g.Tools, ", "))
	}
	return b.String()
}

// Ratio renders full ÷ n to one decimal, as "12.3x"; "-" when n is 0.
func Ratio(full, n int) string {
	if n == 0 {
		return "-"
	}
	return fmt.Sprintf("%.1fx", float64(full)/float64(n))
}
