package mcpfleet

import (
	"context"
	"encoding/json"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"
)

// Instrumentation is the name of the tracer and meter mcpfleet uses.
const Instrumentation = "github.com/mcpfleet/mcpfleet"

// Span and metric attribute keys of mcpfleet's own. The standard ones
// (gen_ai.*, mcp.*, error.type) are those of OpenTelemetry semantic
// conventions v1.41.0; see docs/observability.md.
const (
	AttrServer         = "mcpfleet.server"
	AttrKind           = "mcpfleet.kind"
	AttrOutcome        = "mcpfleet.outcome"
	AttrReason         = "mcpfleet.reason"
	AttrRepairs        = "mcpfleet.repairs"
	AttrTransformer    = "mcpfleet.transformer"
	AttrStage          = "mcpfleet.stage"
	AttrOffloadedBytes = "mcpfleet.offloaded_bytes"
	AttrDefused        = "mcpfleet.defused"
	AttrArguments      = "mcpfleet.arguments"
	AttrResult         = "mcpfleet.result"
	AttrCache          = "mcpfleet.cache"
)

// Semantic-convention keys (v1.41.0), spelled out so that the root
// package needs only the OpenTelemetry API.
const (
	keyGenAIOperation = attribute.Key("gen_ai.operation.name")
	keyGenAITool      = attribute.Key("gen_ai.tool.name")
	keyMCPMethod      = attribute.Key("mcp.method.name")
	keyErrorType      = attribute.Key("error.type")
)

// WithTracerProvider traces every CallTool: an execute_tool span per call
// (server, kind, tool, outcome, reason, repairs, offloaded bytes, how the
// response cache answered, and an
// event for each stage that changed or refused the call) and, when the call
// reaches its server, a client span "tools/call <tool>" whose W3C trace
// context is sent to the server in the request's _meta (traceparent,
// tracestate). Without it nothing is traced and nothing is spent on it.
// Agents built on the Mux (subagent, orchestrator) trace through the same
// provider; see [Mux.TracerProvider].
func WithTracerProvider(tp trace.TracerProvider) Option {
	return func(o *options) {
		o.tel = nil
		if tp != nil {
			o.tel = &tracing{tp: tp, tracer: tp.Tracer(Instrumentation)}
		}
	}
}

// tracing is the Mux's tracing state; nil when tracing is off.
type tracing struct {
	tp     trace.TracerProvider
	tracer trace.Tracer
	// capture is the fleet file's telemetry.capture_bytes: arguments and
	// results are recorded on spans up to this many bytes; 0 records none.
	capture int
	// metrics is what WithMetrics gave, before the span-event tee.
	metrics Metrics
}

// setupTracing wraps the metrics so that offloads and defusals become
// events on the call's span, and reads the capture setting.
func setupTracing(o *options, capture int) {
	if o.tel == nil {
		return
	}
	o.tel.capture = capture
	o.tel.metrics = o.metrics
	o.metrics = spanEvents{inner: o.metrics}
}

// TracerProvider returns the provider given with WithTracerProvider, or
// nil when tracing is off. Agents built on the Mux and the gateway in
// front of it start their spans with it, and skip that work when it is nil.
func (m *Mux) TracerProvider() trace.TracerProvider {
	if m.opts.tel == nil {
		return nil
	}
	return m.opts.tel.tp
}

// Metrics returns what WithMetrics gave, or nil. A server in front of the
// Mux (mcpfleet serve) counts what it refuses itself through it, so one
// Metrics sees every call.
func (m *Mux) Metrics() Metrics {
	if m.opts.tel != nil {
		return m.opts.tel.metrics
	}
	return m.opts.metrics
}

// Span start options that never change, made once: each option passed
// as a fresh value costs an allocation per span.
var (
	internalSpan = trace.WithSpanKind(trace.SpanKindInternal)
	clientSpan   = trace.WithSpanKind(trace.SpanKindClient)
)

// startCall starts a call's span.
func (t *tracing) startCall(ctx context.Context, c *Call) (context.Context, trace.Span) {
	return t.tracer.Start(ctx, "execute_tool "+c.Tool, internalSpan,
		trace.WithAttributes(keyGenAIOperation.String("execute_tool"), keyGenAITool.String(c.Tool),
			attribute.String(AttrServer, c.Server)))
}

