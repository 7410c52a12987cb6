package eino_test

import (
	"context"
	"strings"
	"testing"

	"github.com/cloudwego/eino/schema"
	"github.com/google/go-cmp/cmp"

	mcpeino "github.com/mcpfleet/mcpfleet/adapters/eino"
	"github.com/mcpfleet/mcpfleet/internal/testfleet"
)

// TestMultimodalTool: the enhanced tool answers with the text rendering
// first and the images after it; refusals and failures are one text part,
// and the text equals what the text-only tool and the CallRecord carry.
func TestMultimodalTool(t *testing.T) {
	mx, calls := newFleet(t, srv{"k8s-1", "kubernetes", ""})
	var recs []mcpeino.CallRecord
	tools, _, err := mcpeino.NewTools(mx, mcpeino.ToolsConfig{OnCall: func(_ context.Context, r mcpeino.CallRecord) { recs = append(recs, r) }})
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]*mcpeino.MultimodalTool{}
	for _, tl := range tools {
		byName[tl.Spec().Name] = tl.Multimodal()
	}
	type part struct{ Type, MIME, Data string }
	tests := []struct {
		name, tool, args string
		textHas          string
		images           []part
		hits             int64
	}{
		{"image", "image", `{"server":"k8s-1"}`, "[image image/png, 92 bytes base64]", []part{{"image", "image/png", testfleet.PNG}}, 1},
		{"text", "echo", `{"server":"k8s-1","text":"hi"}`, "k8s-1: hi", nil, 1},
		{"tool error", "fail", `{"server":"k8s-1"}`, "ERROR from k8s-1.fail: ", nil, 1},
		{"bad server", "image", `{"server":"k8s-9"}`, `REJECTED image: server "k8s-9"`, nil, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			recs = nil
			before := calls["k8s-1"].Load()
			res, err := byName[tc.tool].InvokableRun(t.Context(), &schema.ToolArgument{Text: tc.args})
			if err != nil {
				t.Fatalf("Go error: %v", err)
			}
			if len(res.Parts) == 0 || res.Parts[0].Type != schema.ToolPartTypeText || !strings.Contains(res.Parts[0].Text, tc.textHas) {
				t.Fatalf("first part = %+v, want text containing %q", res.Parts, tc.textHas)
			}
			if len(recs) != 1 || recs[0].Text != res.Parts[0].Text {
				t.Errorf("records %+v, want one whose Text is the text part", recs)
			}
			var got []part
			for _, p := range res.Parts[1:] {
				got = append(got, part{string(p.Type), p.Image.MIMEType, *p.Image.Base64Data})
			}
			if diff := cmp.Diff(tc.images, got); diff != "" {
				t.Errorf("image parts (-want +got):\n%s", diff)
			}
			if n := calls["k8s-1"].Load() - before; n != tc.hits {
				t.Errorf("server hit %d times, want %d", n, tc.hits)
			}
		})
	}
}
