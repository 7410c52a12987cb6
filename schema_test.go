package mcpfleet_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpfleet/mcpfleet"
	"github.com/mcpfleet/mcpfleet/config"
)

// TestUntrustedSchemas: a tool whose schema refers to a remote URL, nests
// too deep, is too large or is invalid is unusable with a reason; the
// remote is never contacted; odd and colliding names are reported.
func TestUntrustedSchemas(t *testing.T) {
	var hits atomic.Int64
	remote := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		_, _ = w.Write([]byte(`{"type":"string"}`))
	}))
	defer remote.Close()

	deep := `{"type":"string"}`
	for range 100 {
		deep = `{"type":"object","properties":{"a":` + deep + `}}`
	}
	var huge strings.Builder
	huge.WriteString(`{"type":"object","properties":{`)
	for i := range 30000 {
		if i > 0 {
			huge.WriteString(",")
		}
		fmt.Fprintf(&huge, `"field_%05d":{"type":"string","description":"a field"}`, i)
	}
	huge.WriteString(`}}`)
	schemas := map[string]string{
		"remote_ref": `{"type":"object","properties":{"a":{"$ref":"` + remote.URL + `/x"}}}`,
		"deep":       deep,
		"huge":       huge.String(),
		"invalid":    `{"type":"object","properties":{"a":{"type":"nonsense"}}}`,
	}
	s := server.NewMCPServer("wild", "1.0.0", server.WithToolCapabilities(true))
	handler := func(ctx context.Context, r mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultText("reached"), nil
	}
	for name, schema := range schemas {
		s.AddTool(mcp.Tool{Name: name, RawInputSchema: json.RawMessage(schema)}, handler)
	}
	for _, name := range []string{"ok", "OK", "bad name!", "über"} {
		s.AddTool(mcp.Tool{Name: name, RawInputSchema: json.RawMessage(`{"type":"object"}`)}, handler)
	}
	mx := newMux(t, &config.Fleet{}, mcpfleet.WithInProcess("wild", "wild", s))
	for name := range schemas {
		t.Run(name, func(t *testing.T) {
			_, err := call(t, mx, "wild", name, `{"a":"x"}`)
			var rej *mcpfleet.RejectError
			if !errors.As(err, &rej) || rej.Reason != mcpfleet.ReasonToolUnusable {
				t.Errorf("err = %v, want tool_unusable", err)
			}
		})
	}
	if hits.Load() != 0 {
		t.Errorf("the remote $ref was fetched %d times", hits.Load())
	}
	if res, err := call(t, mx, "wild", "ok", `{}`); err != nil || plain(res) != "reached" {
		t.Errorf("a sound tool next to broken ones: %v %v", plain(res), err)
	}
	var got []string
	for _, p := range mx.Problems() {
		got = append(got, p.Tool+": "+strings.SplitN(p.Problem, ":", 2)[0])
	}
	want := []string{
		`bad name!: tool name has the character ' '; the spec allows A-Z a-z 0-9 _ - .`,
		"deep: unusable",
		"huge: unusable",
		"invalid: unusable",
		`ok: differs from "OK" only in case`,
		"remote_ref: unusable",
		`über: tool name has the character 'ü'; the spec allows A-Z a-z 0-9 _ - .`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Problems (-want +got):\n%s", diff)
	}
	if hits.Load() != 0 {
		t.Errorf("the remote $ref was fetched %d times", hits.Load())
	}
}
