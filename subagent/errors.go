package subagent

import (
	"fmt"
	"strings"
)

// ServersError reports a server list a subagent cannot take: empty, too long,
// or naming servers that are unknown or have no permitted tool.
type ServersError struct {
	Given   []string
	Unknown []string // unknown or not permitted under the scopes
	Valid   []string // servers that would be accepted
	Max     int
}

func (e *ServersError) Error() string {
	var parts []string
	if n := len(e.Given); n == 0 || n > e.Max {
		parts = append(parts, fmt.Sprintf("a subagent takes 1 to %d servers, got %d", e.Max, n))
	}
	if len(e.Unknown) > 0 {
		parts = append(parts, "unknown or not permitted: "+strings.Join(e.Unknown, ", "))
	}
	return "subagent: " + strings.Join(parts, "; ") + " (valid servers: " + strings.Join(e.Valid, ", ") + ")"
}
