package gateway

import (
	"context"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"

	"github.com/mcpfleet/mcpfleet"
)

// RequestMetrics is implemented by a mcpfleet.Metrics that also counts the
// requests the gateway serves (metrics/otelmetrics does). The gateway
// finds it on the Mux's Metrics; without it, requests are not counted.
type RequestMetrics interface {
	// RequestStarted is called when a request to a gateway tool begins.
	RequestStarted(ctx context.Context, tool string)
	// RequestDone is called when it is answered; errType is "" for a
	// success, else the error.type ("tool_error" for a result with
	// IsError).
	RequestDone(ctx context.Context, tool string, d time.Duration, errType string)
}

// InFlight is the number of requests being served now.
func (g *Gateway) InFlight() int64 { return g.inflight.Load() }

// observe wraps a tool handler: it holds the request in flight (shutdown
// waits for it), counts it through the Mux's Metrics, and, with tracing on,
// makes it a server span, a child of the trace context in the request's
// _meta when the client sent one.
func (g *Gateway) observe(name string, h func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error)) func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	return func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		g.inflight.Add(1)
		defer g.inflight.Add(-1)
		var span trace.Span
		if tp := g.mux.TracerProvider(); tp != nil {
			ctx, span = mcpfleet.StartServerSpan(ctx, tp, req)
		}
		rm, _ := g.mux.Metrics().(RequestMetrics)
		var start time.Time
		if rm != nil {
			rm.RequestStarted(ctx, name)
			start = time.Now()
		}
		res, err := h(ctx, req)
		errType := ""
		switch {
		case err != nil:
			errType = "_OTHER"
		case res != nil && res.IsError:
			errType = "tool_error"
		}
		if rm != nil {
			rm.RequestDone(ctx, name, time.Since(start), errType)
		}
		if span != nil {
			if errType != "" {
				span.SetAttributes(mcpfleet.ErrorType(errType))
				span.SetStatus(codes.Error, errType)
			}
			span.End()
		}
		return res, err
	}
}

// refused counts a call the gateway refused itself, before the Mux saw
// it, through the Mux's Metrics, so one Metrics sees every call.
func (g *Gateway) refused(ctx context.Context, server, tool string, reason mcpfleet.Reason) {
	m := g.mux.Metrics()
	if m == nil {
		return
	}
	kind, _ := g.mux.KindOf(server)
	m.CallDone(ctx, &mcpfleet.Call{Server: server, Kind: kind, Tool: tool}, mcpfleet.Outcome{Status: mcpfleet.StatusRejected, Reason: reason})
}
