package testfleet

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// Options shapes a test server.
type Options struct {
	// Tools are served with an echo handler each, besides the built-in
	// test tools. Use fixture tools for real schemas.
	Tools []mcp.Tool
	// PageSize > 0 paginates tools/list.
	PageSize int
	// Calls, if set, counts every tools/call the server receives.
	Calls *atomic.Int64
	// Diagnostics adds the tools pid {} (the serving process's PID) and
	// stats {} (JSON {"calls", "cancelled"}: tools/call received, and
	// handlers whose ctx was cancelled before they finished), and makes
	// slow count its cancellations.
	Diagnostics bool
	// Cancelled, if set, counts handlers of slow whose ctx was cancelled.
	Cancelled *atomic.Int64
	// OnCall, if set, sees every tools/call before its handler runs.
	OnCall func(mcp.CallToolRequest)
	// BigWraps makes big answer as the reference filesystem server's
	// read_text_file does: the text, and structuredContent {"content":
	// the text}, so each result carries the text twice.
	BigWraps bool
}

func boolp(b bool) *bool { return &b }

func readOnly() mcp.ToolAnnotation {
	return mcp.ToolAnnotation{ReadOnlyHint: boolp(true), DestructiveHint: boolp(false), IdempotentHint: boolp(true), OpenWorldHint: boolp(false)}
}

// The built-in test tools:
//   - echo {text, count?}: answers "name: text" (count times), with structuredContent {"text": …};
//   - slow {ms}: sleeps ms milliseconds or until cancelled;
//   - fail {}: answers with IsError;
//   - image {}: answers with a 1x1 PNG image content;
//   - big {bytes}: answers with that many bytes of text (see Options.BigWraps);
//   - environ {}: the process environment, one VAR=value a line;
//   - pods_log {name, namespace?, tailLines?}: a Kubernetes-shaped tool with a required name.
func builtins(name string, cancelled *atomic.Int64, bigWraps bool) []server.ServerTool {
	str := func(desc string) map[string]any { return map[string]any{"type": "string", "description": desc} }
	obj := func(props map[string]any, req ...string) json.RawMessage {
		o := map[string]any{"type": "object", "properties": props, "additionalProperties": false}
		if len(req) > 0 {
			o["required"] = req
		}
		b, _ := json.Marshal(o)
		return b
	}
	text := func(s string) *mcp.CallToolResult { return mcp.NewToolResultText(s) }
	return []server.ServerTool{
		{Tool: mcp.Tool{Name: "echo", Description: "Echo the text back.", Annotations: readOnly(),
			RawInputSchema: obj(map[string]any{"text": str("Text to echo"), "count": map[string]any{"type": "integer", "minimum": 1}}, "text")},
			Handler: func(ctx context.Context, r mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				t := r.GetString("text", "")
				n := r.GetInt("count", 1)
				res := text(name + ": " + strings.Repeat(t, n))
				res.StructuredContent = map[string]any{"text": t, "server": name}
				return res, nil
			}},
		{Tool: mcp.Tool{Name: "slow", Description: "Sleep, then answer.", Annotations: readOnly(),
			RawInputSchema: obj(map[string]any{"ms": map[string]any{"type": "integer"}}, "ms")},
			Handler: func(ctx context.Context, r mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				select {
				case <-time.After(time.Duration(r.GetInt("ms", 0)) * time.Millisecond):
					return text("slept"), nil
				case <-ctx.Done():
					if cancelled != nil {
						cancelled.Add(1)
					}
					return nil, ctx.Err()
				}
			}},
		{Tool: mcp.Tool{Name: "fail", Description: "Always fails.", Annotations: readOnly(), RawInputSchema: obj(map[string]any{})},
			Handler: func(ctx context.Context, r mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				return mcp.NewToolResultError("fail: the tool failed on purpose"), nil
			}},
		{Tool: mcp.Tool{Name: "image", Description: "Returns an image.", Annotations: readOnly(), RawInputSchema: obj(map[string]any{})},
			Handler: func(ctx context.Context, r mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				return &mcp.CallToolResult{Content: []mcp.Content{mcp.NewTextContent("a pixel"), mcp.NewImageContent(PNG, "image/png")}}, nil
			}},
		{Tool: mcp.Tool{Name: "big", Description: "Returns a large text.", Annotations: readOnly(),
			RawInputSchema: obj(map[string]any{"bytes": map[string]any{"type": "integer"}}, "bytes")},
			Handler: func(ctx context.Context, r mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				t := BigText(r.GetInt("bytes", 0))
				if bigWraps {
					return mcp.NewToolResultStructured(map[string]any{"content": t}, t), nil
				}
				return text(t), nil
			}},
		{Tool: mcp.Tool{Name: "environ", Description: "Returns the server process environment.", Annotations: readOnly(), RawInputSchema: obj(map[string]any{})},
			Handler: func(ctx context.Context, r mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				env := os.Environ()
				sort.Strings(env)
				return text(strings.Join(env, "\n")), nil
			}},
		{Tool: mcp.Tool{Name: "pods_log", Description: "Get the logs of a pod.", Annotations: readOnly(),
			RawInputSchema: obj(map[string]any{"name": str("Name of the pod"), "namespace": str("Namespace of the pod"),
				"tailLines": map[string]any{"type": "integer"}, "resourceType": map[string]any{"type": "string", "enum": []string{"pod", "deployment"}}}, "name")},
			Handler: func(ctx context.Context, r mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				args, _ := json.Marshal(r.GetArguments())
				return text(fmt.Sprintf("%s logs %s", name, args)), nil
			}},
	}
}

