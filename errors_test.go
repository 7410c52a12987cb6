package mcpfleet_test

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpfleet/mcpfleet"
	"github.com/mcpfleet/mcpfleet/config"
	"github.com/mcpfleet/mcpfleet/internal/goldenfile"
	"github.com/mcpfleet/mcpfleet/internal/testfleet"
	"github.com/mcpfleet/mcpfleet/normalizers"
)

// TestRejections runs every rejection path and pins its model-facing text
// in testdata/reject.golden. No rejected call may reach the server.
func TestRejections(t *testing.T) {
	var calls atomic.Int64
	srv := testfleet.NewServer("k8s-1", testfleet.Options{Calls: &calls})
	cfg := &config.Fleet{
		Servers: []config.Server{{Name: "ghost", Kind: "kubernetes", Transport: "stdio", Command: "/nonexistent/server"}},
		KindSettings: map[string]config.KindSettings{
			"kubernetes": {ArgsTransformer: []string{"boom"}},
		},
	}
	boom := func(ctx context.Context, c normalizers.Call) (map[string]any, error) {
		if c.Args["explode"] == true {
			return nil, errors.New("explode is not a real option; remove it")
		}
		out := map[string]any{}
		for k, v := range c.Args {
			if k != "explode" {
				out[k] = v
			}
		}
		return out, nil
	}
	hook := func(ctx context.Context, c *mcpfleet.Call) (context.Context, *mcp.CallToolResult, error) {
		if c.Args["namespace"] == "kube-system" {
			return nil, nil, errors.New("kube-system is off limits for this agent")
		}
		return nil, nil, nil
	}
	mx := newMux(t, cfg, mcpfleet.WithInProcess("k8s-1", "kubernetes", srv),
		mcpfleet.WithArgsTransformer("boom", boom), mcpfleet.WithBeforeCall(hook))

	tests := []struct {
		name, server, tool, args string
		reason                   mcpfleet.Reason
	}{
		{"unknown server", "k8s-9", "pods_log", `{"name":"a"}`, mcpfleet.ReasonUnknownServer},
		{"unknown server far", "zzzzzzzz", "pods_log", `{"name":"a"}`, mcpfleet.ReasonUnknownServer},
		{"server down", "ghost", "pods_log", `{"name":"a"}`, mcpfleet.ReasonServerDown},
		{"unknown tool", "k8s-1", "pod_logs", `{"name":"a"}`, mcpfleet.ReasonUnknownTool},
		{"not an object", "k8s-1", "pods_log", `["a"]`, mcpfleet.ReasonInvalidJSON},
		{"bad json", "k8s-1", "pods_log", `{"name":`, mcpfleet.ReasonInvalidJSON},
		{"transformer error", "k8s-1", "pods_log", `{"name":"a","explode":true}`, mcpfleet.ReasonTransformFailed},
		{"placeholder empty", "k8s-1", "pods_log", `{"name":""}`, mcpfleet.ReasonPlaceholder},
		{"placeholder none", "k8s-1", "pods_log", `{"name":"<none>","namespace":"Undefined"}`, mcpfleet.ReasonPlaceholder},
		{"placeholder whitespace", "k8s-1", "pods_log", `{"name":"   "}`, mcpfleet.ReasonPlaceholder},
		{"null on required", "k8s-1", "pods_log", `{"name":null}`, mcpfleet.ReasonPlaceholder},
		{"missing required", "k8s-1", "pods_log", `{"namespace":"prod"}`, mcpfleet.ReasonInvalidArguments},
		{"wrong type", "k8s-1", "pods_log", `{"name":["a","b"]}`, mcpfleet.ReasonInvalidArguments},
		{"enum", "k8s-1", "pods_log", `{"name":"a","resourceType":"pods"}`, mcpfleet.ReasonInvalidArguments},
		{"hallucinated field", "k8s-1", "pods_log", `{"name":"a","podName":"a"}`, mcpfleet.ReasonInvalidArguments},
		{"hook", "k8s-1", "pods_log", `{"name":"a","namespace":"kube-system"}`, mcpfleet.ReasonHookRejected},
	}
	var golden strings.Builder
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := call(t, mx, tc.server, tc.tool, tc.args)
			var rej *mcpfleet.RejectError
			if !errors.As(err, &rej) {
				t.Fatalf("err = %v, want *RejectError", err)
			}
			if rej.Reason != tc.reason {
				t.Errorf("reason = %s, want %s", rej.Reason, tc.reason)
			}
			if !errors.Is(err, mcpfleet.ErrRejected) {
				t.Error("errors.Is(err, ErrRejected) = false")
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("Error() = %q, want one line", err.Error())
			}
			golden.WriteString("## " + tc.name + "\n" + rej.ModelText() + "\n\n")
		})
	}
	if n := calls.Load(); n != 0 {
		t.Errorf("%d rejected calls reached the server, want 0", n)
	}
	goldenfile.Check(t, "testdata/reject.golden", golden.String())

	// Null on an optional field is dropped as absent, and the call goes through.
	res, err := call(t, mx, "k8s-1", "pods_log", `{"name":"api-7f9c","namespace":null}`)
	if err != nil {
		t.Fatalf("null optional: %v", err)
	}
	if got, want := plain(res), `k8s-1 logs {"name":"api-7f9c"}`; got != want {
		t.Errorf("null optional: sent %q, want %q", got, want)
	}
}
