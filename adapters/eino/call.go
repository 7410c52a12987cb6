package eino

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/cloudwego/eino/callbacks"
	"github.com/cloudwego/eino/components"
	"github.com/cloudwego/eino/components/tool"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpfleet/mcpfleet"
)

// Call statuses, as reported in CallRecord.Status. They bucket the root's
// statuses (mcpfleet.Classify) for a model's transcript: CallRecord.Detail
// keeps the root's finer status or reject reason.
const (
	StatusOK       = string(mcpfleet.StatusOK)
	StatusRepaired = string(mcpfleet.StatusRepaired) // the gates fixed the arguments, then the call succeeded
	StatusRejected = string(mcpfleet.StatusRejected) // a gate refused the call (or the server was down); the server was not hit
	StatusError    = "error"                         // the tool answered IsError, or the upstream failed or timed out
)

// CallbackType is the RunInfo.Type eino callback handlers see for MCP calls.
const CallbackType = "MCP"

// CallRecord describes one MCP call made through the adapter.
type CallRecord struct {
	Name     string          `json:"name,omitempty"` // model-facing tool name
	Server   string          `json:"server"`
	Tool     string          `json:"tool"`
	Args     json.RawMessage `json:"args,omitempty"`
	Status   string          `json:"status"`
	Detail   string          `json:"detail,omitempty"` // finer status: timeout, tool_error, reject reason
	Repairs  []string        `json:"repairs,omitempty"`
	Duration time.Duration   `json:"duration_ns"`
	// Offloaded is the ResultStore handle when the result was too large for
	// the context and the model got a preview instead.
	Offloaded string `json:"offloaded,omitempty"`
	// Text is exactly what the model receives as the tool result.
	Text string `json:"-"`
}

// Call runs one MCP call through mx and renders the outcome as model-readable
// text. It never returns a Go error: eino aborts the whole agent run when a tool
// does, and a rejection, an IsError answer or a timeout is something the model
// should read and act on.
//
// The call is reported to the eino callback handlers in ctx (OnStart, then
// OnEnd or OnError) with RunInfo{Name: name, Type: "MCP", Component: Tool}, so
// per-run handlers (compose.WithCallbacks, adk.WithCallbacks) trace it.
func Call(ctx context.Context, mx *mcpfleet.Mux, name, server, toolName string, args json.RawMessage) CallRecord {
	rec, _ := call(ctx, mx, name, server, toolName, args)
	return rec
}

// call is Call that also returns the MCP result the record was rendered
// from (nil when the server was not reached), for multimodal rendering.
func call(ctx context.Context, mx *mcpfleet.Mux, name, server, toolName string, args json.RawMessage) (CallRecord, *mcp.CallToolResult) {
	if name == "" {
		name = toolName
	}
	ctx = callbacks.ReuseHandlers(ctx, &callbacks.RunInfo{Name: name, Type: CallbackType, Component: components.ComponentOfTool})
	ctx = callbacks.OnStart(ctx, &tool.CallbackInput{ArgumentsInJSON: string(args),
		Extra: map[string]any{"server": server, "tool": toolName}})
	start := time.Now()
	res, err := mx.CallTool(ctx, server, toolName, args)
	rec := CallRecord{Name: name, Server: server, Tool: toolName, Args: args, Duration: time.Since(start)}
	var out *mcp.CallToolResult
	if err == nil {
		out = &res.CallToolResult
	}
	st, reason := mcpfleet.Classify(res, err)
	var rej *mcpfleet.RejectError
	switch {
	case errors.As(err, &rej):
		rec.Status, rec.Detail = StatusRejected, string(reason)
		rec.Text = rejectText(server, toolName, rej)
	case err != nil:
		rec.Status, rec.Detail = StatusError, string(st)
		rec.Text = errorText(server, toolName, err.Error())
	case st == mcpfleet.StatusToolError:
		rec.Status, rec.Detail, rec.Repairs = StatusError, string(st), res.Repairs
		rec.Text = errorText(server, toolName, renderResult(res))
	default:
		rec.Status, rec.Repairs = string(st), res.Repairs
		if res.Args != nil {
			if b, merr := json.Marshal(res.Args); merr == nil {
				rec.Args = b
			}
		}
		rec.Text = renderResult(res)
		if res.Offload != nil {
			rec.Offloaded = res.Offload.Handle
		}
	}
	switch {
	case err != nil:
		// The Mux's error names the call and its reason, and handlers can
		// errors.As it to a *RejectError or *UpstreamError.
		callbacks.OnError(ctx, err)
	case rec.Status == StatusError:
		callbacks.OnError(ctx, fmt.Errorf("%s.%s: %s: %s", server, toolName, rec.Detail, renderResult(res)))
	default:
		callbacks.OnEnd(ctx, &tool.CallbackOutput{Response: rec.Text,
			Extra: map[string]any{"server": server, "tool": toolName, "status": rec.Status}})
	}
	return rec, out
}

// Render turns an MCP result into text for a model.
//
// Images and audio are referenced, not inlined ("[image image/png, 92 bytes
// base64]"), embedded text resources are inlined, and structured content is
// appended as JSON when the text does not already carry it. This is the
// whole result for a Tool, and the text part of a MultimodalTool's result,
// which adds the images themselves.
func Render(r *mcp.CallToolResult) string { return render(r, false) }

// renderResult renders a Mux result: as Render, leaving out a
// structuredContent that only re-wraps the text (the Mux says so in
// StructuredRepeatsText), which would show the model the text twice.
func renderResult(res *mcpfleet.Result) string {
	return render(&res.CallToolResult, res.StructuredRepeatsText)
}

func render(r *mcp.CallToolResult, structuredRepeats bool) string {
	var parts []string
	text := ""
	for _, c := range r.Content {
		switch v := c.(type) {
		case mcp.TextContent:
			parts = append(parts, v.Text)
			text += v.Text
		case mcp.ImageContent:
			parts = append(parts, fmt.Sprintf("[image %s, %d bytes base64]", v.MIMEType, len(v.Data)))
		case mcp.AudioContent:
			parts = append(parts, fmt.Sprintf("[audio %s, %d bytes base64]", v.MIMEType, len(v.Data)))
		case mcp.ResourceLink:
			parts = append(parts, fmt.Sprintf("[resource %s %s]", v.URI, v.Name))
		case mcp.EmbeddedResource:
			if tr, ok := v.Resource.(mcp.TextResourceContents); ok {
				parts = append(parts, tr.Text)
			} else if br, ok := v.Resource.(mcp.BlobResourceContents); ok {
				parts = append(parts, fmt.Sprintf("[resource %s %s, %d bytes base64]", br.URI, br.MIMEType, len(br.Blob)))
			}
		}
	}
	if r.StructuredContent != nil && !structuredRepeats {
		if b, err := json.Marshal(r.StructuredContent); err == nil && !strings.Contains(text, string(b)) {
			parts = append(parts, "structured: "+string(b))
		}
	}
	return strings.Join(parts, "\n")
}
