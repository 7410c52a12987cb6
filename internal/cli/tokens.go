package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/mcpfleet/mcpfleet/catalog"
	"github.com/mcpfleet/mcpfleet/internal/tokens"
	"github.com/mcpfleet/mcpfleet/kindgroups"
	"github.com/mcpfleet/mcpfleet/subagent"
)

// TokenReport is what `tokens` prints. Every figure is o200k tokens.
type TokenReport struct {
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
	CatalogTokens int            `json:"catalog_tokens"`
	PerServer     map[string]int `json:"per_server"`
	// Subagent is set with --servers: what a sub-agent over that slice is
	// sent on its first model call, as subagent.SliceTokens measures it.
	Subagent *subagent.SliceCost `json:"subagent,omitempty"`
	// SubagentTokens repeats Subagent.Total (folded tools + meta-tools +
	// instruction with its catalog block), so scripts find it at the top
	// level; absent without --servers.
	SubagentTokens int `json:"subagent_tokens,omitempty"`
}

func runTokens(ctx context.Context, env []string, stdin io.Reader, stdout, stderr io.Writer, args []string) error {
	fs, c := newFlagSet("tokens", "--config FILE [--json] [--servers a,b,c] [--scopes read,write]", env, stderr)
	asJSON := fs.Bool("json", false, "print JSON")
	slice := fs.String("servers", "", "also measure a sub-agent over these comma-separated `servers`")
	scopes := fs.String("scopes", "", "comma-separated `scopes` for the catalog and sub-agent figures (default: all)")
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageErrorf("tokens takes no arguments, got %q", fs.Args())
	}
	mx, err := connect(ctx, c, stderr)
	if err != nil {
		return err
	}
	defer mx.Close()
	servers := mx.Servers()
	groups := mx.KindGroups()
	rep := TokenReport{Servers: len(servers), PerServer: map[string]int{},
		KindsTokens:        tokens.Count(kindLines(groups)),
		OrchestratorTokens: tokens.Count(mx.Overview())}
	for _, s := range servers {
		n := tokens.MCPTools(s.Tools)
		rep.PerServer[s.Name] = n
		rep.FullTokens += n
		rep.Pairs += len(s.Tools)
	}
	for _, g := range groups {
		rep.UniqueTools += len(g.Tools)
	}
	cat := buildCatalog(mx)
	sess, err := cat.NewSession(catalog.SessionConfig{Scopes: scopesOf(*scopes), Mode: catalog.ModeOn})
	if err == nil {
		rep.CatalogTokens = tokens.Count(sess.CatalogBlock())
	} // an empty fleet has no session and no catalog: 0 tokens
	if l := splitList(*slice); len(l) > 0 {
		// The slice is measured at any size, though a sub-agent defaults to
		// at most three servers.
		st, err := subagent.SliceTokens(ctx, mx, subagent.Config{Servers: l, Scopes: scopesOf(*scopes),
			MaxServers: max(3, len(l)), Catalog: cat})
		var se *subagent.ServersError
		if errors.As(err, &se) {
			return &ExitError{Code: ExitUsage, Err: err}
		} else if err != nil {
			return err
		}
		rep.Subagent, rep.SubagentTokens = &st, st.Total
	}
	return emit(stdout, *asJSON, rep, func(w io.Writer) { writeTokens(w, rep) })
}

// kindLines renders the per-kind view without schemas:
// "kind (servers): tool, tool, …", one line per kind.
func kindLines(groups []kindgroups.Group) string {
	var b strings.Builder
	for _, g := range groups {
		fmt.Fprintf(&b, "%s (%s): %s\n", g.Kind, strings.Join(g.Servers, ", "), strings.Join(g.Tools, ", "))
	}
	return b.String()
}

func writeTokens(w io.Writer, r TokenReport) {
	fmt.Fprintf(w, "%d servers, %d (server, tool) pairs, %d unique (kind, tool) tools\n\n", r.Servers, r.Pairs, r.UniqueTools)
	row := func(name string, n int) {
		fmt.Fprintf(w, "%-44s %12d %12s\n", name, n, ratio(r.FullTokens, n))
	}
	fmt.Fprintf(w, "%-44s %12s %12s\n", "view", "o200k tokens", "full ÷ view")
	row("full: every server's tools with schemas", r.FullTokens)
	row("kinds: tool names per kind, no schemas", r.KindsTokens)
	row("orchestrator: the overview", r.OrchestratorTokens)
	row("catalog: deferred block, whole fleet", r.CatalogTokens)
	if s := r.Subagent; s != nil {
		row(fmt.Sprintf("sub-agent [%s], mode %s", strings.Join(s.Servers, ","), s.Mode), s.Total)
		row(fmt.Sprintf("  %d folded tools", s.ActiveTools), s.Tools)
		row("  loadTools + searchTools", s.MetaTools)
		row("  instruction", s.Instruction)
		row("    its catalog block", s.CatalogBlock)
	}
	fmt.Fprintln(w, "\nper server (full schemas):")
	names := make([]string, 0, len(r.PerServer))
	width := 0
	for n := range r.PerServer {
		names = append(names, n)
		width = max(width, len(n))
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-*s %10d\n", width, n, r.PerServer[n])
	}
}

// ratio renders full ÷ n to one decimal; "-" when n is 0.
func ratio(full, n int) string {
	if n == 0 {
		return "-"
	}
	return fmt.Sprintf("%.1fx", float64(full)/float64(n))
}
