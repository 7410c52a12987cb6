package mcpfleet_test

import (
	"context"
	"encoding/json"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/mark3labs/mcp-go/mcp"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"github.com/mcpfleet/mcpfleet"
	"github.com/mcpfleet/mcpfleet/config"
	"github.com/mcpfleet/mcpfleet/internal/testfleet"
)

// TestTracing runs real calls through a traced Mux and reads the spans the
// SDK recorded: an execute_tool span per call with its outcome, a client
// span per tools/call under it, and the client span's context in the
// request's _meta, as the in-process server received it.
func TestTracing(t *testing.T) {
	rec := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
	var mu sync.Mutex
	var metas []*mcp.Meta
	srv := testfleet.NewServer("s1", testfleet.Options{OnCall: func(r mcp.CallToolRequest) {
		mu.Lock()
		metas = append(metas, r.Params.Meta)
		mu.Unlock()
	}})
	cfg := &config.Fleet{KindSettings: map[string]config.KindSettings{"test": {OffloadTokens: 100, ArgsTransformer: []string{"camelCase"}}}}
	mx, err := mcpfleet.New(t.Context(), cfg, mcpfleet.WithHealthInterval(-1), mcpfleet.WithTracerProvider(tp),
		mcpfleet.WithInProcess("s1", "test", srv))
	if err != nil {
		t.Fatal(err)
	}
	defer mx.Close()
	ctx, parent := tp.Tracer("test").Start(t.Context(), "parent")
	for _, c := range []struct{ tool, args string }{
		{"echo", `{"text":"a"}`},
		{"echo", `{}`},
		{"big", `{"bytes": 5000}`},
		{"fail", `{}`},
	} {
		_, _ = mx.CallTool(ctx, "s1", c.tool, json.RawMessage(c.args))
	}
	parent.End()

	spans := rec.Ended()
	byID := map[trace.SpanID]sdktrace.ReadOnlySpan{}
	for _, s := range spans {
		byID[s.SpanContext().SpanID()] = s
	}
	type view struct {
		Name, Parent string
		Kind         trace.SpanKind
		Status       codes.Code
		Attrs        map[string]string
		Events       []string
	}
	var got []view
	for _, s := range spans {
		if s.Name() == "parent" {
			continue
		}
		v := view{Name: s.Name(), Kind: s.SpanKind(), Status: s.Status().Code, Attrs: map[string]string{}}
		if p, ok := byID[s.Parent().SpanID()]; ok {
			v.Parent = p.Name()
		}
		for _, a := range s.Attributes() {
			v.Attrs[string(a.Key)] = a.Value.Emit()
		}
		for _, e := range s.Events() {
			set := attribute.NewSet(e.Attributes...)
			v.Events = append(v.Events, e.Name+" "+set.Encoded(attribute.DefaultEncoder()))
		}
		got = append(got, v)
	}
	client := func(tool, errType string) view {
		v := view{Name: "tools/call " + tool, Parent: "execute_tool " + tool, Kind: trace.SpanKindClient,
			Attrs: map[string]string{"mcp.method.name": "tools/call", "gen_ai.tool.name": tool, "gen_ai.operation.name": "execute_tool", "mcpfleet.server": "s1"}}
		if errType != "" {
			v.Status, v.Attrs["error.type"] = codes.Error, errType
		}
		return v
	}
	exec := func(tool string, more map[string]string) view {
		v := view{Name: "execute_tool " + tool, Parent: "parent", Kind: trace.SpanKindInternal,
			Attrs: map[string]string{"gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": tool, "mcpfleet.server": "s1", "mcpfleet.kind": "test"}}
		for k, val := range more {
			v.Attrs[k] = val
		}
		return v
	}
	ok := exec("echo", map[string]string{"mcpfleet.outcome": "ok"})
	rejected := exec("echo", map[string]string{"mcpfleet.outcome": "rejected", "mcpfleet.reason": "invalid_arguments", "error.type": "invalid_arguments"})
	rejected.Status = codes.Error
	rejected.Events = []string{"rejected mcpfleet.reason=invalid_arguments,mcpfleet.stage=validate"}
	big := exec("big", map[string]string{"mcpfleet.outcome": "ok", "mcpfleet.offloaded_bytes": "5000"})
	big.Events = []string{"offloaded mcpfleet.offloaded_bytes=5000,mcpfleet.stage=offload"}
	fail := exec("fail", map[string]string{"mcpfleet.outcome": "tool_error", "error.type": "tool_error"})
	fail.Status = codes.Error
	want := []view{client("echo", ""), ok, rejected, client("big", ""), big, client("fail", "tool_error"), fail}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("spans (-want +got):\n%s", diff)
	}

	// Each call that reached the server carried its client span's
	// context in _meta.
	var clients []string
	for _, s := range spans {
		if s.SpanKind() == trace.SpanKindClient {
			clients = append(clients, "00-"+s.SpanContext().TraceID().String()+"-"+s.SpanContext().SpanID().String()+"-01")
		}
	}
	var sent []string
	for _, m := range metas {
		if m == nil {
			t.Fatal("a tools/call arrived without _meta")
		}
		sent = append(sent, m.AdditionalFields["traceparent"].(string))
	}
	if diff := cmp.Diff(clients, sent); diff != "" {
		t.Errorf("traceparent in _meta (-client spans +received):\n%s", diff)
	}
}

