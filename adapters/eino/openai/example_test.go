package openai_test

import (
	"context"
	"errors"
	"fmt"
	"log"

	"github.com/mcpfleet/mcpfleet/adapters/eino/einotest"
	"github.com/mcpfleet/mcpfleet/adapters/eino/openai"
)

// Embeddings from an OpenAI-compatible endpoint, here a test server. In
// production EmbedderFromEnv reads the same settings from the environment.
func ExampleNewEmbedder() {
	srv := einotest.NewEmbeddingServer(einotest.EmbeddingServerOptions{
		Embed: einotest.Concepts([]string{"logs", "journaux"}),
	})
	defer srv.Close()
	emb, err := openai.NewEmbedder(openai.EmbedderConfig{Model: "text-embedding-3-small", BaseURL: srv.BaseURL(), BatchSize: 2})
	if err != nil {
		log.Fatal(err)
	}
	vecs, err := emb.EmbedStrings(context.Background(), []string{"pod logs", "journaux du conteneur", "disk usage"})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(len(vecs), "vectors in", len(srv.Requests()), "requests")
	// Output:
	// 3 vectors in 2 requests
}

// The chat model's settings come from MCPFLEET_MODEL, OPENAI_BASE_URL and
// OPENAI_API_KEY; a local endpoint needs no key. The error names what is
// missing, so a program can fall back to a scripted model.
func ExampleModelConfigFromEnv() {
	env := map[string]string{"MCPFLEET_MODEL": "qwen3", "OPENAI_BASE_URL": "http://localhost:11434/v1"}
	c, err := openai.ModelConfigFromEnv(func(k string) string { return env[k] })
	fmt.Println(c.Model, c.BaseURL, err)

	_, err = openai.ModelConfigFromEnv(func(string) string { return "" })
	var missing *openai.MissingEnvError
	if errors.As(err, &missing) {
		fmt.Println("missing:", missing.Vars)
	}
	// Output:
	// qwen3 http://localhost:11434/v1 <nil>
	// missing: [MCPFLEET_MODEL OPENAI_BASE_URL OPENAI_API_KEY]
}
