// Package offload reads stored tool results back by line range or regular
// expression, sizes a structuredContent without encoding it (JSONSize),
// and issues the handles results are stored under.
//
// The multiplexer declares the ResultStore interface and keeps its
// in-memory implementation beside it; every store that can return the full
// text gets line reading and grepping from here.
package offload