// TestTracingOff: without WithTracerProvider the server gets no trace
// context and the Mux has no provider to hand agents.
func TestTracingOff(t *testing.T) {
	var got *mcp.Meta
	srv := testfleet.NewServer("s1", testfleet.Options{OnCall: func(r mcp.CallToolRequest) { got = r.Params.Meta }})
	mx, err := mcpfleet.New(t.Context(), nil, mcpfleet.WithHealthInterval(-1), mcpfleet.WithInProcess("s1", "test", srv))
	if err != nil {
		t.Fatal(err)
	}
	defer mx.Close()
	if _, err := mx.CallTool(context.Background(), "s1", "echo", json.RawMessage(`{"text":"a"}`)); err != nil {
		t.Fatal(err)
	}
	if _, has := got.AdditionalFields["traceparent"]; got != nil && has {
		t.Errorf("_meta = %+v, want no traceparent without tracing", got)
	}
	if tp := mx.TracerProvider(); tp != nil {
		t.Errorf("TracerProvider() = %v without tracing, want nil", tp)
	}
}

// FuzzExtractTraceContext: whatever a client puts in _meta, extraction
// never panics, and yields either no span context or a valid one.
func FuzzExtractTraceContext(f *testing.F) {
	f.Add("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01", "vendor=a")
	f.Add("00-00000000000000000000000000000000-0000000000000000-00", "")
	f.Add("ff-zz", ",,=,")
	f.Fuzz(func(t *testing.T, parent, state string) {
		meta := &mcp.Meta{AdditionalFields: map[string]any{"traceparent": parent, "tracestate": state}}
		sc := trace.SpanContextFromContext(mcpfleet.ExtractTraceContext(context.Background(), meta))
		if sc.IsValid() && !sc.IsRemote() {
			t.Errorf("extracted %v is not marked remote", sc)
		}
		// Re-injecting what was extracted gives the same context back.
		if sc.IsValid() {
			ctx := trace.ContextWithSpanContext(context.Background(), sc)
			back := trace.SpanContextFromContext(mcpfleet.ExtractTraceContext(context.Background(), mcpfleet.InjectTraceContext(ctx, nil)))
			if back.TraceID() != sc.TraceID() || back.SpanID() != sc.SpanID() {
				t.Errorf("round trip: %v, want %v", back, sc)
			}
		}
	})
}

// TestTracingCache: how the response cache answered is on the call's span,
// and a hit has no client span, since nothing was sent.
func TestTracingCache(t *testing.T) {
	rec := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
	cfg := &config.Fleet{Cache: config.Cache{Kinds: map[string]config.KindCache{"test": {TTL: time.Minute}}}}
	mx, err := mcpfleet.New(t.Context(), cfg, mcpfleet.WithHealthInterval(-1), mcpfleet.WithTracerProvider(tp),
		mcpfleet.WithInProcess("s1", "test", testfleet.NewServer("s1", testfleet.Options{})))
	if err != nil {
		t.Fatal(err)
	}
	defer mx.Close()
	for range 2 {
		if _, err := mx.CallTool(t.Context(), "s1", "echo", json.RawMessage(`{"text":"a"}`)); err != nil {
			t.Fatal(err)
		}
	}
	var got []string
	for _, s := range rec.Ended() {
		cache := ""
		for _, a := range s.Attributes() {
			if a.Key == mcpfleet.AttrCache {
				cache = a.Value.AsString()
			}
		}
		got = append(got, s.Name()+" "+cache)
	}
	want := []string{"tools/call echo ", "execute_tool echo miss", "execute_tool echo hit"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("spans (-want +got):\n%s", diff)
	}
}
