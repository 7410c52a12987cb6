package eino_test

import (
	"context"
	"fmt"
	"log"

	mcpeino "github.com/mcpfleet/mcpfleet/adapters/eino"
	"github.com/mcpfleet/mcpfleet/adapters/eino/einotest"
	"github.com/mcpfleet/mcpfleet/adapters/eino/openai"
	"github.com/mcpfleet/mcpfleet/catalog"
)

// Hybrid search with an OpenAI-compatible embeddings endpoint. Here the
// endpoint is a test server whose "model" knows that "journaux" (French)
// means logs; in production, EmbedderFromEnv reads MCPFLEET_EMBED_MODEL,
// OPENAI_BASE_URL (or MCPFLEET_EMBED_BASE_URL) and OPENAI_API_KEY, and
// returns nil when MCPFLEET_EMBED_MODEL is unset.
func ExampleCatalogEmbedder() {
	ctx := context.Background()
	mx := exampleMux(ctx)
	defer mx.Close()
	srv := einotest.NewEmbeddingServer(einotest.EmbeddingServerOptions{
		Embed: einotest.Concepts([]string{"logs", "journaux"}),
	})
	defer srv.Close()

	emb, err := openai.NewEmbedder(openai.EmbedderConfig{Model: "text-embedding-3-small", BaseURL: srv.BaseURL()})
	if err != nil {
		log.Fatal(err)
	}
	// catalog.FromFleet stays a pure translation of the fleet file; the
	// embedder is the caller's to add.
	cfg := catalog.FromFleet(mx.Config())
	cfg.Embedder = mcpeino.CatalogEmbedder(emb)

	ctx = catalog.WithScopes(ctx, catalog.ScopeAll)
	const q = "journaux du conteneur"
	fmt.Println("BM25:", len(catalog.Build(mx.Servers(), catalog.FromFleet(mx.Config())).Search(ctx, q, 2)), "hits")
	for _, h := range catalog.Build(mx.Servers(), cfg).Search(ctx, q, 2) {
		fmt.Printf("hybrid: %s.%s %v\n", h.Kind, h.Tool, h.Servers)
	}
	// Output:
	// BM25: 0 hits
	// hybrid: kubernetes.pods_log [k8s-1 k8s-2]
	// hybrid: prometheus.pods_log [prom-1]
}

// A cache in front of the embedder: the first build sends every entry and
// the query; building the same catalog again, as serve does when the
// fleet changes, sends nothing to the endpoint.
func ExampleCatalogEmbedder_cache() {
	ctx := context.Background()
	mx := exampleMux(ctx)
	defer mx.Close()
	srv := einotest.NewEmbeddingServer(einotest.EmbeddingServerOptions{})
	defer srv.Close()
	emb, err := openai.NewEmbedder(openai.EmbedderConfig{Model: "text-embedding-3-small", BaseURL: srv.BaseURL()})
	if err != nil {
		log.Fatal(err)
	}
	cfg := catalog.FromFleet(mx.Config())
	cfg.Embedder = mcpeino.CatalogEmbedder(openai.NewEmbedCache(emb, 0))
	cfg.EmbedTimeout = -1 // wait for the vectors, so the counts are settled

	ctx = catalog.WithScopes(ctx, catalog.ScopeAll)
	for _, build := range []string{"first", "second"} {
		before := len(srv.Requests())
		catalog.Build(mx.Servers(), cfg).Search(ctx, "pod logs", 1)
		texts := 0
		for _, r := range srv.Requests()[before:] {
			texts += len(r.Input)
		}
		fmt.Printf("%s build: %d texts sent\n", build, texts)
	}
	// Output:
	// first build: 15 texts sent
	// second build: 0 texts sent
}
