package tuning_test

import (
	"encoding/json"
	"os"
	"testing"

	eino "github.com/mcpfleet/mcpfleet/adapters/eino"
	"github.com/mcpfleet/mcpfleet/adapters/eino/openai"
	"github.com/mcpfleet/mcpfleet/catalog"
	"github.com/mcpfleet/mcpfleet/catalog/internal/catalogtest"
	"github.com/mcpfleet/mcpfleet/catalog/tuning"
)

// TestEvalHybrid reports the eval with a real embedding endpoint, next to
// the lexical figures, when MCPFLEET_EMBED_MODEL names one (see
// scripts/embed-use-lite for the one measured in docs/search.md). It asserts
// nothing of quality: an embedding model's worth is what it measures.
func TestEvalHybrid(t *testing.T) {
	ec, err := openai.EmbedderConfigFromEnv(os.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	if ec.Model == "" {
		t.Skip("set MCPFLEET_EMBED_MODEL (and MCPFLEET_EMBED_BASE_URL) to measure hybrid search")
	}
	e, err := openai.NewEmbedder(ec)
	if err != nil {
		t.Fatal(err)
	}
	cfg := catalogtest.FleetConfig(true)
	cfg.Embedder = eino.CatalogEmbedder(e)
	cfg.EmbedQueryPrefix, cfg.EmbedDocPrefix = ec.QueryPrefix, ec.DocPrefix
	// Wait for every vector, and fail rather than fall back to BM25:
	// the figures must be hybrid throughout.
	cfg.EmbedTimeout, cfg.EmbedCooldown = -1, -1
	var embedErr error
	cfg.OnEmbedError = func(err error) { embedErr = err }
	qs := catalogtest.Queries(t)
	ctx := catalog.WithScopes(t.Context(), catalog.ScopeAll)
	hybrid := tuning.Eval(ctx, catalog.Build(catalogtest.Fleet(t), cfg), qs)
	if embedErr != nil {
		t.Fatalf("embedder failed, figures would be BM25: %v", embedErr)
	}
	lexical := tuning.Eval(ctx, catalogtest.BuildFleet(t), qs)
	for name, r := range map[string]tuning.EvalResult{"lexical": lexical, "hybrid": hybrid} {
		b, _ := json.Marshal(r.Metrics)
		t.Logf("%s (%s): %s", name, ec.Model, b)
	}
}
