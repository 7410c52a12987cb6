package eino

import (
	"context"
	"reflect"

	"github.com/cloudwego/eino/components/embedding"

	"github.com/mcpfleet/mcpfleet/catalog"
)

// CatalogEmbedder adapts any eino embedding.Embedder to catalog.Embedder,
// whose method takes no options. A nil e, or a nil pointer such as the nil
// *openai.Embedder or *openai.EmbedCache that openai.EmbedderFromEnv and
// openai.NewEmbedCache return when embeddings are off, gives a nil
// catalog.Embedder, so
//
//	cfg.Embedder = eino.CatalogEmbedder(openai.NewEmbedCache(emb, 0))
//
// leaves search BM25 rather than failing on every query.
func CatalogEmbedder(e embedding.Embedder) catalog.Embedder {
	if e == nil {
		return nil
	}
	// The package adapts embedders it does not know, so a typed nil is
	// found by reflection rather than by listing its types.
	if v := reflect.ValueOf(e); v.Kind() == reflect.Pointer && v.IsNil() {
		return nil
	}
	return catalogEmbedder{e}
}

type catalogEmbedder struct{ e embedding.Embedder }

func (c catalogEmbedder) EmbedStrings(ctx context.Context, texts []string) ([][]float64, error) {
	return c.e.EmbedStrings(ctx, texts)
}
