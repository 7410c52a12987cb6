package mcpfleet

import (
	"errors"
	"fmt"
	"strings"
)

// ErrRejected matches every *RejectError through errors.Is.
var ErrRejected = errors.New("mcpfleet: call rejected")

// Problem is one thing wrong with a call, located by JSON pointer.
type Problem struct {
	Path string // JSON pointer into the arguments ("" is the whole object); "server" or "tool" for resolution problems
	Got  string // what was sent, rendered briefly
	Want string // what would have been accepted
	Hint string // how to fix it, e.g. the nearest valid name
}

// RejectError is a call stopped by a gate. Its Error text is one line for
// logs; ModelText is what a model should read: what was wrong, where, and
// what to send instead.
type RejectError struct {
	Server   string
	Tool     string
	Reason   Reason
	Problems []Problem
}

// Error is the rejection on one line, for logs: the call, the reason and
// each problem. ModelText is the form written for a model.
func (e *RejectError) Error() string {
	s := fmt.Sprintf("mcpfleet: call to %s rejected (%s): ", e.target(), e.Reason)
	if len(e.Problems) == 0 {
		return oneLine(s + e.Reason.Explain())
	}
	texts := make([]string, len(e.Problems))
	for i, p := range e.Problems {
		texts[i] = p.text()
	}
	return oneLine(s + strings.Join(texts, "; "))
}

// target is server.tool, or the server alone.
func (e *RejectError) target() string {
	if e.Tool == "" {
		return e.Server
	}
	return e.Server + "." + e.Tool
}

// Is makes errors.Is(err, ErrRejected) true for every RejectError.
func (e *RejectError) Is(target error) bool { return target == ErrRejected }

func reject(server, tool string, reason Reason, problems ...Problem) *RejectError {
	return &RejectError{Server: server, Tool: tool, Reason: reason, Problems: problems}
}

// UpstreamError is a call that reached its server and failed in transport or
// protocol: not a tool result with IsError, which is returned as a Result.
type UpstreamError struct {
	Server  string
	Tool    string
	Timeout bool // the per-call timeout or the caller's deadline ran out
	Err     error
}

func (e *UpstreamError) Error() string {
	if e.Timeout {
		return fmt.Sprintf("%s.%s: no answer in time: %v", e.Server, e.Tool, e.Err)
	}
	return fmt.Sprintf("%s.%s: upstream failed: %v", e.Server, e.Tool, e.Err)
}

func (e *UpstreamError) Unwrap() error { return e.Err }

// brief renders a value for an error message, cut short so a 40 MB argument
// cannot flood the model's context through its own rejection.
func brief(s string) string {
	const max = 80
	s = strings.ReplaceAll(s, "\n", " ")
	if len(s) > max {
		return s[:max] + "…"
	}
	return s
}
