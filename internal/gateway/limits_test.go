package gateway_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/client"

	"github.com/mcpfleet/mcpfleet/catalog"
	"github.com/mcpfleet/mcpfleet/internal/gateway"
)

// TestRequestBodyLimit: a body over Config.MaxRequestBytes gets 413
// saying the limit and the size, whether its length is declared or it
// arrives chunked; a body within it reaches the MCP server.
func TestRequestBodyLimit(t *testing.T) {
	f := newFleet(t)
	srv := httptest.NewServer(newGateway(t, gateway.Config{Mux: f.mux, MaxRequestBytes: 1000}).Handler())
	t.Cleanup(srv.Close)
	call := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"searchTools","arguments":{"query":"` + strings.Repeat("x", 2000) + `"}}}`
	tests := []struct {
		name     string
		body     io.Reader
		status   int
		contains string
	}{
		{"declared length", strings.NewReader(call), http.StatusRequestEntityTooLarge, "the limit is 1000 bytes, this request has 2103 bytes"},
		{"chunked", io.MultiReader(strings.NewReader(call)), http.StatusRequestEntityTooLarge, "the limit is 1000 bytes, this request has more than 1000 bytes"},
		{"within", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`), http.StatusOK, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, srv.URL+"/mcp", tt.body)
			if err != nil {
				t.Fatal(err)
			}
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			b, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != tt.status && !(tt.status == http.StatusOK && resp.StatusCode < 500 && resp.StatusCode != http.StatusRequestEntityTooLarge) {
				t.Errorf("status %d, want %d: %s", resp.StatusCode, tt.status, b)
			}
			if !strings.Contains(string(b), tt.contains) {
				t.Errorf("body %q does not say %q", b, tt.contains)
			}
		})
	}
}

// TestInputCaps: a searchTools query, a describeTools name list and a
// grepResult pattern over their caps are refused, saying the cap and what
// was sent, through the MCP client.
func TestInputCaps(t *testing.T) {
	f := newFleet(t)
	srv := httptest.NewServer(newGateway(t, gateway.Config{Mux: f.mux}).Handler())
	t.Cleanup(srv.Close)
	c, err := httpClient(t, srv.URL, "")
	if err != nil {
		t.Fatal(err)
	}
	names := make([]string, 51)
	for i := range names {
		names[i] = "kubernetes.pods_log"
	}
	tests := []struct {
		tool, want string
		args       map[string]any
	}{
		{gateway.ToolSearchTools, "query too long: the limit is 8192 bytes, this query has 8193", map[string]any{"query": strings.Repeat("q", 8193)}},
		{gateway.ToolDescribeTools, "too many names: the limit is 50 per describeTools call, this call has 51", map[string]any{"names": names}},
	}
	for _, tt := range tests {
		t.Run(tt.tool, func(t *testing.T) {
			res := call(t, c, tt.tool, tt.args)
			if !res.IsError || !strings.Contains(text(res), tt.want) {
				t.Errorf("isError %v, text %q; want it to say %q", res.IsError, text(res), tt.want)
			}
		})
	}
	// At the cap, both are served.
	if res := call(t, c, gateway.ToolSearchTools, map[string]any{"query": "pod logs " + strings.Repeat("q", 8000)}); res.IsError {
		t.Errorf("a query of 8 KB was refused: %s", text(res))
	}
	if res := call(t, c, gateway.ToolDescribeTools, map[string]any{"names": names[:50]}); res.IsError {
		t.Errorf("50 names were refused: %.200s", text(res))
	}
}

// TestConversationLoads: with a conversation header, the tools a caller
// describes are listed by listKinds in later requests of that
// conversation only.
func TestConversationLoads(t *testing.T) {
	f := newFleet(t)
	srv := httptest.NewServer(newGateway(t, gateway.Config{Mux: f.mux, Activations: &catalog.MemoryStore{}}).Handler())
	t.Cleanup(srv.Close)
	conn := func(conv string) *client.Client {
		c, err := httpClientWith(t, srv.URL, map[string]string{gateway.HeaderConversation: conv})
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	if res := call(t, conn("c1"), gateway.ToolDescribeTools, map[string]any{"names": []string{"kubernetes.pods_log"}}); res.IsError {
		t.Fatalf("describeTools: %s", text(res))
	}
	const said = "Described earlier in this conversation (call them without describing again): kubernetes.pods_log"
	if got := text(call(t, conn("c1"), gateway.ToolListKinds, nil)); !strings.Contains(got, said) {
		t.Errorf("listKinds in c1:\n%s", got)
	}
	if got := text(call(t, conn("c2"), gateway.ToolListKinds, nil)); strings.Contains(got, "Described earlier") {
		t.Errorf("listKinds in c2 sees c1's loads:\n%s", got)
	}
}

// TestConfiguredInputCaps: the caps a Config sets (the fleet file's
// request_limits) replace the defaults, and each refusal says the
// configured cap; a pattern cap over the Mux's own is lowered to it.
func TestConfiguredInputCaps(t *testing.T) {
	f := newFleet(t)
	cfg := gateway.Config{Mux: f.mux, MaxQueryBytes: 100, MaxDescribeNames: 2, MaxPatternBytes: 8}
	c := connect(t, newGateway(t, cfg))
	tests := []struct {
		tool, want string
		args       map[string]any
	}{
		{gateway.ToolSearchTools, "query too long: the limit is 100 bytes, this query has 101", map[string]any{"query": strings.Repeat("q", 101)}},
		{gateway.ToolDescribeTools, "too many names: the limit is 2 per describeTools call, this call has 3", map[string]any{"names": []string{"a", "b", "c"}}},
		{gateway.ToolGrepResult, "pattern too long: the limit is 8 bytes, this pattern has 9", map[string]any{"handle": "r-000000000000", "pattern": "error|war"}},
	}
	for _, tt := range tests {
		t.Run(tt.tool, func(t *testing.T) {
			res := call(t, c, tt.tool, tt.args)
			if !res.IsError || !strings.Contains(text(res), tt.want) {
				t.Errorf("isError %v, text %q; want it to say %q", res.IsError, text(res), tt.want)
			}
		})
	}
	if res := call(t, c, gateway.ToolSearchTools, map[string]any{"query": "pod logs"}); res.IsError {
		t.Errorf("a short query was refused: %s", text(res))
	}
	cfg.MaxPatternBytes = 100_000
	c = connect(t, newGateway(t, cfg))
	res := call(t, c, gateway.ToolGrepResult, map[string]any{"handle": "r-000000000000", "pattern": strings.Repeat("x", 513)})
	if want := "the limit is 512 bytes, this pattern has 513"; !res.IsError || !strings.Contains(text(res), want) {
		t.Errorf("a 513-byte pattern with the cap set to 100000: %q, want it to say %q", text(res), want)
	}
}
