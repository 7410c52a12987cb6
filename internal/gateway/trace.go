package gateway

import (
	"context"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/tracing"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"

	"github.com/mcpfleet/mcpfleet"
)

// methodTracer gives every MCP request the gateway serves a server span,
// as semconv v1.41.0 draws them: mcp-go opens a span named "mcp.<method>"
// around each JSON-RPC request it dispatches (server.WithTracer), and
// methodTracer makes it the span "<method>" with mcp.method.name,
// mcp.session.id and mcp.protocol.version. tools/call is left to observe,
// which names the tool and counts the request; mcp-go's own per-tool span
// is dropped for the same reason.
type methodTracer struct{ tp trace.TracerProvider }

// mcp-go's attribute keys, which semconv spells the same way.
const (
	mcpgoSessionID       = "mcp.session.id"
	mcpgoProtocolVersion = "mcp.protocol.version"
)

func (m methodTracer) Start(ctx context.Context, name string, kind tracing.SpanKind, attrs ...tracing.Attribute) (context.Context, tracing.Span) {
	method, ok := strings.CutPrefix(name, "mcp.")
	if kind != tracing.SpanKindServer || !ok || method == string(mcp.MethodToolsCall) {
		return ctx, noSpan{}
	}
	ctx, span := mcpfleet.StartMethodSpan(ctx, m.tp, method)
	for _, a := range attrs {
		if a.Key == mcpgoSessionID || a.Key == mcpgoProtocolVersion {
			span.SetAttributes(attribute.String(a.Key, a.Value))
		}
	}
	return ctx, methodSpan{span}
}

// methodSpan is an OpenTelemetry span behind mcp-go's tracing.Span. mcp-go
// sets an error status when the request was answered with a JSON-RPC
// error; its code is not passed on, so error.type is "_OTHER".
type methodSpan struct{ s trace.Span }

func (m methodSpan) SetAttributes(attrs ...tracing.Attribute) {
	for _, a := range attrs {
		m.s.SetAttributes(attribute.String(a.Key, a.Value))
	}
}

func (m methodSpan) RecordError(err error) { m.s.RecordError(err) }

func (m methodSpan) SetStatus(code tracing.StatusCode, description string) {
	if code == tracing.StatusError {
		m.s.SetAttributes(mcpfleet.ErrorType("_OTHER"))
		m.s.SetStatus(codes.Error, description)
	}
}

func (m methodSpan) End() { m.s.End() }

// noSpan is the span of a request observe traces itself.
type noSpan struct{}

func (noSpan) SetAttributes(...tracing.Attribute)   {}
func (noSpan) RecordError(error)                    {}
func (noSpan) SetStatus(tracing.StatusCode, string) {}
func (noSpan) End()                                 {}

// metaPropagator reads the trace context a client sent in a request's
// _meta, so that every request's span joins the client's trace.
type metaPropagator struct{}

func (metaPropagator) InjectMeta(ctx context.Context, meta *mcp.Meta) *mcp.Meta {
	return mcpfleet.InjectTraceContext(ctx, meta)
}

func (metaPropagator) ExtractMeta(ctx context.Context, meta *mcp.Meta) context.Context {
	return mcpfleet.ExtractTraceContext(ctx, meta)
}
