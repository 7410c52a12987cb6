package telemetry

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"time"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
)

// Tree keeps every span it is given, to print a run as an indented tree:
// what ran inside what, when each step started relative to the root, and
// how long it took, so parallel steps show as overlapping siblings. Give it
// to Start in Options.SpanExporters. It is safe for concurrent use.
type Tree struct {
	mu    sync.Mutex
	spans []sdktrace.ReadOnlySpan
}

var _ sdktrace.SpanExporter = (*Tree)(nil)

// ExportSpans keeps spans.
func (t *Tree) ExportSpans(_ context.Context, spans []sdktrace.ReadOnlySpan) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.spans = append(t.spans, spans...)
	return nil
}

// Shutdown does nothing; the spans stay readable.
func (t *Tree) Shutdown(context.Context) error { return nil }

// Spans returns the spans kept so far, in the order they ended.
func (t *Tree) Spans() []sdktrace.ReadOnlySpan {
	t.mu.Lock()
	defer t.mu.Unlock()
	return slices.Clone(t.spans)
}

// treeAttrs are the attributes a tree line shows, with their labels.
var treeAttrs = []struct{ key, label string }{
	{"mcpfleet.server", "server"},
	{"mcpfleet.outcome", "outcome"},
	{"mcpfleet.reason", "reason"},
	{"mcpfleet.repairs", "repairs"},
	{"mcpfleet.offloaded_bytes", "offloaded"},
	{"gen_ai.usage.input_tokens", "tokens in"},
	{"gen_ai.usage.output_tokens", "tokens out"},
}

// Write prints every trace kept, one line per span:
//
//	invoke_agent orchestrator  +0s 1.2s
//	  chat planner  +1ms 3ms  tokens in=812 tokens out=95
//	  execute_tool spawnSubagents  +5ms 900ms
//	    invoke_agent triage  +5ms 400ms
//
// Children are ordered by start; "+d" is the start relative to the trace's
// root. A span whose parent was not kept (a remote parent) is a root.
func (t *Tree) Write(w io.Writer) error {
	spans := t.Spans()
	byID := make(map[trace.SpanID]bool, len(spans))
	for _, s := range spans {
		byID[s.SpanContext().SpanID()] = true
	}
	children := map[trace.SpanID][]sdktrace.ReadOnlySpan{}
	var roots []sdktrace.ReadOnlySpan
	for _, s := range spans {
		if p := s.Parent().SpanID(); s.Parent().IsValid() && byID[p] {
			children[p] = append(children[p], s)
		} else {
			roots = append(roots, s)
		}
	}
	byStart := func(a, b sdktrace.ReadOnlySpan) int { return a.StartTime().Compare(b.StartTime()) }
	slices.SortStableFunc(roots, byStart)
	for _, c := range children {
		slices.SortStableFunc(c, byStart)
	}
	var b strings.Builder
	var walk func(s sdktrace.ReadOnlySpan, depth int, t0 time.Time)
	walk = func(s sdktrace.ReadOnlySpan, depth int, t0 time.Time) {
		fmt.Fprintf(&b, "%s%s  +%s %s", strings.Repeat("  ", depth), s.Name(), round(s.StartTime().Sub(t0)), round(s.EndTime().Sub(s.StartTime())))
		attrs := map[string]string{}
		for _, a := range s.Attributes() {
			attrs[string(a.Key)] = a.Value.Emit()
		}
		sep := "  "
		for _, a := range treeAttrs {
			if v, ok := attrs[a.key]; ok && v != "" && v != "0" && v != "[]" {
				fmt.Fprintf(&b, "%s%s=%s", sep, a.label, v)
				sep = " "
			}
		}
		b.WriteByte('\n')
		for _, c := range children[s.SpanContext().SpanID()] {
			walk(c, depth+1, t0)
		}
	}
	for _, r := range roots {
		walk(r, 0, r.StartTime())
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// round keeps durations readable: milliseconds above one, microseconds
// below.
func round(d time.Duration) time.Duration {
	if d >= time.Millisecond {
		return d.Round(time.Millisecond)
	}
	return d.Round(time.Microsecond)
}
