package telemetry_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http/httptest"
	"os/exec"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"

	"github.com/mcpfleet/mcpfleet"
	"github.com/mcpfleet/mcpfleet/config"
	"github.com/mcpfleet/mcpfleet/internal/otlptest"
	"github.com/mcpfleet/mcpfleet/internal/testfleet"
	"github.com/mcpfleet/mcpfleet/internal/testservice"
	"github.com/mcpfleet/mcpfleet/telemetry"
)

// joining serves the test tools; every tools/call starts a server span
// under the trace context of its _meta, as a traced MCP server would.
func joining(t *testing.T, tel *telemetry.Telemetry) *server.MCPServer {
	srv := testfleet.NewServer("s1", testfleet.Options{})
	mw := server.WithToolHandlerMiddleware(func(next server.ToolHandlerFunc) server.ToolHandlerFunc {
		return func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			ctx, span := mcpfleet.StartServerSpan(ctx, tel.TracerProvider(), req)
			defer span.End()
			return next(ctx, req)
		}
	})
	mw(srv)
	return srv
}

// TestOTLPExport exports a traced call over OTLP/HTTP to a real receiver:
// the call's execute_tool span, its client span, and the in-process
// server's span, which joined the trace through the request's _meta.
func TestOTLPExport(t *testing.T) {
	recv := otlptest.Start(t)
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", recv.URL)
	t.Setenv("OTEL_SERVICE_NAME", "otlp-test")
	tel, err := telemetry.Start(t.Context(), telemetry.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if tel.TraceExporter() != "otlp" {
		t.Fatalf("trace exporter = %q, want otlp from OTEL_EXPORTER_OTLP_ENDPOINT", tel.TraceExporter())
	}
	opts := append(tel.MuxOptions(), mcpfleet.WithHealthInterval(-1), mcpfleet.WithInProcess("s1", "test", joining(t, tel)))
	mx, err := mcpfleet.New(t.Context(), nil, opts...)
	if err != nil {
		t.Fatal(err)
	}
	defer mx.Close()
	if _, err := mx.CallTool(t.Context(), "s1", "echo", json.RawMessage(`{"text":"hi"}`)); err != nil {
		t.Fatal(err)
	}
	if err := tel.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	spans := recv.Spans()
	if len(spans) != 3 {
		t.Fatalf("received %d spans, want 3: %+v", len(spans), spans)
	}
	by := map[tracepb.Span_SpanKind]otlptest.Span{}
	for _, s := range spans {
		by[s.Kind] = s
	}
	exec, client, srv := by[tracepb.Span_SPAN_KIND_INTERNAL], by[tracepb.Span_SPAN_KIND_CLIENT], by[tracepb.Span_SPAN_KIND_SERVER]
	type link struct{ Name, Parent, Trace string }
	got := []link{{exec.Name, exec.ParentID, exec.TraceID}, {client.Name, client.ParentID, client.TraceID}, {srv.Name, srv.ParentID, srv.TraceID}}
	want := []link{{"execute_tool echo", "", exec.TraceID}, {"tools/call echo", exec.SpanID, exec.TraceID}, {"tools/call echo", client.SpanID, exec.TraceID}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("span tree (-want +got):\n%s", diff)
	}
	if exec.Attrs["mcpfleet.outcome"] != "ok" || client.Attrs["mcp.method.name"] != "tools/call" || srv.Attrs["gen_ai.tool.name"] != "echo" {
		t.Errorf("attributes: exec %v, client %v, server %v", exec.Attrs, client.Attrs, srv.Attrs)
	}
	if exec.Service != "otlp-test" || exec.ResourceSchemaURL != "https://opentelemetry.io/schemas/1.41.0" {
		t.Errorf("resource: service %q, schema %q", exec.Service, exec.ResourceSchemaURL)
	}
}

// TestNothingConfigured: no file keys and no variables give no providers
// and no Mux options.
func TestNothingConfigured(t *testing.T) {
	tel, err := telemetry.Start(t.Context(), telemetry.Options{Getenv: func(string) string { return "" }})
	if err != nil {
		t.Fatal(err)
	}
	if tel.TracerProvider() != nil || tel.Metrics() != nil || tel.MetricsHandler() != nil || len(tel.MuxOptions()) != 0 {
		t.Errorf("with nothing configured: tracer %v, metrics %v, options %d; want all off", tel.TracerProvider(), tel.Metrics(), len(tel.MuxOptions()))
	}
}

// TestBadVariables: an exporter mcpfleet does not ship is an error naming
// the variable.
func TestBadVariables(t *testing.T) {
	for _, tc := range []struct{ name, value, want string }{
		{"OTEL_TRACES_EXPORTER", "zipkin", `telemetry: OTEL_TRACES_EXPORTER: got "zipkin", want one of otlp, none`},
		{"OTEL_METRICS_EXPORTER", "otlp", `telemetry: OTEL_METRICS_EXPORTER: got "otlp", want one of prometheus, none`},
	} {
		env := map[string]string{tc.name: tc.value}
		_, err := telemetry.Start(t.Context(), telemetry.Options{Getenv: func(k string) string { return env[k] }})
		var se *telemetry.SettingError
		if !errors.As(err, &se) || err.Error() != tc.want {
			t.Errorf("%s=%s: err = %v, want %s", tc.name, tc.value, err, tc.want)
		}
	}
	// The file's choice wins over the variable.
	env := map[string]string{"OTEL_TRACES_EXPORTER": "zipkin"}
	if _, err := telemetry.Start(t.Context(), telemetry.Options{File: config.Telemetry{Traces: "none"}, Getenv: func(k string) string { return env[k] }}); err != nil {
		t.Errorf("file traces: none with OTEL_TRACES_EXPORTER=zipkin: %v", err)
	}
}

// TestPrometheus scrapes the metrics handler after real calls, lints the
// scrape with promtool check metrics, and checks names and labels.
func TestPrometheus(t *testing.T) {
	promtool := testservice.Binary(t, "promtool")
	tel, err := telemetry.Start(t.Context(), telemetry.Options{Metrics: "prometheus", Getenv: func(string) string { return "" }})
	if err != nil {
		t.Fatal(err)
	}
	defer tel.Shutdown(context.Background())
	cfg := &config.Fleet{KindSettings: map[string]config.KindSettings{"test": {OffloadTokens: 100, FieldMap: map[string]string{"msg": "text"}}}}
	mx, err := mcpfleet.New(t.Context(), cfg, append(tel.MuxOptions(), mcpfleet.WithHealthInterval(-1),
		mcpfleet.WithInProcess("s1", "test", testfleet.NewServer("s1", testfleet.Options{})))...)
	if err != nil {
		t.Fatal(err)
	}
	defer mx.Close()
	if err := tel.Observe(mx); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ tool, args string }{{"echo", `{"text":"a"}`}, {"echo", `{}`}, {"fail", `{}`}, {"big", `{"bytes":5000}`}, {"echo", `{"msg":"b"}`}} {
		_, _ = mx.CallTool(t.Context(), "s1", c.tool, json.RawMessage(c.args))
	}
	rec := httptest.NewRecorder()
	tel.MetricsHandler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	scrape := rec.Body.String()
	cmd := exec.Command(promtool, "check", "metrics")
	cmd.Stdin = strings.NewReader(scrape)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("promtool check metrics: %v\n%s", err, out)
	}
	for _, want := range []string{
		`mcpfleet_calls_total{mcpfleet_kind="test",mcpfleet_outcome="ok",mcpfleet_server="s1",mcpfleet_tool="echo"`,
		`mcpfleet_calls_total{mcpfleet_kind="test",mcpfleet_outcome="rejected",mcpfleet_reason="invalid_arguments",mcpfleet_server="s1",mcpfleet_tool="echo"`,
		`mcpfleet_rejections_total{mcpfleet_kind="test",mcpfleet_outcome="rejected",mcpfleet_reason="invalid_arguments",mcpfleet_server="s1",mcpfleet_tool="echo"`,
		`mcpfleet_repairs_total{mcpfleet_kind="test",mcpfleet_server="s1",mcpfleet_tool="echo",mcpfleet_transformer="field_map"`,
		`mcpfleet_offloaded_bytes_total{mcpfleet_kind="test",mcpfleet_server="s1",mcpfleet_tool="big"`,
		`mcpfleet_call_duration_seconds_bucket{`,
		`mcp_client_operation_duration_seconds_bucket{error_type="tool_error",gen_ai_tool_name="fail",mcp_method_name="tools/call",mcpfleet_server="s1"`,
		`mcpfleet_server_up{mcpfleet_kind="test",mcpfleet_server="s1",mcpfleet_state="up"`,
		`mcpfleet_breaker_open{mcpfleet_kind="test",mcpfleet_server="s1"`,
	} {
		if !strings.Contains(scrape, want) {
			t.Errorf("scrape lacks %s", want)
		}
	}
	if t.Failed() {
		t.Logf("scrape:\n%s", scrape)
	}
}

