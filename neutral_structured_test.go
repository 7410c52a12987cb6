package mcpfleet_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"unicode"

	"github.com/google/go-cmp/cmp"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpfleet/mcpfleet"
	"github.com/mcpfleet/mcpfleet/config"
	"github.com/mcpfleet/mcpfleet/internal/fixtures"
	"github.com/mcpfleet/mcpfleet/internal/neutralize"
	"github.com/mcpfleet/mcpfleet/internal/testfleet"
)

// mirrorServer answers mirror {i} with strs[i] in every place a result can
// carry text: a text block, an embedded text resource, and string leaves of
// structuredContent at several depths (one of them under a key that is
// strs[i] too), beside numbers, booleans and a null.
func mirrorServer(strs []string) *server.MCPServer {
	s := server.NewMCPServer("mirror", "1", server.WithToolCapabilities(false))
	ro := false
	s.AddTool(mcp.Tool{Name: "mirror", Description: "Mirror a string.",
		Annotations:    mcp.ToolAnnotation{ReadOnlyHint: mcp.ToBoolPtr(true), DestructiveHint: &ro},
		RawInputSchema: json.RawMessage(`{"type":"object","properties":{"i":{"type":"integer","minimum":0}},"required":["i"]}`)},
		func(ctx context.Context, r mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			v := strs[r.GetInt("i", 0)]
			res := &mcp.CallToolResult{Content: []mcp.Content{
				mcp.NewTextContent(v),
				mcp.NewEmbeddedResource(mcp.TextResourceContents{URI: "mem://mirror", MIMEType: "text/plain", Text: v}),
			}}
			res.StructuredContent = structuredOf(v, v)
			return res, nil
		})
	return s
}

// structuredOf is the structuredContent mirror returns, with v as four
// string leaves, one of them under the key k. structuredOf(s, s) is what
// the server sends; structuredOf(key, defused s) is what the Mux must
// return, where key is s unless s holds whitespace (then defused too:
// such a key is prose, not an identifier).
func structuredOf(k, v string) map[string]any {
	return map[string]any{
		"value":  v,
		"count":  7,
		"ok":     true,
		"none":   nil,
		"list":   []any{v, 42.5, false},
		"nested": map[string]any{"key": v, k: v, "depth": map[string]any{"n": 1}},
	}
}

// jsonOf is v as the wire has it, so that Go types (int vs float64) that
// JSON does not tell apart do not count as differences.
func jsonOf(t *testing.T, v any) any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// unenvelope returns the text inside one tool_output envelope, exactly.
func unenvelope(t *testing.T, s string) string {
	t.Helper()
	head, rest, ok := strings.Cut(s, "\n")
	if !ok || !strings.HasPrefix(head, "<tool_output ") || !strings.HasSuffix(rest, "\n</tool_output>") {
		t.Fatalf("not one envelope: %q", s)
	}
	return strings.TrimSuffix(rest, "\n</tool_output>")
}

// TestNeutralizeStructuredAndResources: every string of the injection
// corpus, put in structuredContent leaves and an embedded resource, comes
// out defused exactly as the text path defuses it, and so does a key with
// whitespace; other keys, numbers, booleans, null and the shape stay;
// every benign string comes out unchanged.
func TestNeutralizeStructuredAndResources(t *testing.T) {
	injections := testfleet.NeutralizeCorpus(t, "injections.txt")
	benign := testfleet.NeutralizeCorpus(t, "benign.txt")
	if len(injections) < 40 || len(benign) < 10 {
		t.Fatalf("corpora too small: %d injections, %d benign", len(injections), len(benign))
	}
	all := append(append([]string(nil), injections...), benign...)
	// In process, and over HTTP, where mcp-go's client keeps the server's
	// structuredContent bytes beside the decoded value and would send
	// those bytes on if the Mux defused only the decoded value.
	t.Run("inprocess", func(t *testing.T) {
		rec := &recorder{}
		mx := newMux(t, &config.Fleet{}, mcpfleet.WithMetrics(rec), mcpfleet.WithInProcess("m-1", "mirror", mirrorServer(all)))
		checkNeutralizedParts(t, mx, rec, injections, all)
	})
	t.Run("http", func(t *testing.T) {
		rec := &recorder{}
		cfg := &config.Fleet{Servers: []config.Server{{Name: "m-1", Kind: "mirror", Transport: "http", URL: testfleet.ServeHTTP(t, mirrorServer(all))}}}
		mx := newMux(t, cfg, mcpfleet.WithMetrics(rec))
		checkNeutralizedParts(t, mx, rec, injections, all)
	})

	// Off means off, for these parts too.
	raw := newMux(t, &config.Fleet{}, mcpfleet.WithoutNeutralize(), mcpfleet.WithInProcess("m-1", "mirror", mirrorServer(all)))
	res, err := call(t, raw, "m-1", "mirror", `{"i": 0}`)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(jsonOf(t, structuredOf(all[0], all[0])), jsonOf(t, res.StructuredContent)); diff != "" {
		t.Errorf("WithoutNeutralize structuredContent (-want +got):\n%s", diff)
	}
	if tr := res.Content[1].(mcp.EmbeddedResource).Resource.(mcp.TextResourceContents); tr.Text != all[0] {
		t.Errorf("WithoutNeutralize resource text = %q, want %q", tr.Text, all[0])
	}
}

