// Package tokens counts o200k tokens offline. It is the only importer of the
// tokenizer, so every token figure mcpfleet prints comes from one place.
package tokens