// TestTree prints a traced call as a tree.
func TestTree(t *testing.T) {
	tree := &telemetry.Tree{}
	tel, err := telemetry.Start(t.Context(), telemetry.Options{SpanExporters: []sdktrace.SpanExporter{tree}, Getenv: func(string) string { return "" }})
	if err != nil {
		t.Fatal(err)
	}
	mx, err := mcpfleet.New(t.Context(), nil, append(tel.MuxOptions(), mcpfleet.WithHealthInterval(-1),
		mcpfleet.WithInProcess("s1", "test", joining(t, tel)))...)
	if err != nil {
		t.Fatal(err)
	}
	defer mx.Close()
	_, _ = mx.CallTool(t.Context(), "s1", "echo", json.RawMessage(`{"text":"a"}`))
	var b strings.Builder
	if err := tree.Write(&b); err != nil {
		t.Fatal(err)
	}
	var shape []string
	for _, l := range strings.Split(strings.TrimSpace(b.String()), "\n") {
		name, _, _ := strings.Cut(l, "  +")
		shape = append(shape, name)
	}
	if diff := cmp.Diff([]string{"execute_tool echo", "  tools/call echo", "    tools/call echo"}, shape); diff != "" {
		t.Errorf("tree (-want +got):\n%s\n%s", diff, b.String())
	}
	if !strings.Contains(b.String(), "server=s1 outcome=ok") {
		t.Errorf("the call's line lacks its server and outcome:\n%s", b.String())
	}
}
