package upstream_test

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpfleet/mcpfleet/internal/testfleet"
	"github.com/mcpfleet/mcpfleet/internal/upstream"
)

// dial connects to spec and returns the client with the Caller that
// stands in for it.
func dial(t *testing.T, spec upstream.Spec) (*client.Client, *upstream.Caller) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	c, init, err := upstream.Dial(ctx, t.Context(), spec)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	// mcp-go's client derives headers from the tools it listed: list them,
	// as the Mux does.
	if _, err := c.ListTools(ctx, mcp.ListToolsRequest{}); err != nil {
		t.Fatal(err)
	}
	k := upstream.NewCaller(c, spec, init)
	if k == nil {
		t.Fatalf("no Caller for transport %q", spec.Transport)
	}
	return c, k
}

func callReq(tool string, args map[string]any, meta *mcp.Meta) mcp.CallToolRequest {
	req := mcp.CallToolRequest{}
	req.Params.Name, req.Params.Arguments, req.Params.Meta = tool, args, meta
	return req
}

// TestCallerSendsWhatClientSends: the server receives the same tools/call
// params, _meta included (protocol members and the caller's own), from a
// Caller as from mcp-go's client.
func TestCallerSendsWhatClientSends(t *testing.T) {
	var mu sync.Mutex
	var got []mcp.CallToolParams
	s := testfleet.NewServer("k8s-1", testfleet.Options{OnCall: func(r mcp.CallToolRequest) {
		mu.Lock()
		got = append(got, r.Params)
		mu.Unlock()
	}})
	c, k := dial(t, upstream.Spec{Name: "k8s-1", Transport: "inprocess", InProcess: s})
	for _, meta := range []*mcp.Meta{nil, {AdditionalFields: map[string]any{"traceparent": "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"}}} {
		got = nil
		req := callReq("pods_log", map[string]any{"name": "api-0", "tailLines": 5}, meta)
		if _, err := c.CallTool(t.Context(), req); err != nil {
			t.Fatal(err)
		}
		if _, err := k.CallTool(t.Context(), req); err != nil {
			t.Fatal(err)
		}
		if len(got) != 2 {
			t.Fatalf("server saw %d calls, want 2", len(got))
		}
		want, have := wire(t, got[0]), wire(t, got[1])
		if !reflect.DeepEqual(want, have) {
			t.Errorf("meta %v: server received\n%v\nfrom the Caller, want (from mcp-go's client)\n%v", meta, have, want)
		}
		if m, _ := have["_meta"].(map[string]any); m[mcp.MetaKeyProtocolVersion] == nil {
			t.Errorf("no protocol version in the Caller's _meta: %v", have["_meta"])
		}
	}
}

// wire is p as JSON values, RawArguments left out.
func wire(t *testing.T, p mcp.CallToolParams) map[string]any {
	t.Helper()
	p.RawArguments = nil
	b, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// TestCallerAnswersAsClient: over stdio, each kind of answer (text with
// structuredContent, a tool error, an image, a text with escapes, an
// error answer) comes back from a Caller as mcp-go's client returns it.
func TestCallerAnswersAsClient(t *testing.T) {
	bin := testfleet.StdioBinary(t)
	c, k := dial(t, upstream.Spec{Name: "files", Transport: "stdio", Command: bin, Args: []string{"--name", "files", "--bigwraps"}})
	for _, tc := range []struct {
		tool string
		args map[string]any
	}{
		{"echo", map[string]any{"text": "a \"quoted\"\n\u2028 line é", "count": 2}},
		{"fail", map[string]any{}},
		{"image", map[string]any{}},
		{"big", map[string]any{"bytes": 5000}},
		{"pods_log", map[string]any{"name": "api-0"}},
		{"no_such_tool", map[string]any{}},
	} {
		want, werr := c.CallTool(t.Context(), callReq(tc.tool, tc.args, nil))
		have, herr := k.CallTool(t.Context(), callReq(tc.tool, tc.args, nil))
		if (werr == nil) != (herr == nil) || werr != nil && werr.Error() != herr.Error() {
			t.Errorf("%s: error %v, want %v", tc.tool, herr, werr)
			continue
		}
		if werr != nil {
			continue
		}
		if w, h := asJSON(t, want), asJSON(t, have); w != h {
			t.Errorf("%s: result\n%s\nwant\n%s", tc.tool, h, w)
		}
	}
}

func asJSON(t *testing.T, r *mcp.CallToolResult) string {
	t.Helper()
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestCallerCancels: a call whose context ends tells the server, which
// stops the handler; the error is a transport error, as from mcp-go.
func TestCallerCancels(t *testing.T) {
	bin := testfleet.StdioBinary(t)
	_, k := dial(t, upstream.Spec{Name: "s", Transport: "stdio", Command: bin, Args: []string{"--name", "s", "--diag"}})
	ctx, cancel := context.WithTimeout(t.Context(), 200*time.Millisecond)
	defer cancel()
	_, err := k.CallTool(ctx, callReq("slow", map[string]any{"ms": 20000}, nil))
	var te *transport.Error
	if !errors.As(err, &te) {
		t.Fatalf("error %v (%T), want a *transport.Error", err, err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		r, err := k.CallTool(t.Context(), callReq("stats", map[string]any{}, nil))
		if err != nil {
			t.Fatal(err)
		}
		text := r.Content[0].(mcp.TextContent).Text
		if strings.Contains(text, `"cancelled":1`) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the server's handler was not cancelled: %s", text)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestNewCallerOnlyWithoutHeaders: HTTP and SSE keep mcp-go's own path,
// which mirrors requests into the headers they need.
func TestNewCallerOnlyWithoutHeaders(t *testing.T) {
	s := testfleet.NewServer("k8s-1", testfleet.Options{})
	for _, spec := range []upstream.Spec{
		{Name: "h", Transport: "http", URL: testfleet.ServeHTTP(t, s)},
		{Name: "e", Transport: "sse", URL: testfleet.ServeSSE(t, s)},
	} {
		ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
		c, init, err := upstream.Dial(ctx, t.Context(), spec)
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		if k := upstream.NewCaller(c, spec, init); k != nil {
			t.Errorf("%s: a Caller, want none", spec.Transport)
		}
		c.Close()
	}
}
