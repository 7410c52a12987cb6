package mcpfleet

import (
	"context"
	"fmt"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpfleet/mcpfleet/internal/offload"
)

// shape is the one step that makes a result what the caller gets, after
// the result hooks: it measures r as a model would read it, offloads it
// when that is over the kind's offload_tokens (the store gets the text,
// the caller a preview), and neutralizes what stays in the context. The
// stages do not call each other; shape runs them in this order, so that
// offloading first keeps the cost of neutralizing a 50 MB result to its
// preview (ReadResult and GrepResult neutralize what they return).
//
// repeats says that r's structuredContent only re-wraps its text (see
// rewraps). r is not modified.
func (m *Mux) shape(ctx context.Context, c *Call, r *mcp.CallToolResult, repeats bool) (*mcp.CallToolResult, *Offload) {
	if m.store != nil {
		limit := m.Config().OffloadTokens(c.Kind)
		if over, rd, tok := measure(r, limit, repeats); over {
			o := m.offload(ctx, c, &rd, tok, limit)
			out := offloadedResult(r, o, m.renderPreview(ctx, c, previewOf(c, o, limit)))
			// The parts left beside the preview are defused where they
			// carry text.
			m.defuseRest(ctx, c, out)
			if o.off.Handle == "" {
				return out, nil
			}
			return out, o.off
		}
	}
	if m.neut != nil {
		return m.neutralizeResult(ctx, c, r), nil
	}
	return r, nil
}

// renderPreview joins the preview's note with its head and tail, each in
// the tool_output envelope.
func (m *Mux) renderPreview(ctx context.Context, c *Call, p previewParts) string {
	var b strings.Builder
	b.WriteString(p.note)
	b.WriteString(m.envelope(ctx, c, p.head, fmt.Sprintf("first %d lines", offload.Lines(p.head))))
	if p.tail != "" {
		b.WriteString("\n")
		b.WriteString(m.envelope(ctx, c, p.tail, fmt.Sprintf("last %d lines", offload.Lines(p.tail))))
	}
	return b.String()
}
