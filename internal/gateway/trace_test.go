package gateway_test

import (
	"context"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mark3labs/mcp-go/mcp"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"

	"github.com/mcpfleet/mcpfleet"
	"github.com/mcpfleet/mcpfleet/internal/gateway"
	"github.com/mcpfleet/mcpfleet/internal/otlptest"
	"github.com/mcpfleet/mcpfleet/telemetry"
)

// TestServerSpansOTLP exports the gateway's spans over OTLP/HTTP to a
// real receiver: every MCP request it serves is one server span named for
// its method with mcp.method.name, tools/call included once (observe's,
// with the tool), under the trace the client sent in _meta; a request
// answered with a JSON-RPC error is an error span.
func TestServerSpansOTLP(t *testing.T) {
	recv := otlptest.Start(t)
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", recv.URL)
	t.Setenv("OTEL_SERVICE_NAME", "gateway-test")
	tel, err := telemetry.Start(t.Context(), telemetry.Options{})
	if err != nil {
		t.Fatal(err)
	}
	f := newFleet(t, tel.MuxOptions()...)
	c := connect(t, newGateway(t, gateway.Config{Mux: f.mux}))

	ctx, caller := tel.TracerProvider().Tracer("client").Start(context.Background(), "agent")
	list := mcp.ListToolsRequest{}
	list.Params.Meta = mcpfleet.InjectTraceContext(ctx, nil)
	if _, err := c.ListTools(t.Context(), list); err != nil {
		t.Fatal(err)
	}
	tracedEcho(t, c, ctx)
	if _, err := c.ListPrompts(t.Context(), mcp.ListPromptsRequest{}); err == nil {
		t.Fatal("prompts/list answered; the gateway serves no prompts")
	}
	caller.End()
	if err := tel.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}

	type server struct {
		Name, Method, ErrorType string
		InCallerTrace, Error    bool
	}
	var got []server
	for _, s := range recv.Spans() {
		if s.Kind != tracepb.Span_SPAN_KIND_SERVER {
			continue
		}
		got = append(got, server{s.Name, s.Attrs["mcp.method.name"], s.Attrs["error.type"],
			s.TraceID == caller.SpanContext().TraceID().String(), s.StatusError})
	}
	slices.SortFunc(got, func(a, b server) int { return cmpString(a.Name, b.Name) })
	// The client's handshake, before the caller's trace began, is one
	// span too: initialize, or server/discover in the stateless protocol
	// the in-process client negotiates.
	var handshake []server
	got = slices.DeleteFunc(got, func(s server) bool {
		if s.Name == "initialize" || s.Name == "server/discover" {
			handshake = append(handshake, s)
			return true
		}
		return false
	})
	if len(handshake) != 1 || handshake[0].Method != handshake[0].Name || handshake[0].Error {
		t.Errorf("handshake spans = %+v, want one initialize or server/discover", handshake)
	}
	want := []server{
		{Name: "prompts/list", Method: "prompts/list", ErrorType: "_OTHER", Error: true},
		{Name: "tools/call callTool", Method: "tools/call", InCallerTrace: true},
		{Name: "tools/list", Method: "tools/list", InCallerTrace: true},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("server spans (-want +got):\n%s", diff)
	}
}

func cmpString(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