// endCall records the outcome on the span and ends it. A span that
// records nothing (sampled out, or a no-op provider) is only ended.
func (t *tracing) endCall(span trace.Span, c *Call, o Outcome) {
	if !span.IsRecording() {
		span.End()
		return
	}
	attrs := make([]attribute.KeyValue, 0, 6)
	attrs = append(attrs, attribute.String(AttrKind, c.Kind), attribute.String(AttrOutcome, string(o.Status)))
	if o.Reason != "" {
		attrs = append(attrs, attribute.String(AttrReason, string(o.Reason)))
	}
	if len(c.Repairs) > 0 {
		attrs = append(attrs, attribute.StringSlice(AttrRepairs, c.Repairs))
		for _, r := range c.Repairs {
			span.AddEvent("repaired", trace.WithAttributes(attribute.String(AttrStage, "normalize"), attribute.String(AttrTransformer, r)))
		}
	}
	if o.Result != nil && o.Result.Offload != nil {
		attrs = append(attrs, attribute.Int(AttrOffloadedBytes, o.Result.Offload.Bytes))
	}
	if t.capture > 0 {
		if c.Args != nil {
			attrs = append(attrs, attribute.String(AttrArguments, capped(c.Args, t.capture)))
		}
		if o.Result != nil {
			attrs = append(attrs, attribute.String(AttrResult, capped(o.Result.CallToolResult, t.capture)))
		}
	}
	switch o.Status {
	case StatusOK, StatusRepaired:
	case StatusRejected, StatusDown:
		span.AddEvent("rejected", trace.WithAttributes(attribute.String(AttrStage, stageOf(o.Reason)), attribute.String(AttrReason, string(o.Reason))))
		attrs = append(attrs, keyErrorType.String(string(o.Reason)))
		span.SetStatus(codes.Error, string(o.Reason))
	default:
		attrs = append(attrs, keyErrorType.String(string(o.Status)))
		span.SetStatus(codes.Error, string(o.Status))
	}
	span.SetAttributes(attrs...)
	span.End()
}

// stageOf names the pipeline stage (CallTool's steps) that refuses a call
// for reason.
func stageOf(r Reason) string {
	switch r {
	case ReasonUnknownServer, ReasonUnknownTool, ReasonToolUnusable:
		return "resolve"
	case ReasonServerDown, ReasonCircuitOpen, ReasonOverloaded:
		return "send"
	case ReasonInvalidJSON:
		return "decode"
	case ReasonTransformFailed:
		return "normalize"
	case ReasonPlaceholder:
		return "placeholders"
	case ReasonInvalidArguments:
		return "validate"
	case ReasonHookRejected:
		return "before_hook"
	case ReasonNotPermitted, ReasonNotLoaded, ReasonNotInSession:
		return "permissions"
	}
	return "unknown"
}

// capped is v as JSON, cut to n bytes.
func capped(v any, n int) string {
	b, err := json.Marshal(v)
	if err != nil {
		return ""
	}
	if len(b) > n {
		return string(b[:n]) + "…"
	}
	return string(b)
}

// traceContext is the W3C Trace Context propagator. It is used directly,
// not through otel's global propagator: the Mux keeps no global state, and
// _meta carries exactly traceparent and tracestate.
var traceContext propagation.TraceContext

// callUpstream sends req with cl. With tracing on it is a client span
// whose context travels in req's _meta; with metrics on, c.upstream
// records how long the server took.
func (m *Mux) callUpstream(ctx, upctx context.Context, cl toolCaller, c *Call, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	t := m.opts.tel
	if t == nil && m.opts.metrics == nil {
		return cl.CallTool(upctx, req)
	}
	var span trace.Span
	if t != nil {
		var sctx context.Context
		sctx, span = t.tracer.Start(ctx, "tools/call "+c.Tool, clientSpan,
			trace.WithAttributes(keyMCPMethod.String("tools/call"), keyGenAITool.String(c.Tool),
				keyGenAIOperation.String("execute_tool"), attribute.String(AttrServer, c.Server)))
		req.Params.Meta = InjectTraceContext(sctx, req.Params.Meta)
	}
	start := time.Now()
	out, err := cl.CallTool(upctx, req)
	c.upstream = time.Since(start)
	if span != nil && span.IsRecording() {
		switch {
		case err != nil:
			span.SetAttributes(keyErrorType.String("transport"))
			span.SetStatus(codes.Error, err.Error())
		case out != nil && out.IsError:
			span.SetAttributes(keyErrorType.String("tool_error"))
			span.SetStatus(codes.Error, "tool_error")
		}
	}
	if span != nil {
		span.End()
	}
	return out, err
}

// InjectTraceContext returns meta (a copy, or a new one when nil) with the
// W3C trace context of ctx's span as traceparent and tracestate, the
// fields an MCP server reads to join the caller's trace. Without a valid
// span in ctx, meta is returned as is.
func InjectTraceContext(ctx context.Context, meta *mcp.Meta) *mcp.Meta {
	if !trace.SpanContextFromContext(ctx).IsValid() {
		return meta // what the propagator would inject: nothing
	}
	n := 2 // traceparent, tracestate
	if meta != nil {
		n += len(meta.AdditionalFields)
	}
	out := &mcp.Meta{AdditionalFields: make(map[string]any, n)}
	if meta != nil {
		out.ProgressToken = meta.ProgressToken
		for k, v := range meta.AdditionalFields {
			out.AdditionalFields[k] = v
		}
	}
	// The propagator writes straight into the new _meta: no carrier map
	// to build and copy on every call.
	traceContext.Inject(ctx, metaCarrier(out.AdditionalFields))
	return out
}

