package eino

import (
	"encoding/json"
	"errors"
	"fmt"
	"regexp/syntax"
	"strings"

	"github.com/mcpfleet/mcpfleet"
)

// Model-facing text of the adapter. Changing it changes what models read.

func serverParamDesc(kind string) string {
	return fmt.Sprintf("Which %s server to call.", kind)
}

func driftDesc(server, desc string) string {
	return fmt.Sprintf("[server %s] %s", server, desc)
}

// rejectText renders a call a gate refused: a "REJECTED server.tool
// (reason)" head with the reason's meaning, then the root's problem and
// advice lines (RejectError.ModelDetails, pinned in its reject.golden), so
// this rendering follows any rewording there.
func rejectText(server, tool string, e *mcpfleet.RejectError) string {
	first := e.Reason.Explain()
	// Some reasons say it already ("…; the call was not sent").
	if !strings.Contains(first, "not sent") && !strings.Contains(first, "not called") {
		first += "; the server was not called"
	}
	out := fmt.Sprintf("REJECTED %s.%s (%s): %s.", server, tool, e.Reason, first)
	if more := e.ModelDetails(); more != "" {
		out += "\n" + more
	}
	return out
}

// errorText renders a call that failed on the way or at the server.
func errorText(server, tool, msg string) string {
	// Upstream errors already name the call; say it once.
	msg = strings.TrimPrefix(strings.TrimSpace(msg), server+"."+tool+": ")
	return fmt.Sprintf("ERROR from %s.%s: %s", server, tool, msg)
}

// badPatternText renders a grepResult pattern the root refused. Its error
// reads "mcpfleet: bad grep pattern "p": error parsing regexp: missing
// closing ): `p`. <advice>", which names the package and the pattern
// twice; the wrapped regexp error's fields let the model read "bad
// pattern "p": missing closing ). <advice>". The offending part is kept
// when it is only part of the pattern.
func badPatternText(pattern string, err error) string {
	msg := strings.Replace(err.Error(), mcpfleet.ErrBadPattern.Error(), "bad pattern", 1)
	var se *syntax.Error
	if errors.As(err, &se) {
		short := string(se.Code)
		if se.Expr != pattern {
			short += ": `" + se.Expr + "`"
		}
		msg = strings.Replace(msg, se.Error(), short, 1)
	}
	return "REJECTED " + GrepResultName + ": " + msg
}

func badArgsText(name, err string) string {
	return fmt.Sprintf("REJECTED %s: arguments are not a JSON object (%s). Send a JSON object matching the tool's schema.", name, err)
}

func missingServerText(name string, valid []string) string {
	return fmt.Sprintf("REJECTED %s: the %q argument is required; use one of: %s.", name, ServerParam, strings.Join(valid, ", "))
}

// wrongServerText names the server the model sent; got is its raw JSON, shown
// unquoted when it is a string so the model reads "k8s-9", not "\"k8s-9\"".
func wrongServerText(name, got string, valid []string) string {
	var s string
	if json.Unmarshal([]byte(got), &s) == nil {
		got = s
	}
	return fmt.Sprintf("REJECTED %s: server %q does not offer this tool; use one of: %s.", name, got, strings.Join(valid, ", "))
}

const (
	readResultDesc = "Read lines of a large tool result that was kept out of the context. Use the handle from its preview."
	grepResultDesc = "Search a large tool result that was kept out of the context, with an RE2 regular expression; returns matching lines with context."
)
