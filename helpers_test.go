package mcpfleet_test

import (
	"regexp"
	"strings"

	"github.com/mcpfleet/mcpfleet"
)

var envelopeRE = regexp.MustCompile(`(?m)^<tool_output [^\n]*>\n|\n</tool_output>$`)

// plain returns a result's text without the neutralization envelopes, for
// tests about what the server answered.
func plain(res *mcpfleet.Result) string {
	if res == nil {
		return ""
	}
	return strings.TrimSpace(envelopeRE.ReplaceAllString(res.Text(), ""))
}
