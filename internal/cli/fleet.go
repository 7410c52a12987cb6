package cli

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/mcpfleet/mcpfleet"
	"github.com/mcpfleet/mcpfleet/catalog"
	"github.com/mcpfleet/mcpfleet/config"
)

// errNoConfig is returned when neither --config nor $MCPFLEET_CONFIG is set.
var errNoConfig = &ExitError{Code: ExitUsage, Err: errors.New("no fleet file: pass --config FILE or set " + envConfig)}

// connect loads the fleet file and connects every server. Servers that fail
// to connect are named on stderr and the command goes on without them,
// unless --strict, which makes any failure fatal. extra options follow the
// CLI's own. The caller must Close the Mux.
func connect(ctx context.Context, c *common, stderr io.Writer, extra ...mcpfleet.Option) (*mcpfleet.Mux, error) {
	if c.config == "" {
		return nil, errNoConfig
	}
	cfg, err := loadFleet(c)
	if err != nil {
		return nil, err
	}
	return connectFleet(ctx, c, cfg, stderr, extra...)
}

// connectFleet is connect with the fleet file already loaded.
func connectFleet(ctx context.Context, c *common, cfg *config.Fleet, stderr io.Writer, extra ...mcpfleet.Option) (*mcpfleet.Mux, error) {
	var opts []mcpfleet.Option
	if c.strict {
		opts = append(opts, mcpfleet.WithStrict())
	}
	// A one-shot command has no use for background health probes.
	opts = append(opts, mcpfleet.WithHealthInterval(-1))
	opts = append(opts, extra...)
	mx, err := mcpfleet.New(ctx, cfg, opts...)
	if err != nil {
		return nil, err
	}
	for _, s := range mx.Status() {
		if !s.State.Serving() && !s.FromCache {
			fmt.Fprintf(stderr, "mcpfleet: warning: server %s (kind %s) is %s: %s\n", s.Name, s.Kind, s.State, s.LastError)
		}
		if s.Warning != "" {
			fmt.Fprintf(stderr, "mcpfleet: warning: server %s (kind %s): %s\n", s.Name, s.Kind, s.Warning)
		}
	}
	return mx, nil
}

// loadFleet loads the fleet file and checks what config cannot: the
// feature names of search.rerank_weights, which catalog.Build would panic
// on, so a typo is reported before any server starts.
func loadFleet(c *common) (*config.Fleet, error) {
	cfg, err := config.LoadWith(c.config, config.LoadOptions{Environ: c.env})
	if err != nil {
		return nil, err
	}
	if err := catalog.CheckFleet(cfg); err != nil {
		return nil, err
	}
	return cfg, nil
}

// buildCatalog folds the fleet's current tools into a catalog tuned by the
// fleet file's kind_settings, with the presets the Mux matched merged in.
func buildCatalog(mx *mcpfleet.Mux) *catalog.Catalog {
	return catalog.Build(mx.Servers(), catalogConfig(mx.Config()))
}

// searchCatalog is buildCatalog for the commands that search: hybrid
// when the command's environment sets MCPFLEET_EMBED_MODEL. A failing
// endpoint is warned about on stderr once, and search goes on with BM25.
func searchCatalog(mx *mcpfleet.Mux, c *common, stderr io.Writer) (*catalog.Catalog, error) {
	cfg := catalogConfig(mx.Config())
	err := hybridConfig(&cfg, c.env, true, func(err error) {
		fmt.Fprintf(stderr, "mcpfleet: warning: embeddings failed, search is BM25 only: %v\n", err)
	})
	if err != nil {
		return nil, err
	}
	return catalog.Build(mx.Servers(), cfg), nil
}

// catalogConfig converts the fleet's kind_settings and per-server
// core_tools into catalog terms, the one way every consumer does it. Pass
// it mx.Config(), which has the presets merged in, not the file as loaded.
func catalogConfig(f *config.Fleet) catalog.Config { return catalog.FromFleet(f) }

// scopesOf is the value of --scopes: every scope unless narrowed, since
// an operator at a terminal inspects the whole fleet, unlike an agent.
func scopesOf(s string) []string {
	if l := splitList(s); len(l) > 0 {
		return l
	}
	return []string{catalog.ScopeAll}
}
