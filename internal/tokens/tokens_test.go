package tokens

import (
	"encoding/json"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
)

func TestCount(t *testing.T) {
	tests := []struct {
		in   string
		want int
	}{
		{"", 0},
		{"hello world", 2},
		{"kubernetes: k8s-1, k8s-2", 0}, // filled below: must be > 0 and < chars
	}
	for _, tc := range tests[:2] {
		if got := Count(tc.in); got != tc.want {
			t.Errorf("Count(%q) = %d, want %d", tc.in, got, tc.want)
		}
	}
	s := tests[2].in
	if n := Count(s); n <= 0 || n >= len(s) {
		t.Errorf("Count(%q) = %d, want between 1 and %d", s, n, len(s)-1)
	}
}

func TestMCPToolsKeepsRawSchema(t *testing.T) {
	raw := json.RawMessage(`{"type":"object","properties":{"name":{"type":"string","enum":["a","b"]}}}`)
	tool := mcp.Tool{Name: "pods_get", Description: "Get a pod", RawInputSchema: raw}
	ct := AsChatTool(tool)
	if string(ct.Function.Parameters) != string(raw) {
		t.Fatalf("schema changed: %s", ct.Function.Parameters)
	}
	one := MCPTools([]mcp.Tool{tool})
	two := MCPTools([]mcp.Tool{tool, tool})
	if one <= 0 || two <= one {
		t.Fatalf("MCPTools: one=%d two=%d, want 0 < one < two", one, two)
	}
}
