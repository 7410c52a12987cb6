package subagent_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/cloudwego/eino/schema"
	"github.com/google/go-cmp/cmp"

	"github.com/mcpfleet/mcpfleet"
	"github.com/mcpfleet/mcpfleet/adapters/eino/einotest"
	"github.com/mcpfleet/mcpfleet/internal/testfleet"
	"github.com/mcpfleet/mcpfleet/subagent"
)

// toolMessage finds the tool message answering a call to name on server.
func toolMessage(msgs []*schema.Message, name, server string) *schema.Message {
	ids := map[string]bool{}
	for _, m := range msgs {
		for _, tc := range m.ToolCalls {
			if tc.Function.Name == name && strings.Contains(tc.Function.Arguments, `"`+server+`"`) {
				ids[tc.ID] = true
			}
		}
		if m.Role == schema.Tool && ids[m.ToolCallID] {
			return m
		}
	}
	return nil
}

// TestMultimodalImage: with Config.Multimodal the image a tool returns
// reaches the next model call as an image part after the text rendering;
// the gate still refuses a tool not active on its server without hitting it;
// without Multimodal the image is a text reference only.
func TestMultimodalImage(t *testing.T) {
	mx, hits := newFleet(t, srv{Name: "k8s-1", Kind: "kubernetes"}, srv{Name: "k8s-2", Kind: "kubernetes"})
	type part struct{ Type, Text, MIME, Data string }
	tests := []struct {
		name       string
		multimodal bool
		want       []part
	}{
		{"multimodal", true, []part{
			{Type: "text", Text: "a pixel\n[image image/png, 92 bytes base64]"},
			{Type: "image_url", MIME: "image/png", Data: testfleet.PNG},
		}},
		{"text only", false, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := einotest.New(
				einotest.Calls(
					einotest.Call("image", map[string]any{"server": "k8s-1"}),
					einotest.Call("image", map[string]any{"server": "k8s-2"}), // not in the slice
				),
				einotest.Answer("one pixel"),
			)
			sa, err := subagent.New(t.Context(), mx, subagent.Config{Servers: []string{"k8s-1"}, Model: m, Mode: "on", Multimodal: tc.multimodal})
			if err != nil {
				t.Fatal(err)
			}
			before := hits["k8s-2"].Load()
			rep, err := sa.Run(t.Context(), "show the image")
			if err != nil {
				t.Fatal(err)
			}
			msgs := m.Calls()[1].Messages
			img := toolMessage(msgs, "image", "k8s-1")
			if img == nil {
				t.Fatal("no tool message for the image call")
			}
			var got []part
			for _, p := range img.UserInputMultiContent {
				g := part{Type: string(p.Type), Text: p.Text}
				if p.Image != nil {
					g.MIME = p.Image.MIMEType
					if p.Image.Base64Data != nil {
						g.Data = *p.Image.Base64Data
					}
				}
				// the root wraps upstream text in its neutralization envelope
				if i := strings.Index(g.Text, "a pixel"); i >= 0 {
					g.Text = "a pixel" + g.Text[strings.LastIndex(g.Text, "\n"):]
				}
				got = append(got, g)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("image tool message parts (-want +got):\n%s", diff)
			}
			if !tc.multimodal && !strings.Contains(img.Content, "[image image/png, 92 bytes base64]") {
				t.Errorf("text-only content = %q, want the image reference", img.Content)
			}
			refused := toolMessage(msgs, "image", "k8s-2")
			text := refused.Content
			if len(refused.UserInputMultiContent) > 0 {
				text = refused.UserInputMultiContent[0].Text
			}
			if !strings.HasPrefix(text, "REJECTED (the server was not called)") {
				t.Errorf("refusal = %q", text)
			}
			if n := hits["k8s-2"].Load() - before; n != 0 {
				t.Errorf("k8s-2 hit %d times through the gate", n)
			}
			// The gate's record carries its reason in the one vocabulary.
			var gated []string
			for _, c := range rep.Calls {
				if c.Server == "k8s-2" {
					gated = append(gated, c.Status+"/"+c.Detail)
				}
			}
			if want := []string{"rejected/" + string(mcpfleet.ReasonNotLoaded)}; !slices.Equal(gated, want) {
				t.Errorf("gate records = %q, want %q", gated, want)
			}
		})
	}
}
