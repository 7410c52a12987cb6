package eino

import (
	"fmt"
	"maps"
	"regexp"

	"github.com/mcpfleet/mcpfleet"
	"github.com/mcpfleet/mcpfleet/catalog"
	"github.com/mcpfleet/mcpfleet/config"
)

// CatalogConfig converts the fleet file's kind_settings, per-server
// core_tools and search settings into a catalog.Config. It lives here, not in catalog, because
// catalog must not import config (it is a pure library over kindgroups).
// search.rerank_weights arrive as read by config, feature names unchecked:
// catalog.Build panics on weights that fail c.RerankWeights.Validate, so
// build through BuildCatalog, or call CheckCatalogConfig first.
// It leaves Embedder nil: embeddings come from the environment, not the
// fleet file, so callers set it (see ExampleCatalogEmbedder).
func CatalogConfig(f *config.Fleet) catalog.Config {
	var c catalog.Config
	if f == nil {
		return c
	}
	c.Synonyms = f.Search.Synonyms
	c.NoLexicon = f.Search.Lexicon != nil && !*f.Search.Lexicon
	c.NoRerank = f.Search.Rerank != nil && !*f.Search.Rerank
	if f.Search.RerankWeightValues != nil {
		c.RerankWeights = catalog.RerankWeights(maps.Clone(f.Search.RerankWeightValues))
	}
	for kind, ks := range f.KindSettings {
		if c.Kinds == nil {
			c.Kinds = map[string]catalog.KindConfig{}
		}
		c.Kinds[kind] = catalog.KindConfig{CoreTools: ks.CoreTools, CatalogLines: ks.CatalogLines,
			Aliases: ks.Aliases, AvoidWhen: ks.AvoidWhen, ToolScopes: ks.ToolScopes,
			IDPatterns: idPatterns(ks.IDPatterns)}
	}
	for _, s := range f.Servers {
		if len(s.CoreTools) == 0 {
			continue
		}
		if c.ServerCoreTools == nil {
			c.ServerCoreTools = map[string][]string{}
		}
		c.ServerCoreTools[s.Name] = s.CoreTools
	}
	return c
}

// CheckCatalogConfig reports what in f catalog.Build would refuse: rerank
// weights whose feature names are unknown or missing. config cannot check
// them, as it does not know the catalog's features.
func CheckCatalogConfig(f *config.Fleet) error {
	if f == nil {
		return nil
	}
	if f.Search.RerankWeightValues == nil {
		if f.Search.RerankWeights != "" {
			// A Fleet built in Go, not read by config.Load: the file
			// was never read, and the built-in weights would rank
			// without a word.
			return fmt.Errorf("config: search.rerank_weights %s: not read; load the fleet with config.Load, or set Search.RerankWeightValues", f.Search.RerankWeights)
		}
		return nil
	}
	if err := catalog.RerankWeights(f.Search.RerankWeightValues).Validate(); err != nil {
		return fmt.Errorf("config: search.rerank_weights %s: %w", f.Search.RerankWeights, err)
	}
	return nil
}

// BuildCatalog builds the catalog of mx's servers tuned by its fleet
// file, with an error where catalog.Build would panic.
func BuildCatalog(mx *mcpfleet.Mux) (*catalog.Catalog, error) {
	if err := CheckCatalogConfig(mx.Config()); err != nil {
		return nil, err
	}
	return catalog.Build(mx.Servers(), CatalogConfig(mx.Config())), nil
}

// idPatterns compiles a kind's id_patterns. Fleet.Validate, which
// config.Load and mcpfleet.New run, refuses a pattern that
// config.CompileIDPattern refuses; one that reaches here anyway is left
// out rather than failing the catalog.
func idPatterns(pats []string) []*regexp.Regexp {
	var out []*regexp.Regexp
	for _, p := range pats {
		if re, err := config.CompileIDPattern(p); err == nil {
			out = append(out, re)
		}
	}
	return out
}