// wireStructured is the structuredContent a client receives for res: the
// field as mcp-go's server serializes the result.
func wireStructured(t *testing.T, res *mcpfleet.Result) any {
	t.Helper()
	b, err := json.Marshal(res.CallToolResult)
	if err != nil {
		t.Fatal(err)
	}
	var w struct {
		Structured any `json:"structuredContent"`
	}
	if err := json.Unmarshal(b, &w); err != nil {
		t.Fatal(err)
	}
	return w.Structured
}

func checkNeutralizedParts(t *testing.T, mx *mcpfleet.Mux, rec *recorder, injections, all []string) {
	n := neutralize.New()
	wantDefusals := 0
	for i, in := range all {
		isInjection := i < len(injections)
		name := fmt.Sprintf("benign/%d", i-len(injections))
		if isInjection {
			name = fmt.Sprintf("injection/%d", i)
		}
		t.Run(name, func(t *testing.T) {
			res, err := call(t, mx, "m-1", "mirror", fmt.Sprintf(`{"i": %d}`, i))
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Content) != 2 {
				t.Fatalf("content parts = %d, want 2", len(res.Content))
			}
			want, count := n.Defuse(in)
			if isInjection == (count == 0) {
				t.Fatalf("corpus string %q: %d defusals", in, count)
			}
			if !isInjection && want != in {
				t.Fatalf("benign string changed by Defuse: %q", in)
			}
			wantDefusals += 6 * count // text, resource, four structured leaves
			wantKey := in
			if strings.ContainsFunc(in, unicode.IsSpace) {
				var kc int
				wantKey, kc = n.Defuse(in)
				wantDefusals += kc
			}

			textPath := unenvelope(t, res.Content[0].(mcp.TextContent).Text)
			if diff := cmp.Diff(want, textPath); diff != "" {
				t.Errorf("text block (-want +got):\n%s", diff)
			}
			er, ok := res.Content[1].(mcp.EmbeddedResource)
			if !ok {
				t.Fatalf("part 1 is %T, want an embedded resource", res.Content[1])
			}
			tr, ok := er.Resource.(mcp.TextResourceContents)
			if !ok {
				t.Fatalf("resource is %T, want text", er.Resource)
			}
			if diff := cmp.Diff(want, tr.Text); diff != "" {
				t.Errorf("resource text (-want +got):\n%s", diff)
			}
			if tr.URI != "mem://mirror" || tr.MIMEType != "text/plain" {
				t.Errorf("resource metadata changed: %q %q", tr.URI, tr.MIMEType)
			}
			if diff := cmp.Diff(jsonOf(t, structuredOf(wantKey, want)), jsonOf(t, res.StructuredContent)); diff != "" {
				t.Errorf("structuredContent (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(jsonOf(t, structuredOf(wantKey, want)), wireStructured(t, res)); diff != "" {
				t.Errorf("structuredContent on the wire (-want +got):\n%s", diff)
			}
		})
	}
	if rec.defused != wantDefusals {
		t.Errorf("defusals counted = %d, want %d", rec.defused, wantDefusals)
	}
}

// BenchmarkNeutralizeStructured: the cost of defusing a large, real
// structuredContent (the GitHub server's tools/list answer, ~160 KB of
// JSON, mostly description strings) on one call, against the same call
// with neutralization off.
func BenchmarkNeutralizeStructured(b *testing.B) {
	srv, raw := toolListServer(b, fixtures.MustLoad(b, "github").Tools)
	for _, v := range []struct {
		name string
		opts []mcpfleet.Option
	}{{"on", nil}, {"off", []mcpfleet.Option{mcpfleet.WithoutNeutralize()}}} {
		b.Run(v.name, func(b *testing.B) {
			// Offload off: the ~95 kB result is over the default threshold
			// now that structuredContent counts, and this measures defusal.
			mx, err := mcpfleet.New(b.Context(), &config.Fleet{}, append(v.opts, mcpfleet.WithoutOffload(), mcpfleet.WithHealthInterval(-1), mcpfleet.WithInProcess("gh-1", "github", srv))...)
			if err != nil {
				b.Fatal(err)
			}
			defer mx.Close()
			b.SetBytes(int64(len(raw)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := mx.CallTool(b.Context(), "gh-1", "list", json.RawMessage(`{}`)); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// toolListServer is an mcp-go server whose one tool, "list", answers "ok"
// with tools as its structuredContent: a large, real JSON value. It also
// returns that value's JSON.
func toolListServer(tb testing.TB, tools []mcp.Tool) (*server.MCPServer, []byte) {
	tb.Helper()
	raw, err := json.Marshal(map[string]any{"tools": tools})
	if err != nil {
		tb.Fatal(err)
	}
	var sc any
	if err := json.Unmarshal(raw, &sc); err != nil {
		tb.Fatal(err)
	}
	srv := server.NewMCPServer("list", "1", server.WithToolCapabilities(false))
	ro := false
	srv.AddTool(mcp.Tool{Name: "list", Description: "List tools.",
		Annotations:    mcp.ToolAnnotation{ReadOnlyHint: mcp.ToBoolPtr(true), DestructiveHint: &ro},
		RawInputSchema: json.RawMessage(`{"type":"object"}`)},
		func(ctx context.Context, r mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{mcp.NewTextContent("ok")}, StructuredContent: sc}, nil
		})
	return srv, raw
}
