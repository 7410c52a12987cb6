package testfleet

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// NeutralizeCorpus reads one of internal/neutralize's test corpora
// (injections.txt, benign.txt): one string a line, "\n" standing for a
// line break, lines starting "# " and empty lines skipped. Any package's
// tests can replay it through a real result.
func NeutralizeCorpus(t testing.TB, name string) []string {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	f, err := os.Open(filepath.Join(filepath.Dir(file), "..", "neutralize", "testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if line := sc.Text(); line != "" && !strings.HasPrefix(line, "# ") {
			out = append(out, strings.ReplaceAll(line, `\n`, "\n"))
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// StructuredServer serves two read-only tools:
//   - "row" {i}: a short text and the structuredContent {"row": {"id": i,
//     "note": strs[i]}}, so strs[i] reaches the client only through
//     structuredContent;
//   - "read" {text}: text, and again {"content": text} as structuredContent,
//     as the reference filesystem server answers read_text_file.
func StructuredServer(name string, strs []string) *server.MCPServer {
	s := server.NewMCPServer(name, "1", server.WithToolCapabilities(false))
	s.AddTool(mcp.Tool{Name: "row", Description: "Get one row by index.", Annotations: readOnly(),
		RawInputSchema: json.RawMessage(`{"type":"object","properties":{"i":{"type":"integer","minimum":0}},"required":["i"]}`)},
		func(ctx context.Context, r mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			i := r.GetInt("i", 0)
			if i < 0 || i >= len(strs) {
				return mcp.NewToolResultError("no such row"), nil
			}
			res := mcp.NewToolResultText("one row")
			res.StructuredContent = map[string]any{"row": map[string]any{"id": i, "note": strs[i]}}
			return res, nil
		})
	s.AddTool(mcp.Tool{Name: "read", Description: "Read a text back.", Annotations: readOnly(),
		RawInputSchema: json.RawMessage(`{"type":"object","properties":{"text":{"type":"string"}},"required":["text"]}`)},
		func(ctx context.Context, r mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			text := r.GetString("text", "")
			res := mcp.NewToolResultText(text)
			res.StructuredContent = map[string]any{"content": text}
			return res, nil
		})
	return s
}
