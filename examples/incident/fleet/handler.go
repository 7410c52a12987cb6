package fleet

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
)

// handler answers a call from the incident data. in describes the server
// being called; args are the decoded arguments.
type handler func(ctx context.Context, in Instance, args map[string]any) (*mcp.CallToolResult, error)

// bind attaches the data-backed handlers hs by tool name and gives every
// other tool without a handler of its own def's answer for its name: the
// kind-level Default cannot tell which tool was called, and a name makes the
// answer plausible. A name in hs that is not in the table is a programmer
// error: it panics so that a renamed tool cannot silently lose its incident
// data.
func bind(tools []toolSpec, hs map[string]handler, def func(tool string, readOnly bool) handler) []toolSpec {
	seen := 0
	for i := range tools {
		if h, ok := hs[tools[i].Name]; ok {
			seen++
			if tools[i].Handle == nil {
				tools[i].Handle = h
			}
		}
		if tools[i].Handle == nil {
			tools[i].Handle = def(tools[i].Name, tools[i].ReadOnly)
		}
	}
	if seen != len(hs) {
		for name := range hs {
			if !slices.ContainsFunc(tools, func(t toolSpec) bool { return t.Name == name }) {
				panic("fleet: handler for unknown tool " + name)
			}
		}
	}
	return tools
}

// fallbackHandler answers a tool the incident data has nothing for: reads
// find nothing, writes report success without doing anything.
func fallbackHandler(tool string, readOnly bool) handler {
	return func(_ context.Context, in Instance, args map[string]any) (*mcp.CallToolResult, error) {
		if readOnly {
			return text("%s on %s: no results for %s.", tool, in.Name, argSummary(args)), nil
		}
		return text("%s on %s: done (%s).", tool, in.Name, argSummary(args)), nil
	}
}

// Argument helpers shared by every kind's handlers. Models send numbers as
// strings and strings as numbers; the helpers accept both.

// argStr returns the first of keys present in args as a string.
func argStr(args map[string]any, keys ...string) string {
	for _, k := range keys {
		v, ok := args[k]
		if !ok || v == nil {
			continue
		}
		switch x := v.(type) {
		case string:
			return x
		case float64:
			return strconv.FormatFloat(x, 'f', -1, 64)
		case bool:
			return strconv.FormatBool(x)
		default:
			b, _ := json.Marshal(x)
			return string(b)
		}
	}
	return ""
}

// argInt returns the first of keys present in args as an int, or def.
func argInt(args map[string]any, def int, keys ...string) int {
	for _, k := range keys {
		switch x := args[k].(type) {
		case float64:
			return int(x)
		case int:
			return x
		case string:
			if n, err := strconv.Atoi(strings.TrimSpace(x)); err == nil {
				return n
			}
		}
	}
	return def
}

// argBool returns the first of keys present in args as a bool.
func argBool(args map[string]any, keys ...string) bool {
	for _, k := range keys {
		switch x := args[k].(type) {
		case bool:
			return x
		case string:
			b, _ := strconv.ParseBool(x)
			return b
		}
	}
	return false
}

// argSummary renders arguments as sorted key=value pairs for messages.
func argSummary(args map[string]any) string {
	if len(args) == 0 {
		return "the given arguments"
	}
	keys := make([]string, 0, len(args))
	for k := range args {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for i, k := range keys {
		if i > 0 {
			b.WriteString(", ")
		}
		v := argStr(args, k)
		if len(v) > 60 {
			v = v[:57] + "..."
		}
		fmt.Fprintf(&b, "%s=%s", k, v)
	}
	return b.String()
}

// jsonResult renders v as indented JSON text, the shape most real servers use.
func jsonResult(v any) *mcp.CallToolResult {
	// No HTML escaping: real servers send "->" and "<" as they are.
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return mcp.NewToolResultError("internal error: " + err.Error())
	}
	return mcp.NewToolResultText(b.String())
}

// errResult is a tool-level error for a genuinely invalid request.
func errResult(format string, a ...any) *mcp.CallToolResult {
	return mcp.NewToolResultError(fmt.Sprintf(format, a...))
}

// mentions reports whether s contains any of subs, case-insensitively.
func mentions(s string, subs ...string) bool {
	s = strings.ToLower(s)
	for _, sub := range subs {
		if sub != "" && strings.Contains(s, strings.ToLower(sub)) {
			return true
		}
	}
	return false
}

// text is a convenience for a plain-text result.
func text(format string, a ...any) *mcp.CallToolResult {
	return mcp.NewToolResultText(fmt.Sprintf(format, a...))
}
