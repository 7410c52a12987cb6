package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/mcpfleet/mcpfleet/subagent"
	"github.com/mcpfleet/mcpfleet/tokenreport"
)

// TokenReport is what `tokens` prints; see tokenreport.Report.
type TokenReport = tokenreport.Report

func runTokens(ctx context.Context, env []string, stdin io.Reader, stdout, stderr io.Writer, args []string) error {
	fs, c := newFlagSet("tokens", "--config FILE [--json] [--servers a,b,c] [--scopes read,write] [--svg FILE]", env, stderr)
	asJSON := fs.Bool("json", false, "print JSON")
	slice := fs.String("servers", "", "also measure a sub-agent over these comma-separated `servers`")
	scopes := fs.String("scopes", "", "comma-separated `scopes` for the catalog and sub-agent figures (default: all)")
	svg := fs.String("svg", "", "also draw the main views as a bar chart into this SVG `file`")
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
	rep, err := tokenreport.Measure(ctx, mx, tokenreport.Options{Scopes: scopesOf(*scopes),
		Servers: splitList(*slice), Catalog: buildCatalog(mx)})
	var se *subagent.ServersError
	if errors.As(err, &se) {
		return &ExitError{Code: ExitUsage, Err: err}
	} else if err != nil {
		return err
	}
	if *svg != "" {
		var b bytes.Buffer
		if err := writeTokensSVG(&b, *rep); err != nil {
			return err
		}
		if err := writeFileAtomic(*svg, b.Bytes()); err != nil {
			return fmt.Errorf("tokens: --svg: %w", err)
		}
	}
	return emit(stdout, *asJSON, rep, func(w io.Writer) { writeTokens(w, *rep) })
}

func writeTokens(w io.Writer, r TokenReport) {
	fmt.Fprintf(w, "%d servers, %d (server, tool) pairs, %d unique (kind, tool) tools\n\n", r.Servers, r.Pairs, r.UniqueTools)
	row := func(name string, n int) {
		fmt.Fprintf(w, "%-44s %12d %12s\n", name, n, tokenreport.Ratio(r.FullTokens, n))
	}
	fmt.Fprintf(w, "%-44s %12s %12s\n", "view", "o200k tokens", "full ÷ view")
	row("full: every server's tools with schemas", r.FullTokens)
	row("kinds: tool names per kind, no schemas", r.KindsTokens)
	row("orchestrator: the overview", r.OrchestratorTokens)
	row("catalog: deferred block, whole fleet", r.CatalogTokens)
	row("gateway: mcpfleet serve's own tools", r.GatewayTokens)
	if s := r.Subagent; s != nil {
		row(fmt.Sprintf("sub-agent [%s], mode %s", strings.Join(s.Servers, ","), s.Mode), s.Total)
		row(fmt.Sprintf("  %d folded tools (an agent holds at most %d)", s.ActiveTools, subagent.MaxTools), s.Tools)
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
