package catalog

import "strings"

// SessionError rejects a SessionConfig, listing every problem.
type SessionError struct {
	// UnknownServers are servers that do not exist or have no tool the
	// scopes permit; the two are not told apart, so that a caller cannot
	// probe for servers it may not see.
	UnknownServers []string
	// ValidServers are the servers the scopes may use.
	ValidServers []string
	// BadMode is the mode string, if it did not parse.
	BadMode string
	// BadPreload are the SessionConfig.Preload names that did not resolve.
	BadPreload []NameProblem
}

func (e *SessionError) Error() string {
	var parts []string
	if len(e.UnknownServers) > 0 {
		parts = append(parts, sessionUnknownServers(e.UnknownServers, e.ValidServers))
	}
	if e.BadMode != "" {
		parts = append(parts, sessionBadMode(e.BadMode))
	}
	for _, p := range e.BadPreload {
		parts = append(parts, "preload "+p.String())
	}
	return "catalog: " + strings.Join(parts, "; ")
}

// Reasons a loadTools name fails.
const (
	ProblemUnknown   = "unknown"
	ProblemAmbiguous = "ambiguous"
)

// NameProblem is one loadTools name that could not be loaded.
type NameProblem struct {
	Name   string `json:"name"`
	Reason string `json:"reason"` // ProblemUnknown or ProblemAmbiguous
	// Kinds that have the bare tool name (ambiguous only).
	Kinds []string `json:"kinds,omitempty"`
	// Options are names to use instead: the qualified names (ambiguous) or
	// the nearest valid names (unknown).
	Options []string `json:"options,omitempty"`
}

func (p NameProblem) String() string {
	if p.Reason == ProblemAmbiguous {
		return loadAmbiguous(p.Name, p.Kinds, p.Options)
	}
	return loadUnknown(p.Name, p.Options)
}

// LoadError lists the loadTools names that failed. Its text is written
// for the model.
type LoadError struct {
	Problems []NameProblem `json:"problems"`
}

func (e *LoadError) Error() string {
	lines := make([]string, len(e.Problems))
	for i, p := range e.Problems {
		lines[i] = p.String()
	}
	return loadErrorText(lines)
}

// Reasons the gates refuse a call. They are spelled as the mcpfleet.Reason
// of the same name (the catalog does not import the root), so that metrics,
// records and spans key on one vocabulary; mcpfleet.Classify reads them
// from a GateError.
const (
	// ReasonUnknown: no such tool on that server for this session's scopes.
	ReasonUnknown = "unknown_tool"
	// ReasonNotLoaded: the tool exists but loadTools has not loaded it.
	ReasonNotLoaded = "not_loaded"
	// ReasonNotInSession: the tool exists but this session (mode off) has
	// no way to load it.
	ReasonNotInSession = "not_in_session"
	// ReasonNotPermitted: the caller's scopes do not grant the tool
	// (Catalog.Permit only).
	ReasonNotPermitted = "not_permitted"
)

// GateError is the execution gate's refusal. Its text is written for the
// model and points it at searchTools or loadTools.
type GateError struct {
	Server, Tool string
	Kind         string // set unless Reason is ReasonUnknown
	Reason       string
	// KindName is the loadTools name that loads Tool on every server of
	// Kind (ReasonNotLoaded only): "kind.tool", or the bare tool when a
	// server named like the kind takes "kind.tool" for itself. Empty when
	// no single name does, or when it would load Server alone.
	KindName string
	// MetaTools records whether the session offers loadTools/searchTools,
	// which decides what the text suggests.
	MetaTools bool
	// Needs are the scopes the tool requires (ReasonNotPermitted only).
	Needs []string
}

// Error is the refusal on one line; it reads as ModelText does.
func (e *GateError) Error() string { return gateText(e) }

// ModelText is the refusal as a model reads it: what is wrong and what to
// call instead. It is pinned by testdata/errors.golden.
func (e *GateError) ModelText() string { return gateText(e) }

// RejectReason is the reason in mcpfleet's vocabulary, for
// mcpfleet.Classify.
func (e *GateError) RejectReason() string { return e.Reason }