// PNG is a 1x1 transparent PNG, base64.
const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII="

// BigText returns n bytes of log-like lines.
func BigText(n int) string {
	var b strings.Builder
	for i := 0; b.Len() < n; i++ {
		fmt.Fprintf(&b, "2026-11-30T02:15:%02d line %d: request handled\n", i%60, i)
	}
	return b.String()[:n]
}

// NewServer returns a real mcp-go server named name with the built-in test
// tools plus opts.Tools (echo handlers).
func NewServer(name string, opts Options) *server.MCPServer {
	sopts := []server.ServerOption{server.WithToolCapabilities(true)}
	if opts.PageSize > 0 {
		sopts = append(sopts, server.WithPaginationLimit(opts.PageSize))
	}
	if opts.Diagnostics {
		if opts.Calls == nil {
			opts.Calls = new(atomic.Int64)
		}
		if opts.Cancelled == nil {
			opts.Cancelled = new(atomic.Int64)
		}
	}
	if opts.Calls != nil || opts.OnCall != nil {
		sopts = append(sopts, server.WithToolHandlerMiddleware(func(next server.ToolHandlerFunc) server.ToolHandlerFunc {
			return func(ctx context.Context, r mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				if opts.Calls != nil {
					opts.Calls.Add(1)
				}
				if opts.OnCall != nil {
					opts.OnCall(r)
				}
				return next(ctx, r)
			}
		}))
	}
	s := server.NewMCPServer(name, "1.0.0", sopts...)
	s.AddTools(builtins(name, opts.Cancelled, opts.BigWraps)...)
	if opts.Diagnostics {
		s.AddTools(diagnostics(opts.Calls, opts.Cancelled)...)
	}
	for _, t := range opts.Tools {
		s.AddTool(t, func(ctx context.Context, r mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			b, _ := json.Marshal(r.GetArguments())
			return mcp.NewToolResultText(fmt.Sprintf("%s %s %s", name, r.Params.Name, b)), nil
		})
	}
	return s
}

// ServeHTTP serves s over streamable HTTP at <url>/mcp until the test ends.
func ServeHTTP(t testing.TB, s *server.MCPServer) string {
	t.Helper()
	ts := httptest.NewServer(server.NewStreamableHTTPServer(s))
	t.Cleanup(ts.Close)
	return ts.URL + "/mcp"
}

// ServeSSE serves s over SSE at <url>/sse until the test ends.
func ServeSSE(t testing.TB, s *server.MCPServer) string {
	t.Helper()
	sse := server.NewSSEServer(s)
	ts := httptest.NewServer(sse)
	server.WithBaseURL(ts.URL)(sse)
	t.Cleanup(ts.Close)
	return ts.URL + "/sse"
}

var (
	buildOnce sync.Once
	buildPath string
	buildErr  error
)

// StdioBinary builds cmd/testserver once per test binary and returns its
// path. Run it as: testserver --name NAME [--fixture FILE] [--page N].
func StdioBinary(t testing.TB) string {
	t.Helper()
	buildOnce.Do(func() {
		_, file, _, _ := runtime.Caller(0)
		dir, err := os.MkdirTemp("", "mcpfleet-testserver")
		if err != nil {
			buildErr = err
			return
		}
		buildPath = filepath.Join(dir, "testserver")
		cmd := exec.Command("go", "build", "-o", buildPath, "./cmd/testserver")
		cmd.Dir = filepath.Dir(file)
		out, err := cmd.CombinedOutput()
		if err != nil {
			buildErr = fmt.Errorf("build testserver: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return buildPath
}

func diagnostics(calls, cancelled *atomic.Int64) []server.ServerTool {
	empty := json.RawMessage(`{"type":"object","properties":{},"additionalProperties":false}`)
	return []server.ServerTool{
		{Tool: mcp.Tool{Name: "pid", Description: "The PID of the serving process.", Annotations: readOnly(), RawInputSchema: empty},
			Handler: func(ctx context.Context, r mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				return mcp.NewToolResultText(strconv.Itoa(os.Getpid())), nil
			}},
		{Tool: mcp.Tool{Name: "stats", Description: "Calls received and cancelled handlers.", Annotations: readOnly(), RawInputSchema: empty},
			Handler: func(ctx context.Context, r mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				return mcp.NewToolResultText(fmt.Sprintf(`{"calls":%d,"cancelled":%d}`, calls.Load(), cancelled.Load())), nil
			}},
	}
}
