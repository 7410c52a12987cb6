package cli

import (
	"fmt"

	eino "github.com/mcpfleet/mcpfleet/adapters/eino"
	"github.com/mcpfleet/mcpfleet/adapters/eino/openai"
	"github.com/mcpfleet/mcpfleet/catalog"
)

// hybridConfig sets cfg's embedding fields from MCPFLEET_EMBED_* in the
// command's environment, and leaves cfg alone when MCPFLEET_EMBED_MODEL is
// unset (search stays BM25). A set model with an unusable endpoint
// configuration is an error rather than a silent BM25: the operator asked
// for hybrid search.
//
// The catalog absorbs embedder failures by answering with BM25; warn is
// its OnEmbedError, called once when the endpoint starts failing and
// never for a search its caller cancelled. One-shot commands (search,
// eval-search) wait for the embedder as long as it takes, and turn
// embeddings off for good at the first failure, so that a run pays one
// timeout at most and its figures never mix hybrid and BM25 rankings.
// serve keeps the catalog's defaults: each search waits at most
// search.DefaultEmbedTimeout, and a failure is retried after
// search.DefaultEmbedCooldown. serve also caches vectors across the
// catalog rebuilds that fleet changes cause, so a rebuild embeds only
// the entries whose text changed; a one-shot command builds one catalog
// and would only fill the cache.
func hybridConfig(cfg *catalog.Config, env []string, oneShot bool, warn func(error)) error {
	ec, err := openai.EmbedderConfigFromEnv(func(k string) string { return lookupEnv(env, k) })
	if err != nil {
		return fmt.Errorf("hybrid search (%s is set): %w", openai.EnvEmbedModel, err)
	}
	if ec.Model == "" {
		return nil
	}
	e, err := openai.NewEmbedder(ec)
	if err != nil {
		return fmt.Errorf("hybrid search: %w", err)
	}
	cfg.Embedder = eino.CatalogEmbedder(e)
	if !oneShot {
		cfg.Embedder = eino.CatalogEmbedder(openai.NewEmbedCache(e, 0))
	}
	cfg.EmbedQueryPrefix, cfg.EmbedDocPrefix = ec.QueryPrefix, ec.DocPrefix
	cfg.OnEmbedError = warn
	if oneShot {
		cfg.EmbedTimeout, cfg.EmbedCooldown = -1, -1
	}
	return nil
}
