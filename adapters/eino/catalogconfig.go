package eino

import (
	"maps"

	"github.com/mcpfleet/mcpfleet/catalog"
	"github.com/mcpfleet/mcpfleet/config"
)

// CatalogConfig converts the fleet file's kind_settings, per-server
// core_tools and search settings into a catalog.Config. It lives here, not in catalog, because
// catalog must not import config (it is a pure library over kindgroups).
// search.rerank_weights arrive as read by config, feature names unchecked:
// catalog.Build panics on weights that fail c.RerankWeights.Validate, so a
// caller that cannot trust the file calls it first (the CLI does).
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
			Aliases: ks.Aliases, AvoidWhen: ks.AvoidWhen, ToolScopes: ks.ToolScopes}
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
