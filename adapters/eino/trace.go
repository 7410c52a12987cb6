package eino

import (
	"context"

	"github.com/cloudwego/eino/components"
	"github.com/cloudwego/eino/components/model"
	"github.com/cloudwego/eino/schema"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"

	"github.com/mcpfleet/mcpfleet"
)

// Semantic-convention keys (v1.41.0) of agent and model spans.
const (
	KeyOperation    = attribute.Key("gen_ai.operation.name")
	KeyAgentName    = attribute.Key("gen_ai.agent.name")
	KeyInputTokens  = attribute.Key("gen_ai.usage.input_tokens")
	KeyOutputTokens = attribute.Key("gen_ai.usage.output_tokens")
	KeyToolName     = attribute.Key("gen_ai.tool.name")
)

// StartAgentSpan starts an agent run's span, "invoke_agent <name>", or
// returns ctx and nil when tp is nil (tracing off).
func StartAgentSpan(ctx context.Context, tp trace.TracerProvider, name string, attrs ...attribute.KeyValue) (context.Context, trace.Span) {
	if tp == nil {
		return ctx, nil
	}
	return tp.Tracer(mcpfleet.Instrumentation).Start(ctx, "invoke_agent "+name, trace.WithSpanKind(trace.SpanKindInternal),
		trace.WithAttributes(append([]attribute.KeyValue{KeyOperation.String("invoke_agent"), KeyAgentName.String(name)}, attrs...)...))
}

// StartCreateAgentSpan starts the span of building an agent,
// "create_agent <name>", or returns ctx and nil when tp is nil.
func StartCreateAgentSpan(ctx context.Context, tp trace.TracerProvider, name string) (context.Context, trace.Span) {
	if tp == nil {
		return ctx, nil
	}
	return tp.Tracer(mcpfleet.Instrumentation).Start(ctx, "create_agent "+name, trace.WithSpanKind(trace.SpanKindInternal),
		trace.WithAttributes(KeyOperation.String("create_agent"), KeyAgentName.String(name)))
}

// StartToolSpan starts the span of a tool that is not an MCP call (the
// orchestrator's spawnSubagents), "execute_tool <name>", or returns ctx
// and nil when tp is nil. MCP calls get theirs from the Mux.
func StartToolSpan(ctx context.Context, tp trace.TracerProvider, name string) (context.Context, trace.Span) {
	if tp == nil {
		return ctx, nil
	}
	return tp.Tracer(mcpfleet.Instrumentation).Start(ctx, "execute_tool "+name, trace.WithSpanKind(trace.SpanKindInternal),
		trace.WithAttributes(KeyOperation.String("execute_tool"), KeyToolName.String(name)))
}

// EndSpan ends span (nil is fine), marking err.
func EndSpan(span trace.Span, err error, attrs ...attribute.KeyValue) {
	if span == nil {
		return
	}
	span.SetAttributes(attrs...)
	if err != nil {
		span.SetStatus(codes.Error, err.Error())
	}
	span.End()
}

// TraceModel wraps m so that each model call is a span "chat" under the
// agent's, with the tokens in and out the model's response reports (the
// usage eino's model callbacks carry). It returns m itself when tp is nil.
func TraceModel(tp trace.TracerProvider, agent string, m model.BaseChatModel) model.BaseChatModel {
	if tp == nil {
		return m
	}
	return &tracedModel{inner: m, tracer: tp.Tracer(mcpfleet.Instrumentation), agent: agent}
}

type tracedModel struct {
	inner  model.BaseChatModel
	tracer trace.Tracer
	agent  string
}

func (t *tracedModel) start(ctx context.Context) (context.Context, trace.Span) {
	return t.tracer.Start(ctx, "chat", trace.WithSpanKind(trace.SpanKindClient),
		trace.WithAttributes(KeyOperation.String("chat"), KeyAgentName.String(t.agent)))
}

func (t *tracedModel) Generate(ctx context.Context, in []*schema.Message, opts ...model.Option) (*schema.Message, error) {
	ctx, span := t.start(ctx)
	msg, err := t.inner.Generate(ctx, in, opts...)
	var attrs []attribute.KeyValue
	if msg != nil && msg.ResponseMeta != nil && msg.ResponseMeta.Usage != nil {
		u := msg.ResponseMeta.Usage
		attrs = append(attrs, KeyInputTokens.Int(u.PromptTokens), KeyOutputTokens.Int(u.CompletionTokens))
	}
	if msg != nil && len(msg.ToolCalls) > 0 {
		names := make([]string, len(msg.ToolCalls))
		for i, c := range msg.ToolCalls {
			names[i] = c.Function.Name
		}
		attrs = append(attrs, attribute.StringSlice("mcpfleet.tool_calls", names))
	}
	EndSpan(span, err, attrs...)
	return msg, err
}

// Stream's span ends when the stream is returned: it times the wait for
// the first chunk, and carries no token counts.
func (t *tracedModel) Stream(ctx context.Context, in []*schema.Message, opts ...model.Option) (*schema.StreamReader[*schema.Message], error) {
	ctx, span := t.start(ctx)
	sr, err := t.inner.Stream(ctx, in, opts...)
	EndSpan(span, err)
	return sr, err
}

// IsCallbacksEnabled forwards the inner model's answer (see DEPENDENCIES.md).
func (t *tracedModel) IsCallbacksEnabled() bool { return components.IsCallbacksEnabled(t.inner) }
