package mcpfleet

import (
	"fmt"
	"strings"
)

// Model-facing text lives here: it is API, pinned by golden tests.

var reasonText = map[Reason]string{
	ReasonUnknownServer:    "there is no server by that name",
	ReasonUnknownTool:      "that server has no tool by that name",
	ReasonServerDown:       "the server is down right now; the call was not sent",
	ReasonToolUnusable:     "the tool's own schema is broken, so it cannot be called safely",
	ReasonInvalidJSON:      "the arguments are not a JSON object",
	ReasonTransformFailed:  "the arguments could not be normalized",
	ReasonPlaceholder:      "some arguments are placeholders, not values",
	ReasonInvalidArguments: "the arguments do not match the tool's input schema",
	ReasonHookRejected:     "a policy hook refused the call",
	ReasonOverloaded:       "the server is busy; too many calls are waiting",
	ReasonCircuitOpen:      "the server failed repeatedly; calls are paused",
	ReasonNotPermitted:     "the caller is not permitted to use this tool",
}

func renderReject(e *RejectError) string {
	var b strings.Builder
	target := e.Server
	if e.Tool != "" {
		target += "." + e.Tool
	}
	fmt.Fprintf(&b, "call to %s rejected (%s): %s.", target, e.Reason, reasonText[e.Reason])
	for _, p := range e.Problems {
		b.WriteString("\n- ")
		if p.Path != "" {
			fmt.Fprintf(&b, "at %s: ", p.Path)
		} else {
			b.WriteString("arguments: ")
		}
		parts := make([]string, 0, 3)
		if p.Got != "" {
			parts = append(parts, "got "+p.Got)
		}
		if p.Want != "" {
			parts = append(parts, "want "+p.Want)
		}
		b.WriteString(strings.Join(parts, "; "))
		if p.Hint != "" {
			if len(parts) > 0 {
				b.WriteString(". ")
			}
			b.WriteString(p.Hint)
		}
	}
	b.WriteString("\n")
	b.WriteString(rejectAdvice[e.Reason])
	return strings.TrimRight(b.String(), "\n")
}

var rejectAdvice = map[Reason]string{
	ReasonUnknownServer:    "Use one of the listed servers.",
	ReasonUnknownTool:      "Use one of the listed tools, or search the catalog.",
	ReasonServerDown:       "Try another server of the same kind, or report that this one is unavailable.",
	ReasonToolUnusable:     "Use another tool.",
	ReasonInvalidJSON:      "Send the arguments as a JSON object, e.g. {\"name\": \"value\"}.",
	ReasonTransformFailed:  "Fix the arguments as described and call again.",
	ReasonPlaceholder:      "Send real values: look them up with another tool or ask; never send a placeholder. Leave optional fields out instead.",
	ReasonInvalidArguments: "Fix the arguments as described and call again.",
	ReasonHookRejected:     "Do not retry the same call.",
	ReasonOverloaded:       "Retry later or use another server of the same kind.",
	ReasonCircuitOpen:      "Use another server of the same kind, or report that this one is failing.",
	ReasonNotPermitted:     "Do not retry; use a tool you are permitted to use.",
}
