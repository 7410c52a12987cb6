package mcpfleet_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/mcpfleet/mcpfleet"
	"github.com/mcpfleet/mcpfleet/config"
	"github.com/mcpfleet/mcpfleet/internal/testfleet"
)

// TestAuditLog: with audit.path every call is one line, concurrent calls
// included: caller id, outcome, trace id and a hash of the arguments, and
// never the arguments.
func TestAuditLog(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	rec := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
	cfg := &config.Fleet{Audit: config.Audit{Path: path}}
	mx, err := mcpfleet.New(t.Context(), cfg, mcpfleet.WithHealthInterval(-1), mcpfleet.WithTracerProvider(tp),
		mcpfleet.WithInProcess("s1", "test", testfleet.NewServer("s1", testfleet.Options{})))
	if err != nil {
		t.Fatal(err)
	}
	ctx := mcpfleet.WithCaller(t.Context(), "token:abc")
	var wg sync.WaitGroup
	for range 20 {
		wg.Go(func() { _, _ = mx.CallTool(ctx, "s1", "echo", json.RawMessage(`{"text":"secret-value"}`)) })
	}
	wg.Wait()
	_, _ = mx.CallTool(ctx, "s1", "echo", json.RawMessage(`{}`))
	if err := mx.Close(); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if json.Valid(data) || len(data) == 0 {
		t.Fatalf("log is not JSON lines: %.200q", data)
	}
	traces := map[string]bool{}
	for _, s := range rec.Ended() {
		traces[s.SpanContext().TraceID().String()] = true
	}
	type line struct {
		Caller, Server, Kind, Tool, Outcome, Reason string
		HasArgs, Traced                             bool
	}
	count := map[line]int{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		if bytes.Contains(sc.Bytes(), []byte("secret-value")) {
			t.Fatalf("the log holds an argument value: %s", sc.Text())
		}
		var r struct {
			Caller, Server, Kind, Tool, Outcome, Reason string
			TraceID                                     string  `json:"trace_id"`
			Args                                        string  `json:"args_sha256"`
			Duration                                    float64 `json:"duration_ms"`
		}
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("line %q: %v", sc.Text(), err)
		}
		count[line{r.Caller, r.Server, r.Kind, r.Tool, r.Outcome, r.Reason, len(r.Args) == 64, traces[r.TraceID]}]++
	}
	want := map[line]int{
		{"token:abc", "s1", "test", "echo", "ok", "", true, true}:                         20,
		{"token:abc", "s1", "test", "echo", "rejected", "invalid_arguments", false, true}: 1,
	}
	if diff := cmp.Diff(want, count); diff != "" {
		t.Errorf("audit lines (-want +got):\n%s", diff)
	}
}
