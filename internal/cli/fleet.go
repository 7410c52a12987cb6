package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/mcpfleet/mcpfleet"
	"github.com/mcpfleet/mcpfleet/catalog"
	"github.com/mcpfleet/mcpfleet/config"
)

// errNoConfig is returned when neither --config nor $MCPFLEET_CONFIG is set.
var errNoConfig = &ExitError{Code: ExitUsage, Err: errors.New("no fleet file: pass --config FILE or set " + envConfig)}

// connect loads the fleet file and connects every server. Servers that fail
// to connect are named on stderr and the command goes on without them,
// unless --strict, which makes any failure fatal. The caller must Close the
// Mux.
func connect(ctx context.Context, c *common, stderr io.Writer) (*mcpfleet.Mux, error) {
	if c.config == "" {
		return nil, errNoConfig
	}
	cfg, err := config.Load(c.config)
	if err != nil {
		return nil, err
	}
	var opts []mcpfleet.Option
	if c.strict {
		opts = append(opts, mcpfleet.WithStrict())
	}
	// A one-shot command has no use for background health probes.
	opts = append(opts, mcpfleet.WithHealthInterval(-1))
	mx, err := mcpfleet.New(ctx, cfg, opts...)
	if err != nil {
		return nil, err
	}
	for _, s := range mx.Status() {
		if s.State != mcpfleet.StateUp {
			fmt.Fprintf(stderr, "mcpfleet: warning: server %s (kind %s) is %s: %s\n", s.Name, s.Kind, s.State, s.LastError)
		}
	}
	return mx, nil
}

// buildCatalog folds the fleet's current tools into a catalog tuned by the
// fleet file's kind_settings.
func buildCatalog(mx *mcpfleet.Mux) *catalog.Catalog {
	return catalog.Build(mx.Servers(), catalogConfig(mx.Config()))
}

// catalogConfig converts the fleet file's per-kind and per-server settings
// into catalog terms. Per-server tool_scopes have no catalog equivalent
// (catalog scopes are per kind) and are not carried over.
func catalogConfig(f *config.Fleet) catalog.Config {
	cfg := catalog.Config{Kinds: map[string]catalog.KindConfig{}, ServerCoreTools: map[string][]string{}}
	for kind, ks := range f.KindSettings {
		cfg.Kinds[kind] = catalog.KindConfig{
			CoreTools:    slices.Clone(ks.CoreTools),
			CatalogLines: ks.CatalogLines,
			Aliases:      ks.Aliases,
			AvoidWhen:    ks.AvoidWhen,
			ToolScopes:   ks.ToolScopes,
		}
	}
	for _, s := range f.Servers {
		if len(s.CoreTools) > 0 {
			cfg.ServerCoreTools[s.Name] = slices.Clone(s.CoreTools)
		}
	}
	return cfg
}

// scopesFlag is the value of --scopes: every scope unless narrowed, since
// an operator at a terminal inspects the whole fleet, unlike an agent.
func scopesOf(s string) []string {
	if l := splitList(s); len(l) > 0 {
		return l
	}
	return []string{catalog.ScopeAll}
}
