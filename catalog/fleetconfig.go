package catalog

import (
	"fmt"
	"maps"
	"regexp"

	"github.com/mcpfleet/mcpfleet/catalog/search"
	"github.com/mcpfleet/mcpfleet/config"
	"github.com/mcpfleet/mcpfleet/kindgroups"
)

// FromFleet converts the fleet file's kind_settings, per-server
// core_tools and search settings into a Config. It lives here, beside the
// Config it fills, so that reading a fleet file's catalog settings needs
// no agent framework; config stays a leaf that imports nothing of ours.
// Give it a Mux's Config: that fleet has the built-in presets (package
// presets) merged under its kind_settings by mcpfleet.New, which is where
// presets are applied; a fleet as config.Load read it has none.
// search.rerank_weights arrive as read by config, feature names unchecked:
// Build panics on weights that fail c.RerankWeights.Validate, so build
// through BuildFleet, or call CheckFleet first.
// It leaves Embedder nil: embeddings come from the environment, not the
// fleet file, so callers set it (see adapters/eino ExampleCatalogEmbedder).
func FromFleet(f *config.Fleet) Config { return Config{}.WithFleet(f) }

// WithFleet returns c with its fleet settings (Kinds, ServerCoreTools,
// Synonyms, NoLexicon, NoRerank, RerankWeights) replaced by f's, as
// FromFleet reads them, and every other field (budget, embedder, clock)
// kept. A long-running consumer calls it again when the Mux's fleet
// changes, as it does when a tool-list change re-matches the presets.
func (c Config) WithFleet(f *config.Fleet) Config {
	c.Kinds, c.ServerCoreTools, c.Synonyms = nil, nil, nil
	c.NoLexicon, c.NoRerank, c.RerankWeights = false, false, nil
	if f == nil {
		return c
	}
	c.Synonyms = f.Search.Synonyms
	c.NoLexicon = f.Search.Lexicon != nil && !*f.Search.Lexicon
	c.NoRerank = f.Search.Rerank != nil && !*f.Search.Rerank
	if f.Search.RerankWeightValues != nil {
		c.RerankWeights = search.RerankWeights(maps.Clone(f.Search.RerankWeightValues))
	}
	for kind, ks := range f.KindSettings {
		if c.Kinds == nil {
			c.Kinds = map[string]KindConfig{}
		}
		c.Kinds[kind] = KindConfig{CoreTools: ks.CoreTools, CatalogLines: ks.CatalogLines,
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

// CheckFleet reports what in f Build would refuse: rerank
// weights whose feature names are unknown or missing. config cannot check
// them, as it does not know the catalog's features.
func CheckFleet(f *config.Fleet) error {
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
	if err := search.RerankWeights(f.Search.RerankWeightValues).Validate(); err != nil {
		return fmt.Errorf("config: search.rerank_weights %s: %w", f.Search.RerankWeights, err)
	}
	return nil
}

// BuildFleet builds the catalog of servers tuned by their fleet file f,
// with an error where Build would panic. With a Mux:
// BuildFleet(mx.Servers(), mx.Config()).
func BuildFleet(servers []kindgroups.Server, f *config.Fleet) (*Catalog, error) {
	if err := CheckFleet(f); err != nil {
		return nil, err
	}
	return Build(servers, FromFleet(f)), nil
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
