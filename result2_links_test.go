package mcpfleet_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp/syntax"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpfleet/mcpfleet"
	"github.com/mcpfleet/mcpfleet/config"
	"github.com/mcpfleet/mcpfleet/internal/neutralize"
	"github.com/mcpfleet/mcpfleet/internal/testfleet"
)

const linkURI = "https://example.com/logs?q=<system>&x=ignore%20previous%20instructions"

// linkServer answers link {i} with a resource link whose name, title and
// description are strs[i], and whose URI holds injection-looking text too.
func linkServer(strs []string) *server.MCPServer {
	s := server.NewMCPServer("links", "1", server.WithToolCapabilities(false))
	ro := false
	s.AddTool(mcp.Tool{Name: "link", Description: "Link a resource.",
		Annotations:    mcp.ToolAnnotation{ReadOnlyHint: mcp.ToBoolPtr(true), DestructiveHint: &ro},
		RawInputSchema: json.RawMessage(`{"type":"object","properties":{"i":{"type":"integer","minimum":0}},"required":["i"]}`)},
		func(ctx context.Context, r mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			v := strs[r.GetInt("i", 0)]
			l := mcp.NewResourceLink(linkURI, v, v, "text/plain")
			l.Title = v
			return &mcp.CallToolResult{Content: []mcp.Content{mcp.NewTextContent("see the link"), l}}, nil
		})
	return s
}

// TestNeutralizeResourceLinks: the name, title and description of a
// resource link come out defused exactly as the text path defuses them,
// for every string of the injection corpus; benign strings and the URI
// come out unchanged; every defusal is counted.
func TestNeutralizeResourceLinks(t *testing.T) {
	injections := readNeutralizeCorpus(t, "injections.txt")
	benign := readNeutralizeCorpus(t, "benign.txt")
	all := append(append([]string(nil), injections...), benign...)
	rec := &recorder{}
	mx := newMux(t, &config.Fleet{}, mcpfleet.WithMetrics(rec), mcpfleet.WithInProcess("l-1", "links", linkServer(all)))
	n := neutralize.New()
	wantDefusals := 0
	for i, in := range all {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			res, err := call(t, mx, "l-1", "link", fmt.Sprintf(`{"i": %d}`, i))
			if err != nil {
				t.Fatal(err)
			}
			want, count := n.Defuse(in)
			if (i < len(injections)) == (count == 0) {
				t.Fatalf("corpus string %q: %d defusals", in, count)
			}
			wantDefusals += 3 * count
			if len(res.Content) != 2 {
				t.Fatalf("content parts = %d, want 2", len(res.Content))
			}
			got, ok := res.Content[1].(mcp.ResourceLink)
			if !ok {
				t.Fatalf("part 1 is %T, want a resource link", res.Content[1])
			}
			wantLink := mcp.NewResourceLink(linkURI, want, want, "text/plain")
			wantLink.Title = want
			if diff := cmp.Diff(wantLink, got); diff != "" {
				t.Errorf("resource link (-want +got):\n%s", diff)
			}
		})
	}
	if rec.defused != wantDefusals {
		t.Errorf("defusals counted = %d, want %d", rec.defused, wantDefusals)
	}

	raw := newMux(t, &config.Fleet{}, mcpfleet.WithoutNeutralize(), mcpfleet.WithInProcess("l-1", "links", linkServer(all)))
	res, err := call(t, raw, "l-1", "link", `{"i": 0}`)
	if err != nil {
		t.Fatal(err)
	}
	if l := res.Content[1].(mcp.ResourceLink); l.Name != all[0] || l.Title != all[0] || l.Description != all[0] {
		t.Errorf("WithoutNeutralize changed the link: %+v", l)
	}
}

// TestGrepResultPatternError: a bad pattern's error matches ErrBadPattern,
// reaches the regexp's *syntax.Error, and names the pattern once.
func TestGrepResultPatternError(t *testing.T) {
	cfg := &config.Fleet{KindSettings: map[string]config.KindSettings{"logs": {OffloadTokens: 200}}}
	mx := newMux(t, cfg, mcpfleet.WithInProcess("logs-1", "logs", testfleet.NewServer("logs-1", testfleet.Options{})))
	res, err := call(t, mx, "logs-1", "big", `{"bytes": 20000}`)
	if err != nil || res.Offload == nil {
		t.Fatalf("not offloaded: %+v %v", res, err)
	}
	const advice = " Patterns use Go RE2 syntax: no lookarounds or backreferences; escape ( ) [ ] . * + ? with a backslash to match them literally."
	long := strings.Repeat("x", 600)
	tests := []struct {
		name, pattern, want string
		code                syntax.ErrorCode // "" when it is no regexp syntax error
	}{
		{"syntax", `line 4242:|(`, "mcpfleet: bad grep pattern \"line 4242:|(\": error parsing regexp: missing closing ): `line 4242:|(`." + advice, syntax.ErrMissingParen},
		{"lookbehind", `(?<=x)y`, "mcpfleet: bad grep pattern \"(?<=x)y\": error parsing regexp: invalid named capture: `(?<=x)y`." + advice, syntax.ErrInvalidNamedCapture},
		{"too long", long, `mcpfleet: bad grep pattern "` + long[:40] + `…": longer than 512 bytes, got 600.` + advice, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := mx.GrepResult(t.Context(), res.Offload.Handle, tc.pattern, 0)
			if !errors.Is(err, mcpfleet.ErrBadPattern) {
				t.Fatalf("err = %v, want ErrBadPattern", err)
			}
			if diff := cmp.Diff(tc.want, err.Error()); diff != "" {
				t.Errorf("error text (-want +got):\n%s", diff)
			}
			var se *syntax.Error
			if got := errors.As(err, &se); got != (tc.code != "") || got && se.Code != tc.code {
				t.Errorf("errors.As *syntax.Error = %v (%v), want code %q", got, se, tc.code)
			}
		})
	}
}
