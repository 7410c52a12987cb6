package gateway_test

import (
	"context"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"github.com/mcpfleet/mcpfleet"
	"github.com/mcpfleet/mcpfleet/internal/gateway"
)

// TestServerSpan: a request is a server span under the trace context the
// client sent in _meta, and the Mux's spans are its children.
func TestServerSpan(t *testing.T) {
	rec := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
	f := newFleet(t, mcpfleet.WithTracerProvider(tp))
	c := connect(t, newGateway(t, gateway.Config{Mux: f.mux}))

	ctx, caller := tp.Tracer("client").Start(context.Background(), "agent")
	tracedEcho(t, c, ctx)
	caller.End()
	parent := map[string]string{}
	ids := map[trace.SpanID]string{}
	for _, s := range rec.Ended() {
		ids[s.SpanContext().SpanID()] = s.Name() + "/" + s.SpanKind().String()
		if s.Name() == "server/discover" {
			continue // connect's handshake, before the caller's trace began
		}
		if s.SpanContext().TraceID() != caller.SpanContext().TraceID() {
			t.Errorf("span %s is in trace %s, want the caller's %s", s.Name(), s.SpanContext().TraceID(), caller.SpanContext().TraceID())
		}
	}
	for _, s := range rec.Ended() {
		parent[ids[s.SpanContext().SpanID()]] = ids[s.Parent().SpanID()]
	}
	want := map[string]string{
		"agent/internal":             "",
		"tools/call callTool/server": "agent/internal",
		"execute_tool echo/internal": "tools/call callTool/server",
		"tools/call echo/client":     "execute_tool echo/internal",
	}
	for k, v := range want {
		if parent[k] != v {
			t.Errorf("parent of %s = %q, want %q (all: %v)", k, parent[k], v, parent)
		}
	}
}

// tracedEcho calls misc's echo through callTool, sending the trace
// context of ctx in _meta as a traced client does.
func tracedEcho(t *testing.T, c *client.Client, ctx context.Context) {
	t.Helper()
	req := mcp.CallToolRequest{}
	req.Params.Name = "callTool"
	req.Params.Arguments = map[string]any{"server": "misc", "tool": "echo", "arguments": map[string]any{"text": "a"}}
	req.Params.Meta = mcpfleet.InjectTraceContext(ctx, nil)
	if _, err := c.CallTool(t.Context(), req); err != nil {
		t.Fatal(err)
	}
}
