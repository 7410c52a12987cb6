package mcpfleet

// Reason says why a call was stopped before or instead of reaching its
// server. Reasons are stable strings: metrics and models key on them.
type Reason string

// The reasons a call can be rejected. Steps 1–5 of the pipeline never reach
// the server; the others are decided by mcpfleet's own gates.
const (
	ReasonUnknownServer    Reason = "unknown_server"
	ReasonUnknownTool      Reason = "unknown_tool"
	ReasonServerDown       Reason = "server_down"
	ReasonToolUnusable     Reason = "tool_unusable"
	ReasonInvalidJSON      Reason = "invalid_json"
	ReasonTransformFailed  Reason = "transform_failed"
	ReasonPlaceholder      Reason = "placeholder"
	ReasonInvalidArguments Reason = "invalid_arguments"
	ReasonHookRejected     Reason = "hook_rejected"
	ReasonOverloaded       Reason = "overloaded"
	ReasonCircuitOpen      Reason = "circuit_open"
	ReasonNotPermitted     Reason = "not_permitted"
	// ReasonNotLoaded: a session's gate: the tool exists but loadTools
	// has not loaded it (catalog.Session.AllowContext).
	ReasonNotLoaded Reason = "not_loaded"
	// ReasonNotInSession: a session's gate: the tool exists but the
	// session has no way to load it.
	ReasonNotInSession Reason = "not_in_session"
	// ReasonQuarantined: pinning: enforce keeps the tool from use, since
	// its definition differs from the lock, is not in it, or reads as
	// poisoned.
	ReasonQuarantined Reason = "quarantined"
)

// A gateRefusal is a refusal by a gate that runs outside the Mux, the
// catalog's (catalog.GateError from Session.AllowContext or
// Catalog.Permit), whose reason is one of the Reasons above. Classify
// reads it, so callers of those gates map no reason by hand.
type gateRefusal interface {
	error
	RejectReason() string
}
