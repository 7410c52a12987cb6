package main

import (
	"bytes"
	"os"
	"strings"
	"testing"

	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"

	"github.com/mcpfleet/mcpfleet/internal/otlptest"
)

// TestTraceOverOTLP runs the bot in-process with OTEL_EXPORTER_OTLP_ENDPOINT
// pointing at a real OTLP/HTTP receiver and checks the span tree it
// received: orchestrator → spawnSubagents → parallel subagents → model
// calls and tool calls → tools/call client spans → the in-process servers'
// spans, which joined the trace only through _meta (an in-process server's
// ctx carries none of the caller's values).
func TestTraceOverOTLP(t *testing.T) {
	recv := otlptest.Start(t)
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", recv.URL)
	t.Setenv("OTEL_SERVICE_NAME", "")
	t.Setenv("MCPFLEET_MODEL", "")
	os.Unsetenv("MCPFLEET_MODEL")
	var stdout, stderr bytes.Buffer
	if err := run(t.Context(), []string{"--inprocess", "--json", "--trace"}, strings.NewReader(""), &stdout, &stderr); err != nil {
		t.Fatalf("run: %v\n%s", err, stderr.String())
	}
	if !strings.Contains(stderr.String(), "invoke_agent orchestrator  +0s") {
		t.Errorf("--trace printed no tree rooted at the orchestrator:\n%.2000s", stderr.String())
	}
	spans := recv.Spans()
	byID := map[string]otlptest.Span{}
	traces := map[string]bool{}
	for _, s := range spans {
		byID[s.SpanID] = s
		traces[s.TraceID] = true
		if s.Service != "incident" {
			t.Errorf("span %s has service.name %q, want incident", s.Name, s.Service)
		}
		for k := range s.Attrs {
			if k == "mcpfleet.arguments" || k == "mcpfleet.result" {
				t.Errorf("span %s holds %s; arguments and results are opt-in", s.Name, k)
			}
		}
	}
	if len(traces) != 1 {
		t.Fatalf("%d traces, want the run as one", len(traces))
	}
	parent := func(s otlptest.Span) otlptest.Span { return byID[s.ParentID] }
	count := map[string]int{}
	var subagents []otlptest.Span
	for _, s := range spans {
		p := parent(s)
		switch {
		case s.Name == "invoke_agent orchestrator":
			count["root"]++
			if s.ParentID != "" {
				t.Errorf("the orchestrator's span has a parent %s", p.Name)
			}
		case s.Name == "execute_tool spawnSubagents":
			count["spawn"]++
			if p.Name != "invoke_agent orchestrator" {
				t.Errorf("spawnSubagents under %q", p.Name)
			}
		case strings.HasPrefix(s.Name, "invoke_agent subagent"):
			subagents = append(subagents, s)
			if p.Name != "execute_tool spawnSubagents" {
				t.Errorf("%s under %q, want spawnSubagents", s.Name, p.Name)
			}
		case s.Name == "chat":
			count["chat"]++
			if !strings.HasPrefix(p.Name, "invoke_agent ") || s.Attrs["gen_ai.agent.name"] != strings.TrimPrefix(p.Name, "invoke_agent ") {
				t.Errorf("chat span (agent %q) under %q", s.Attrs["gen_ai.agent.name"], p.Name)
			}
		case strings.HasPrefix(s.Name, "execute_tool "):
			count["tool"]++
			if !strings.HasPrefix(p.Name, "invoke_agent subagent") {
				t.Errorf("%s under %q, want a subagent", s.Name, p.Name)
			}
			for _, k := range []string{"gen_ai.tool.name", "mcpfleet.server", "mcpfleet.kind", "mcpfleet.outcome"} {
				if s.Attrs[k] == "" {
					t.Errorf("%s lacks %s: %v", s.Name, k, s.Attrs)
				}
			}
		case s.Kind == tracepb.Span_SPAN_KIND_CLIENT:
			count["client"]++
			if p.Name != "execute_tool "+strings.TrimPrefix(s.Name, "tools/call ") || s.Attrs["mcp.method.name"] != "tools/call" {
				t.Errorf("client span %s under %q (%v)", s.Name, p.Name, s.Attrs)
			}
		case s.Kind == tracepb.Span_SPAN_KIND_SERVER:
			count["server"]++
			if p.Kind != tracepb.Span_SPAN_KIND_CLIENT || p.Name != s.Name {
				t.Errorf("server span %s under %q, want its client span", s.Name, p.Name)
			}
		case strings.HasPrefix(s.Name, "create_agent "):
			count["create"]++
		default:
			t.Errorf("unexpected span %s (kind %v)", s.Name, s.Kind)
		}
	}
	if count["root"] != 1 || count["spawn"] == 0 || count["chat"] == 0 || count["tool"] == 0 {
		t.Errorf("span counts %v", count)
	}
	if count["client"] == 0 || count["server"] != count["client"] {
		t.Errorf("%d client spans, %d server spans: every tools/call should reach its server's span", count["client"], count["server"])
	}
	if len(subagents) < 2 || count["create"] != len(subagents) {
		t.Fatalf("%d subagent spans, %d create_agent spans", len(subagents), count["create"])
	}
	// spawnSubagents fans out: some subagents of one spawn overlap in time.
	overlap := false
	for i, a := range subagents {
		for _, b := range subagents[i+1:] {
			if a.ParentID == b.ParentID && a.Start.Before(b.End) && b.Start.Before(a.End) {
				overlap = true
			}
		}
	}
	if !overlap {
		t.Error("no two subagents of one spawn ran at the same time")
	}
}
