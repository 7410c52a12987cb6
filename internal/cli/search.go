package cli

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/mcpfleet/mcpfleet/catalog"
)

func runSearch(ctx context.Context, env []string, stdin io.Reader, stdout, stderr io.Writer, args []string) error {
	fs, c := newFlagSet("search", "--config FILE [--k N] [--scopes read,write] [--json] QUERY", env, stderr)
	asJSON := fs.Bool("json", false, "print the hits as a JSON array")
	k := fs.Int("k", catalog.DefaultK, fmt.Sprintf("number of hits, at most %d", catalog.MaxK))
	scopes := fs.String("scopes", "", "comma-separated `scopes` to search as (default: all)")
	if err := parse(fs, args); err != nil {
		return err
	}
	query := strings.TrimSpace(strings.Join(fs.Args(), " "))
	if query == "" {
		return usageErrorf("search needs a QUERY")
	}
	if *k < 1 || *k > catalog.MaxK {
		return usageErrorf("--k must be between 1 and %d, got %d", catalog.MaxK, *k)
	}
	mx, err := connect(ctx, c, stderr)
	if err != nil {
		return err
	}
	defer mx.Close()
	cat, err := searchCatalog(mx, c, stderr)
	if err != nil {
		return err
	}
	hits := cat.Search(catalog.WithScopes(ctx, scopesOf(*scopes)...), query, *k)
	if hits == nil {
		hits = []catalog.Hit{}
	}
	return emit(stdout, *asJSON, hits, func(w io.Writer) {
		if len(hits) == 0 {
			fmt.Fprintln(w, "no tools match")
		}
		for i, h := range hits {
			fmt.Fprintf(w, "%d. %s.%s  %.4f  [%s]\n   %s\n", i+1, h.Kind, h.Tool, h.Score, strings.Join(h.Servers, ", "), h.Line)
			if h.AvoidWhen != "" {
				fmt.Fprintf(w, "   avoid when: %s\n", h.AvoidWhen)
			}
		}
	})
}
