package gateway

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/mcpfleet/mcpfleet"
)

// Model-facing text lives here: tool descriptions, the instructions, the
// listKinds rendering and refusals. It is API; testdata/*.golden pins it.

const (
	descListKinds = "List the kinds of MCP server in this fleet: each kind's servers and how many tools it has. Start here."
	descSearch    = "Search the fleet's tools by what you want to do. Returns kind.tool names, the servers that have each, and a one-line summary. Then describeTools the ones you need."
	descDescribe  = "Get the full input schemas of tools, by name: \"tool\", \"kind.tool\" or \"server.tool\". Each schema has a required \"server\" argument listing the servers that have the tool."
	descCall      = "Call a tool on one server. arguments must match the schema from describeTools (without the added \"server\" argument, which goes at the top level). Failed calls come back with the reason and how to fix them."

	descRead = "Read lines of a large result that callTool stored instead of returning, by its handle."
	descGrep = "Search a large result that callTool stored, by its handle, for lines matching a regular expression."

	descHandle    = "The handle callTool gave for the stored result."
	descOffset    = "First line to read, from 0."
	descLimit     = "How many lines (default and at most 400)."
	descPattern   = "Go RE2 regular expression."
	descContext   = "Lines of context around each match (0 to 5)."
	descQuery     = "What you want to do, in plain words, or a tool name."
	descK         = "How many results (default 5, at most 20)."
	descNames     = "Tool names: \"tool\", \"kind.tool\" or \"server.tool\"."
	descServer    = "The server to call, from the tool's server enum."
	descTool      = "The tool name, without the kind prefix."
	descArguments = "The tool's arguments, as a JSON object."
	descServerArg = "The server to call this tool on."
)

// instructions are the server instructions: the kinds overview and the
// workflow, so that the model knows the fleet before its first call.
func instructions(kinds []kindLine) string {
	var b strings.Builder
	b.WriteString("This server is a gateway to a fleet of MCP servers. Identical servers are folded into kinds; a tool of a kind can be called on any of its servers.\n\nKinds:\n")
	b.WriteString(renderKinds(kinds))
	b.WriteString("\nWorkflow: searchTools to find tools, describeTools for their schemas, callTool {server, tool, arguments} to call one.")
	return b.String()
}

// kindLine is one kind as listKinds shows it.
type kindLine struct {
	Kind    string   `json:"kind"`
	Servers []string `json:"servers"`
	Tools   int      `json:"tools"`
}

func renderKinds(kinds []kindLine) string {
	if len(kinds) == 0 {
		return "(no tools available to you)\n"
	}
	var b strings.Builder
	for _, k := range kinds {
		fmt.Fprintf(&b, "- %s (%d tools): %s\n", k.Kind, k.Tools, strings.Join(k.Servers, ", "))
	}
	return b.String()
}

func noHits(query string) string {
	return fmt.Sprintf("No tools match %q. Try other words, or listKinds to see what the fleet has.", query)
}

func describeUnknown(name string, options []string) string {
	s := fmt.Sprintf("%q: no such tool", name)
	if len(options) > 0 {
		s += "; did you mean " + quoteJoin(options) + "?"
	}
	return s
}

func describeAmbiguous(name string, options []string) string {
	return fmt.Sprintf("%q: several kinds have this tool; name one of %s", name, quoteJoin(options))
}

// storeErrorText is a readResult or grepResult failure as the model reads
// it: an unknown handle or a bad pattern says so itself; anything else is
// the store failing (Redis down), which a retry may cure.
func storeErrorText(err error) string {
	if errors.Is(err, mcpfleet.ErrResultNotFound) || errors.Is(err, mcpfleet.ErrBadPattern) {
		return err.Error()
	}
	return "The result store is unavailable right now (" + err.Error() + "). Retry in a few seconds; if it persists, call the original tool again."
}

// tooLarge refuses a request body over the limit.
func tooLarge(limit int64, got string) string {
	return fmt.Sprintf("request body too large: the limit is %d bytes, this request has %s bytes", limit, got)
}

// queryTooLong refuses a searchTools query over Config.MaxQueryBytes.
func queryTooLong(limit, got int) string {
	return fmt.Sprintf("query too long: the limit is %d bytes, this query has %d. Say what you want to do in a sentence.", limit, got)
}

// tooManyNames refuses a describeTools call over Config.MaxDescribeNames.
func tooManyNames(limit, got int) string {
	return fmt.Sprintf("too many names: the limit is %d per describeTools call, this call has %d. Describe the tools you mean to call, a few at a time.", limit, got)
}

// patternTooLong refuses a grepResult pattern over Config.MaxPatternBytes.
func patternTooLong(limit, got int) string {
	return fmt.Sprintf("pattern too long: the limit is %d bytes, this pattern has %d. Search for a distinctive word or two.", limit, got)
}

// loadedLine tells which tools a conversation has described already.
func loadedLine(names []string) string {
	if len(names) == 0 {
		return ""
	}
	return "\nDescribed earlier in this conversation (call them without describing again): " + strings.Join(names, ", ") + "\n"
}

const describeNone = "Name at least one tool: \"tool\", \"kind.tool\" or \"server.tool\" (searchTools finds them)."

// rateLimited refuses a call over a rate limit; retry is rounded up to a
// whole second, at least one.
func rateLimited(what string, perMinute int, retry time.Duration) string {
	secs := int((retry + time.Second - 1) / time.Second)
	return fmt.Sprintf("Rate limited: your calls to %s are over %d per minute, so the call was not sent. Retry after %d s.", what, perMinute, max(secs, 1))
}

// limitsUnavailable refuses a call when the limits cannot be checked and
// rate_limits.on_store_error is closed.
const limitsUnavailable = "Rate limited: the rate limits cannot be checked right now, so the call was not sent. Retry after 5 s."

const shuttingDown = "The fleet gateway is shutting down; the call was not sent. Retry once it is back."

func argMissing(name string) string {
	return fmt.Sprintf("missing required argument %q", name)
}

// upstreamText explains a call that reached the server but got no usable
// answer.
func upstreamText(err error) string {
	return err.Error() + "\nThe call may or may not have taken effect. Check before retrying, or use another server of the same kind."
}

func quoteJoin(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = fmt.Sprintf("%q", s)
	}
	return strings.Join(q, ", ")
}
