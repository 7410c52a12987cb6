package cli

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/mcpfleet/mcpfleet/catalog"
	"github.com/mcpfleet/mcpfleet/catalog/tuning"
)

// CatalogReport is what `catalog` prints: the block, or with --lint the
// findings.
type CatalogReport struct {
	Servers []string `json:"servers"` // the session's slice; empty means every server
	Mode    string   `json:"mode"`
	Block   string   `json:"block"`
	// Lint is set with --lint.
	Lint *tuning.LintReport `json:"lint,omitempty"`
}

func runCatalog(ctx context.Context, env []string, stdin io.Reader, stdout, stderr io.Writer, args []string) error {
	fs, c := newFlagSet("catalog", "--config FILE [--lint [--strict]] [--servers a,b] [--scopes read,write] [--json]", env, stderr)
	asJSON := fs.Bool("json", false, "print JSON")
	lint := fs.Bool("lint", false, "list tools lacking a hand-written catalog line, and colliding lines")
	slice := fs.String("servers", "", "render for an agent over these comma-separated `servers` (default: every server)")
	scopes := fs.String("scopes", "", "comma-separated `scopes` of the agent (default: all)")
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageErrorf("catalog takes no arguments, got %q", fs.Args())
	}
	mx, err := connect(ctx, c, stderr)
	if err != nil {
		return err
	}
	defer mx.Close()
	cat := buildCatalog(mx)
	rep := CatalogReport{Servers: splitList(*slice)}
	if rep.Servers == nil {
		rep.Servers = []string{}
	}
	// Mode on: the block shows what a deferring agent would see, whatever
	// the fleet's size.
	sess, err := cat.NewSession(catalog.SessionConfig{Servers: rep.Servers, Scopes: scopesOf(*scopes), Mode: catalog.ModeOn})
	if err != nil {
		return &ExitError{Code: ExitUsage, Err: err}
	}
	rep.Mode, rep.Block = sess.Mode(), sess.CatalogBlock()
	if *lint {
		l := tuning.Lint(cat)
		rep.Lint = &l
	}
	if err := emit(stdout, *asJSON, rep, func(w io.Writer) { writeCatalog(w, rep) }); err != nil {
		return err
	}
	if rep.Lint != nil {
		n := len(rep.Lint.MissingLines) + len(rep.Lint.Collisions)
		if n > 0 {
			fmt.Fprintf(stderr, "mcpfleet: warning: catalog lint: %d tools without a hand-written line, %d colliding line groups\n",
				len(rep.Lint.MissingLines), len(rep.Lint.Collisions))
			if c.strict {
				return &ExitError{Code: ExitFailure, Err: fmt.Errorf("%d lint findings (--strict)", n)}
			}
		}
	}
	return nil
}

func writeCatalog(w io.Writer, r CatalogReport) {
	if r.Lint == nil {
		fmt.Fprint(w, r.Block)
		return
	}
	l := r.Lint
	fmt.Fprintf(w, "%d tools have no hand-written catalog line (kind_settings.<kind>.catalog_lines):\n", len(l.MissingLines))
	byKind := map[string][]string{}
	var kinds []string
	for _, kt := range l.MissingLines {
		if byKind[kt.Kind] == nil {
			kinds = append(kinds, kt.Kind)
		}
		byKind[kt.Kind] = append(byKind[kt.Kind], kt.Tool)
	}
	for _, k := range kinds {
		fmt.Fprintf(w, "  %s: %s\n", k, strings.Join(byKind[k], ", "))
	}
	fmt.Fprintf(w, "%d groups of lines collide (same first five words within a kind):\n", len(l.Collisions))
	for _, col := range l.Collisions {
		fmt.Fprintf(w, "  %s %q: %s\n", col.Kind, col.Prefix, strings.Join(col.Tools, ", "))
	}
}
