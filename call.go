package mcpfleet

import (
	"errors"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
)

// Call is one tool call as it moves through the pipeline. Hooks may read it;
// BeforeFuncs may change Args.
type Call struct {
	Server string
	Kind   string
	Tool   string
	// Args are the arguments after normalization: what is sent upstream.
	Args map[string]any
	// Repairs names each normalizer that changed the arguments, in order
	// ("camelCase", "field_map", …). Empty when the model's call was sent as is.
	Repairs []string
	// Definition is the tool as the server declared it.
	Definition mcp.Tool

	// upstream is how long tools/call took, when measured (see callUpstream).
	upstream time.Duration
}

// Status is the outcome class of a call, as metrics and transcripts show it.
type Status string

// Call statuses.
const (
	StatusOK            Status = "ok"
	StatusRepaired      Status = "repaired"
	StatusRejected      Status = "rejected"
	StatusToolError     Status = "tool_error" // the tool answered with IsError
	StatusUpstreamError Status = "upstream_error"
	StatusTimeout       Status = "timeout"
	StatusDown          Status = "down"
)

// Outcome is what AfterFuncs see.
type Outcome struct {
	Status   Status
	Reason   Reason // set when Status is rejected or down
	Result   *Result
	Err      error
	Duration time.Duration
	// Upstream is how long the server took to answer tools/call: 0 when
	// the call never reached it. Measured only when metrics or tracing
	// are on.
	Upstream time.Duration
}

// Result is a tool's answer plus what mcpfleet did to get it.
type Result struct {
	mcp.CallToolResult
	Server   string
	Tool     string
	Args     map[string]any // the arguments actually sent
	Repairs  []string
	Duration time.Duration
	// Offload is set when the result's text was over the kind's
	// offload_tokens and was stored: Content then holds a preview and the
	// handle, and ReadResult / GrepResult read the rest.
	Offload *Offload
	// StructuredRepeatsText is set when StructuredContent only re-wraps
	// the text blocks ({"content": <the text>}, as the reference
	// filesystem server answers): a client that shows the model the text
	// may leave the structured copy out, as adapters/eino does.
	StructuredRepeatsText bool
	// Cache is how the response cache answered the call, "" when the
	// cache does not cover it. A hit or shared answer is also marked in
	// _meta under CacheMetaKey.
	Cache CacheResult
}

// Text joins the result's text content, one block per line.
func (r *Result) Text() string {
	var s string
	for i, c := range r.Content {
		if t, ok := c.(mcp.TextContent); ok {
			if i > 0 {
				s += "\n"
			}
			s += t.Text
		}
	}
	return s
}

// Classify is the one classification of a call's outcome, as CallTool
// reports it to AfterFuncs and Metrics: the status, and for a call
// stopped by a gate, its reason. res and err are what CallTool returned,
// or err is a refusal by the catalog's gates (catalog.GateError).
// Adapters and the gateway use it rather than re-deriving the outcome.
func Classify(res *Result, err error) (Status, Reason) {
	if err == nil { // the usual case: no error chain to search
		switch {
		case res != nil && res.IsError:
			return StatusToolError, ""
		case res != nil && len(res.Repairs) > 0:
			return StatusRepaired, ""
		}
		return StatusOK, ""
	}
	var rej *RejectError
	var up *UpstreamError
	var gate gateRefusal
	switch {
	case errors.As(err, &rej):
		if rej.Reason == ReasonServerDown || rej.Reason == ReasonCircuitOpen {
			return StatusDown, rej.Reason
		}
		return StatusRejected, rej.Reason
	case errors.As(err, &gate):
		return StatusRejected, Reason(gate.RejectReason())
	case errors.As(err, &up):
		if up.Timeout {
			return StatusTimeout, ""
		}
		return StatusUpstreamError, ""
	}
	return StatusUpstreamError, ""
}
