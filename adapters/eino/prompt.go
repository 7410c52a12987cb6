package eino

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Model-facing text of the adapter. Changing it changes what models read.

func serverParamDesc(kind string) string {
	return fmt.Sprintf("Which %s server to call.", kind)
}

func driftDesc(server, desc string) string {
	return fmt.Sprintf("[server %s] %s", server, desc)
}

// errorText renders a failed call so the model can act on it.
func errorText(status, server, tool, msg string) string {
	switch status {
	case StatusRejected:
		return fmt.Sprintf("REJECTED %s.%s (the server was not called): %s", server, tool, msg)
	default:
		// Upstream errors already name the call; say it once.
		msg = strings.TrimPrefix(strings.TrimSpace(msg), server+"."+tool+": ")
		return fmt.Sprintf("ERROR from %s.%s: %s", server, tool, msg)
	}
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
