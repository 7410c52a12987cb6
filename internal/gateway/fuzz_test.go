package gateway_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpfleet/mcpfleet/internal/gateway"
)

// FuzzCallTool sends arbitrary callTool arguments: every one must come back
// as a tool result (never a protocol error or a panic), and a failure must
// carry text for the model.
func FuzzCallTool(f *testing.F) {
	for _, s := range []string{
		`{"server":"k8s-1","tool":"pods_get","arguments":{"name":"web"}}`,
		`{"server":"k8s-1","tool":"kubernetes.pods_log","arguments":"{\"name\":\"x\"}"}`,
		`{"tool":"echo","arguments":{"server":"misc","text":"<none>"}}`,
		`{"server":"misc","tool":"echo","arguments":[1,2]}`,
		`{"server":7,"tool":null}`,
		`{"server":"k8s-1","tool":"pods_delete","arguments":{"name":"web"}}`,
	} {
		f.Add(s)
	}
	fl := newFleetB(f)
	g, err := gateway.New(gateway.Config{Mux: fl.mux})
	if err != nil {
		f.Fatal(err)
	}
	c := connectB(f, g)
	f.Fuzz(func(t *testing.T, in string) {
		var args map[string]any
		if json.Unmarshal([]byte(in), &args) != nil {
			return
		}
		req := mcp.CallToolRequest{}
		req.Params.Name = "callTool"
		req.Params.Arguments = args
		res, err := c.CallTool(t.Context(), req)
		if err != nil {
			t.Fatalf("protocol error for %s: %v", in, err)
		}
		if res.IsError && strings.TrimSpace(text(res)) == "" {
			t.Fatalf("error without text for %s", in)
		}
	})
}

// FuzzParseTokens: any token file parses or reports errors, never panics,
// and every token it returns has scopes and no whitespace.
func FuzzParseTokens(f *testing.F) {
	f.Add("abc: read,write\n# c\ndef: *")
	f.Add("a:;b:c;;:d\n x y :z")
	f.Fuzz(func(t *testing.T, in string) {
		toks, _ := gateway.ParseTokens(strings.NewReader(in))
		for tok, scopes := range toks {
			if tok == "" || strings.ContainsAny(tok, " \t") || len(scopes) == 0 {
				t.Fatalf("ParseTokens(%q) gave token %q with scopes %v", in, tok, scopes)
			}
		}
	})
}
