package mcpfleet_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpfleet/mcpfleet"
	"github.com/mcpfleet/mcpfleet/config"
	"github.com/mcpfleet/mcpfleet/internal/testfleet"
)

// structuredServer answers shape {mode, n} with a result whose text and
// structuredContent relate as real servers make them:
//   - "rewrap": text T and structuredContent {"content": T}, as the
//     reference filesystem server's read_text_file answers;
//   - "only": structuredContent alone, no text block;
//   - "differ": a short text summary beside a large, different structured
//     value;
//   - "bigint": a small structured value holding an integer that a
//     float64 cannot hold exactly.
//
// T is n lines of log text.
func structuredServer() *server.MCPServer {
	s := server.NewMCPServer("structured", "1", server.WithToolCapabilities(false))
	s.AddTool(mcp.Tool{Name: "shape", Description: "Answer in a given shape.",
		RawInputSchema: json.RawMessage(`{"type":"object","properties":{"mode":{"type":"string"},"n":{"type":"integer"}},"required":["mode"]}`)},
		func(ctx context.Context, r mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			n := r.GetInt("n", 0)
			text := logLines(n, "GET /api/orders 200")
			switch r.GetString("mode", "") {
			case "rewrap":
				res := mcp.NewToolResultText(text)
				res.StructuredContent = map[string]any{"content": text}
				return res, nil
			case "only":
				rows := make([]any, n)
				for i := range rows {
					rows[i] = map[string]any{"line": i, "msg": "row payload " + strings.Repeat("x", 40)}
				}
				return &mcp.CallToolResult{StructuredContent: map[string]any{"rows": rows}}, nil
			case "differ":
				res := mcp.NewToolResultText("summary: 3 services, see structuredContent")
				res.StructuredContent = map[string]any{"log": logLines(n, "structured-only needle")}
				return res, nil
			case "bigint":
				res := mcp.NewToolResultText("ok")
				res.StructuredContent = json.RawMessage(`{"id":12345678901234567891,"ratio":0.1}`)
				return res, nil
			}
			return mcp.NewToolResultError("unknown mode"), nil
		})
	return s
}

func logLines(n int, msg string) string {
	var b strings.Builder
	for i := range n {
		b.WriteString("2026-12-01T10:00:00Z line ")
		b.WriteString(strings.Repeat("0", 6-len(itoa(i))) + itoa(i))
		b.WriteString(" ")
		b.WriteString(msg)
		b.WriteString("\n")
	}
	return b.String()
}

func itoa(i int) string {
	b, _ := json.Marshal(i)
	return string(b)
}

// structuredMux fronts structuredServer over streamable HTTP, so that its
// results reach the Mux as JSON, decoded by mcp-go's client the way every
// remote server's are (an in-process client may skip the JSON round trip).
func structuredMux(t *testing.T, opts ...mcpfleet.Option) *mcpfleet.Mux {
	t.Helper()
	url := testfleet.ServeHTTP(t, structuredServer())
	cfg := &config.Fleet{
		Servers:      []config.Server{{Name: "s-1", Kind: "structured", Transport: "http", URL: url}},
		KindSettings: map[string]config.KindSettings{"structured": {OffloadTokens: 500}},
	}
	return newMux(t, cfg, opts...)
}

// wire is the JSON a client receives for res: what mcp-go's server writes
// for the CallToolResult the Mux returns.
func wire(t *testing.T, res *mcpfleet.Result) []byte {
	t.Helper()
	b, err := json.Marshal(res.CallToolResult)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestOffloadedResultLeavesStructuredContentBehind(t *testing.T) {
	store := &captureStore{}
	mx := structuredMux(t, mcpfleet.WithResultStore(store))
	for _, tc := range []struct {
		mode      string
		n         int
		wantBytes func(text string) int // the stored size the preview reports
		grep      string                // a pattern that only the structured part holds, or ""
	}{
		// The structured part repeats the text: it is stored once, and the
		// size is the text's.
		{"rewrap", 20000, func(text string) int { return len(text) }, ""},
		{"only", 5000, nil, `"line": 4999`},
		{"differ", 5000, nil, "structured-only needle"},
	} {
		t.Run(tc.mode, func(t *testing.T) {
			res, err := call(t, mx, "s-1", "shape", `{"mode":"`+tc.mode+`","n":`+itoa(tc.n)+`}`)
			if err != nil {
				t.Fatal(err)
			}
			if res.Offload == nil {
				t.Fatalf("not offloaded: %d bytes on the wire", len(wire(t, res)))
			}
			w := wire(t, res)
			if len(w) > 16<<10 {
				t.Errorf("the client receives %d bytes for an offloaded result, want under 16 KiB", len(w))
			}
			var sent map[string]json.RawMessage
			if err := json.Unmarshal(w, &sent); err != nil {
				t.Fatal(err)
			}
			if sc, ok := sent["structuredContent"]; ok {
				t.Errorf("an offloaded result still sends structuredContent (%d bytes)", len(sc))
			}
			if !strings.Contains(string(sent["_meta"]), res.Offload.Handle) {
				t.Errorf("_meta %s does not name the handle %s", sent["_meta"], res.Offload.Handle)
			}
			stored := store.text(t, res.Offload.Handle)
			if len(stored) != res.Offload.Bytes {
				t.Errorf("Offload.Bytes = %d, the store holds %d", res.Offload.Bytes, len(stored))
			}
			if tc.wantBytes != nil {
				text := logLines(tc.n, "GET /api/orders 200")
				if got, want := res.Offload.Bytes, tc.wantBytes(text); got != want {
					t.Errorf("Offload.Bytes = %d, want %d: the text is stored once", got, want)
				}
				if strings.Contains(stored, "structuredContent") {
					t.Errorf("the stored text carries the structured copy of the text too")
				}
			}
			if tc.grep != "" {
				got, err := mx.GrepResult(t.Context(), res.Offload.Handle, tc.grep, 0)
				if err != nil {
					t.Fatal(err)
				}
				if !strings.Contains(got, strings.Trim(tc.grep, `"`)) {
					t.Errorf("grepResult %q does not reach the structured part:\n%s", tc.grep, got)
				}
			}
		})
	}
}

// A result that stays whole sends its structuredContent exactly: numbers a
// float64 cannot hold survive the Mux.
func TestStructuredContentKeepsNumbers(t *testing.T) {
	mx := structuredMux(t)
	res, err := call(t, mx, "s-1", "shape", `{"mode":"bigint"}`)
	if err != nil {
		t.Fatal(err)
	}
	if w := string(wire(t, res)); !strings.Contains(w, `"id":12345678901234567891`) || !strings.Contains(w, `"ratio":0.1`) {
		t.Errorf("structuredContent lost precision on the wire: %s", w)
	}
}
