package cli

import (
	"context"
	"fmt"
	"sync"

	eino "github.com/mcpfleet/mcpfleet/adapters/eino"
	"github.com/mcpfleet/mcpfleet/catalog"
)

// searchEmbedder returns the embedder MCPFLEET_EMBED_MODEL asks for in the
// command's environment, or nil when it is unset (search stays BM25). A
// set model with an unusable endpoint configuration is an error rather
// than a silent BM25: the operator asked for hybrid search.
//
// warn is called when the endpoint fails; the catalog then answers with
// BM25 alone. With sticky, the first failure turns embeddings off for the
// rest of the command, so a one-shot eval does not wait out a timeout per
// query nor mix hybrid and BM25 rankings in one set of figures; serve
// passes false and retries on the next search.
func searchEmbedder(env []string, sticky bool, warn func(error)) (catalog.Embedder, error) {
	cfg, err := eino.EmbedderConfigFromEnv(func(k string) string { return lookupEnv(env, k) })
	if err != nil {
		return nil, fmt.Errorf("hybrid search (%s is set): %w", eino.EnvEmbedModel, err)
	}
	if cfg.Model == "" {
		return nil, nil
	}
	e, err := eino.NewOpenAIEmbedder(cfg)
	if err != nil {
		return nil, fmt.Errorf("hybrid search: %w", err)
	}
	return &watchedEmbedder{inner: eino.CatalogEmbedder(e), sticky: sticky, warn: warn}, nil
}

// watchedEmbedder reports failures, which the catalog otherwise absorbs
// silently by falling back to BM25: one warning when the endpoint starts
// failing, not one per search.
type watchedEmbedder struct {
	inner  catalog.Embedder
	sticky bool
	warn   func(error)

	mu      sync.Mutex
	failing bool
}

func (w *watchedEmbedder) EmbedStrings(ctx context.Context, texts []string) ([][]float64, error) {
	w.mu.Lock()
	off := w.sticky && w.failing
	w.mu.Unlock()
	if off {
		return nil, errEmbeddingsOff
	}
	v, err := w.inner.EmbedStrings(ctx, texts)
	w.mu.Lock()
	first := err != nil && !w.failing
	w.failing = err != nil
	w.mu.Unlock()
	if first {
		w.warn(err)
	}
	return v, err
}

// errEmbeddingsOff is what a sticky watchedEmbedder returns after its
// first failure; the catalog never shows it to anyone.
var errEmbeddingsOff = fmt.Errorf("cli: embeddings turned off after a failure")
