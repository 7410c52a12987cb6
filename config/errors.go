package config

import (
	"fmt"
	"strings"
)

// Problem is one thing wrong with a configuration. Its text never holds an
// env or header value, so it is safe to log.
type Problem struct {
	// Server locates the problem: "servers[2] (k8s-1)" for a server,
	// "kind_settings.<kind>" for kind settings, "reliability",
	// "reliability.breaker", "result_store", "store" or "store.redis" for
	// those maps, "" for the top level.
	Server string
	// Field is the key at fault, e.g. "transport" or "args_transformer",
	// or "key" for an unknown key (then Value is that key).
	Field string
	// Value is the offending value, "" when it is missing or secret.
	Value string
	// Want says what is accepted.
	Want string
	// Hint is the nearest valid choice by edit distance, if one is close.
	Hint string
}

// String renders the problem as one line:
//
//	servers[2] (k8s-1): transport: got "htp", want one of stdio, http, sse (did you mean "http"?)
func (p Problem) String() string {
	var b strings.Builder
	if p.Server != "" {
		b.WriteString(p.Server)
		b.WriteString(": ")
	}
	b.WriteString(p.Field)
	b.WriteString(": ")
	if p.Value != "" {
		fmt.Fprintf(&b, "got %q, ", p.Value)
	}
	b.WriteString("want ")
	b.WriteString(p.Want)
	if p.Hint != "" {
		fmt.Fprintf(&b, " (did you mean %q?)", p.Hint)
	}
	return b.String()
}

// ValidationError lists every problem found in a configuration, so one run
// shows all typos instead of one per attempt.
type ValidationError struct {
	Problems []Problem
}

func (e *ValidationError) Error() string { return problemList("config", e.Problems) }

// problemList renders problems under a heading: "<what>: N problems:" and
// one "  - " line each. Always "problems", even for one: the text is part
// of the contract.
func problemList(what string, ps []Problem) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %d problems:", what, len(ps))
	for _, p := range ps {
		b.WriteString("\n  - ")
		b.WriteString(p.String())
	}
	return b.String()
}

// ParseError reports a file that is not valid YAML or JSON.
type ParseError struct {
	Path   string // "" for LoadBytes
	Format string // "yaml" or "json"
	Err    error
}

func (e *ParseError) Error() string {
	if e.Path == "" {
		return fmt.Sprintf("config: invalid %s: %v", e.Format, e.Err)
	}
	return fmt.Sprintf("config: %s: invalid %s: %v", e.Path, e.Format, e.Err)
}

func (e *ParseError) Unwrap() error { return e.Err }
