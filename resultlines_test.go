package mcpfleet_test

import (
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpfleet/mcpfleet"
	"github.com/mcpfleet/mcpfleet/config"
)

// TestOffloadUnkept: when the store cannot keep a result (here a budget
// smaller than the result, as a full or unreachable store), the caller
// gets a bounded preview that says so, with no handle, never the whole
// result.
func TestOffloadUnkept(t *testing.T) {
	cfg := &config.Fleet{
		KindSettings: map[string]config.KindSettings{"report": {OffloadTokens: 500}},
		ResultStore:  config.ResultStore{MaxBytes: 1000},
	}
	mx := newMux(t, cfg, mcpfleet.WithInProcess("rep-1", "report", reportServer()))
	res, err := call(t, mx, "rep-1", "report", `{}`)
	if err != nil {
		t.Fatal(err)
	}
	if res.Offload != nil {
		t.Fatalf("Offload = %+v, want none: the store refused the result", res.Offload)
	}
	preview := res.Content[0].(mcp.TextContent).Text
	if want := "the full result could not be kept"; !strings.Contains(preview, want) {
		t.Errorf("preview does not say %q:\n%.600s", want, preview)
	}
	if strings.Contains(preview, "readResult") {
		t.Errorf("preview offers readResult without a handle:\n%.600s", preview)
	}
	if len(preview) > 8000 {
		t.Errorf("preview is %d bytes; want a bounded preview, not the 60 KB result", len(preview))
	}
	if res.StructuredContent != nil {
		t.Error("structuredContent came back whole")
	}
}
