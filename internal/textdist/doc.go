// Package textdist measures how far apart two strings are, for "did you
// mean" suggestions everywhere mcpfleet names a valid choice.
package textdist
