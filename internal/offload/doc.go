// Package offload keeps large tool results in memory under opaque handles,
// bounded by a byte budget and a time to live, and reads them back by line
// range or regular expression.
//
// The multiplexer declares the ResultStore interface it consumes; Memory is
// its default implementation. Line reading and grepping live here too, so
// that any store which can return the full text gets them for free, and so
// does JSONSize, which sizes a structuredContent for the offload decision
// without encoding it.
package offload