// metaCarrier lets the W3C propagator write into and read from a _meta's
// fields, whose values are strings on the wire.
type metaCarrier map[string]any

func (c metaCarrier) Get(key string) string { s, _ := c[key].(string); return s }
func (c metaCarrier) Set(key, value string) { c[key] = value }
func (c metaCarrier) Keys() []string {
	keys := make([]string, 0, len(c))
	for k := range c {
		keys = append(keys, k)
	}
	return keys
}

// ExtractTraceContext returns ctx with the remote span context that meta's
// traceparent and tracestate carry, for an MCP server to start its span
// under. Without them, ctx is returned as is.
func ExtractTraceContext(ctx context.Context, meta *mcp.Meta) context.Context {
	if meta == nil || metaCarrier(meta.AdditionalFields).Get("traceparent") == "" {
		return ctx // without a traceparent the propagator extracts nothing
	}
	return traceContext.Extract(ctx, metaCarrier(meta.AdditionalFields))
}

// StartServerSpan starts the server span of one tools/call an MCP server
// answers: "tools/call <tool>", kind server, a child of the trace context in
// the request's _meta when it has one. The gateway uses it for every
// request, and a server built with mcp-go joins a Mux's trace by calling it
// from a tool handler middleware. End the span when the call is answered.
func StartServerSpan(ctx context.Context, tp trace.TracerProvider, req mcp.CallToolRequest) (context.Context, trace.Span) {
	ctx = ExtractTraceContext(ctx, req.Params.Meta)
	return tp.Tracer(Instrumentation).Start(ctx, "tools/call "+req.Params.Name, trace.WithSpanKind(trace.SpanKindServer),
		trace.WithAttributes(keyMCPMethod.String("tools/call"), keyGenAITool.String(req.Params.Name),
			keyGenAIOperation.String("execute_tool")))
}

// StartMethodSpan starts the server span of one MCP request other than a
// tools/call (StartServerSpan makes those): named for the method
// ("tools/list", "initialize"), kind server, with mcp.method.name. The
// gateway opens one for every request it serves. End the span when the
// request is answered.
func StartMethodSpan(ctx context.Context, tp trace.TracerProvider, method string) (context.Context, trace.Span) {
	return tp.Tracer(Instrumentation).Start(ctx, method, trace.WithSpanKind(trace.SpanKindServer),
		trace.WithAttributes(keyMCPMethod.String(method)))
}

// ErrorType is the semconv error.type attribute, for spans of servers
// built around the Mux.
func ErrorType(v string) attribute.KeyValue { return keyErrorType.String(v) }

// spanEvents records offloads and defusals as events on the call's span,
// and passes everything on to the Metrics given with WithMetrics, if any.
type spanEvents struct{ inner Metrics }

func (s spanEvents) CallDone(ctx context.Context, c *Call, o Outcome) {
	if s.inner != nil {
		s.inner.CallDone(ctx, c, o)
	}
}

func (s spanEvents) Offloaded(ctx context.Context, c *Call, n int64) {
	trace.SpanFromContext(ctx).AddEvent("offloaded", trace.WithAttributes(attribute.String(AttrStage, "offload"), attribute.Int64(AttrOffloadedBytes, n)))
	if s.inner != nil {
		s.inner.Offloaded(ctx, c, n)
	}
}

func (s spanEvents) Defused(ctx context.Context, c *Call, n int) {
	trace.SpanFromContext(ctx).AddEvent("defused", trace.WithAttributes(attribute.String(AttrStage, "neutralize"), attribute.Int(AttrDefused, n)))
	if s.inner != nil {
		s.inner.Defused(ctx, c, n)
	}
}

// Cached records how the response cache answered as the span's
// mcpfleet.cache attribute (hit, shared, miss).
func (s spanEvents) Cached(ctx context.Context, c *Call, r CacheResult) {
	trace.SpanFromContext(ctx).SetAttributes(attribute.String(AttrCache, string(r)))
	if s.inner != nil {
		s.inner.Cached(ctx, c, r)
	}
}

func (s spanEvents) PinFlagged(ctx context.Context, is PinIssue) {
	if s.inner != nil {
		s.inner.PinFlagged(ctx, is)
	}
}

func (s spanEvents) Reconnected(ctx context.Context, server string) {
	if s.inner != nil {
		s.inner.Reconnected(ctx, server)
	}
}
