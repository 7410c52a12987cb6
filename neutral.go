package mcpfleet

import (
	"context"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
)

// neutralizeResult marks each text block of r as data from c's server and
// tool, and defuses what imitates instructions inside it. Non-text contents
// are left as they are; r itself is not modified.
func (m *Mux) neutralizeResult(ctx context.Context, c *Call, r *mcp.CallToolResult) *mcp.CallToolResult {
	out := *r
	out.Content = make([]mcp.Content, len(r.Content))
	for i, ct := range r.Content {
		if t, ok := ct.(mcp.TextContent); ok {
			t.Text = m.envelope(ctx, c, t.Text, "")
			ct = t
		}
		out.Content[i] = ct
	}
	return &out
}

// envelope defuses text and wraps it in the tool_output block. With
// neutralization off it returns text unchanged.
func (m *Mux) envelope(ctx context.Context, c *Call, text, part string) string {
	if m.neut == nil {
		return text
	}
	text, n := m.neut.Defuse(text)
	if n > 0 && m.opts.metrics != nil {
		m.opts.metrics.Defused(ctx, c, n)
	}
	return renderEnvelope(attrSafe(c.Server), attrSafe(c.Tool), part, text)
}

// attrSafe keeps a server or tool name from breaking out of the envelope's
// attribute: both come from the fleet and its servers, and tool names are
// untrusted.
func attrSafe(s string) string {
	ok := true
	for i := 0; i < len(s); i++ {
		if !nameByte(s[i]) {
			ok = false
			break
		}
	}
	if ok {
		return s
	}
	return strings.Map(func(r rune) rune {
		if r < 0x80 && nameByte(byte(r)) {
			return r
		}
		return '_'
	}, s)
}

func nameByte(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9' || b == '_' || b == '-' || b == '.' || b == '/'
}
