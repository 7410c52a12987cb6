package eino_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/mcpfleet/mcpfleet"
	mcpeino "github.com/mcpfleet/mcpfleet/adapters/eino"
	"github.com/mcpfleet/mcpfleet/config"
	"github.com/mcpfleet/mcpfleet/internal/neutralize"
	"github.com/mcpfleet/mcpfleet/internal/testfleet"
)

// structuredTools serves testfleet.StructuredServer over streamable HTTP,
// so its results reach the Mux as JSON, and returns its eino tools by name.
func structuredTools(t *testing.T, strs []string) map[string]*mcpeino.Tool {
	t.Helper()
	up := testfleet.ServeHTTP(t, testfleet.StructuredServer("rows", strs))
	cfg := &config.Fleet{Servers: []config.Server{{Name: "rows-1", Kind: "rows", Transport: "http", URL: up}}}
	mx, err := mcpfleet.New(t.Context(), cfg, mcpfleet.WithHealthInterval(-1))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { mx.Close() })
	tools, _, err := mcpeino.NewTools(mx, mcpeino.ToolsConfig{})
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]*mcpeino.Tool{}
	for _, tl := range tools {
		byName[tl.Spec().Tool] = tl
	}
	return byName
}

// TestToolDefusesStructuredContent: the injection corpus inside a real
// result's structuredContent reaches the model through an eino tool
// defused, as the Mux defuses text.
func TestToolDefusesStructuredContent(t *testing.T) {
	injections := testfleet.NeutralizeCorpus(t, "injections.txt")
	row := structuredTools(t, injections)["row"]
	n := neutralize.New()
	for i, in := range injections {
		out, err := row.InvokableRun(t.Context(), fmt.Sprintf(`{"server":"rows-1","i":%d}`, i))
		if err != nil {
			t.Fatal(err)
		}
		want, _ := n.Defuse(in)
		wantJSON := "structured: " + string(mustJSON(t, map[string]any{"row": map[string]any{"id": i, "note": want}}))
		if !strings.Contains(out, wantJSON) {
			t.Errorf("row %d: the model reads %q, want it to hold %q", i, out, wantJSON)
		}
	}
}

// TestToolShowsRewrappedTextOnce: a result whose structuredContent only
// re-wraps its text ({"content": <the text>}) shows the model the text
// once, not again as JSON.
func TestToolShowsRewrappedTextOnce(t *testing.T) {
	read := structuredTools(t, nil)["read"]
	out, err := read.InvokableRun(t.Context(), `{"server":"rows-1","text":"line one of the payments log"}`)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Count(out, "line one of the payments log"); got != 1 || strings.Contains(out, "structured:") {
		t.Errorf("the model reads the text %d times (want 1), in %q", got, out)
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
