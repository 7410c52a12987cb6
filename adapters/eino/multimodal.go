package eino

import (
	"context"

	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/schema"
	"github.com/mark3labs/mcp-go/mcp"
)

// MultimodalTool is a fleet tool as an eino tool.EnhancedInvokableTool: its
// result is a schema.ToolResult whose first part is the text rendering
// (Render, or the refusal) and whose further parts are the result's images,
// which adk's ToolsNode puts into the tool message's UserInputMultiContent.
//
// Use it only with models that accept images in tool results: OpenAI's
// chat completions API, for one, takes text parts only in tool messages. A
// Tool (text only) is the default for that reason. Audio stays a text
// reference here too: eino-ext's OpenAI request builder rejects audio parts
// whose MIME type it cannot map to a format.
type MultimodalTool struct{ t *Tool }

var _ tool.EnhancedInvokableTool = (*MultimodalTool)(nil)

// Multimodal returns t as a MultimodalTool; both share the spec and OnCall.
func (t *Tool) Multimodal() *MultimodalTool { return &MultimodalTool{t: t} }

// Tool returns the text-only tool m was made from (Target, InfoFor, Spec).
func (m *MultimodalTool) Tool() *Tool { return m.t }

// Info returns the same definition as the text-only tool.
func (m *MultimodalTool) Info(ctx context.Context) (*schema.ToolInfo, error) { return m.t.Info(ctx) }

// IsCallbacksEnabled reports true, like Tool: Call reports to callbacks itself.
func (m *MultimodalTool) IsCallbacksEnabled() bool { return true }

// InvokableRun calls the MCP tool. As with Tool, failures are text parts,
// never a Go error.
func (m *MultimodalTool) InvokableRun(ctx context.Context, arg *schema.ToolArgument, _ ...tool.Option) (*schema.ToolResult, error) {
	args := ""
	if arg != nil {
		args = arg.Text
	}
	rec, res := m.t.run(ctx, args)
	return multimodalResult(rec.Text, res), nil
}

// TextResult is a one-part text ToolResult, e.g. for a gate's refusal on the
// enhanced path (adk's WrapEnhancedInvokableToolCall).
func TextResult(text string) *schema.ToolResult {
	return &schema.ToolResult{Parts: []schema.ToolOutputPart{{Type: schema.ToolPartTypeText, Text: text}}}
}

// multimodalResult is text followed by the images of r (base64 with their
// MIME type). An offloaded result carries no images: the Mux replaced its
// content by a preview.
func multimodalResult(text string, r *mcp.CallToolResult) *schema.ToolResult {
	out := TextResult(text)
	if r == nil {
		return out
	}
	for _, c := range r.Content {
		img, ok := c.(mcp.ImageContent)
		if !ok || img.Data == "" || img.MIMEType == "" {
			continue
		}
		data := img.Data
		out.Parts = append(out.Parts, schema.ToolOutputPart{Type: schema.ToolPartTypeImage,
			Image: &schema.ToolOutputImage{MessagePartCommon: schema.MessagePartCommon{Base64Data: &data, MIMEType: img.MIMEType}}})
	}
	return out
}
