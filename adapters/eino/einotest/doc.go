// Package einotest provides a scripted eino chat model that records every
// call, so tests of agents can assert exactly what a model was shown, and
// an httptest server speaking OpenAI's embeddings API for the same purpose
// with embedders.
package einotest
