package subagent_test

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/cloudwego/eino/adk"
	"github.com/cloudwego/eino/callbacks"
	"github.com/cloudwego/eino/components"
	"github.com/google/go-cmp/cmp"

	"github.com/mcpfleet/mcpfleet/adapters/eino/einotest"
	"github.com/mcpfleet/mcpfleet/subagent"
)

// TestCallbacks: a per-run eino handler sees every MCP call once (type MCP,
// tool component) and every model call once.
func TestCallbacks(t *testing.T) {
	mx, _ := newFleet(t, srv{Name: "k8s-1", Kind: "kubernetes"})
	var mu sync.Mutex
	var got []string
	h := callbacks.NewHandlerBuilder().
		OnStartFn(func(ctx context.Context, info *callbacks.RunInfo, _ callbacks.CallbackInput) context.Context {
			if info.Component == components.ComponentOfTool || info.Component == components.ComponentOfChatModel {
				mu.Lock()
				got = append(got, "start "+string(info.Component)+" "+info.Type+" "+info.Name)
				mu.Unlock()
			}
			return ctx
		}).
		OnErrorFn(func(ctx context.Context, info *callbacks.RunInfo, err error) context.Context {
			if info.Component == components.ComponentOfTool {
				mu.Lock()
				got = append(got, "error "+info.Name)
				mu.Unlock()
			}
			return ctx
		}).Build()
	m := einotest.New(
		einotest.Calls(einotest.Call("echo", map[string]any{"server": "k8s-1", "text": "a"})),
		einotest.Calls(einotest.Call("fail", map[string]any{"server": "k8s-1"})),
		einotest.Answer("done"),
	)
	sa, err := subagent.New(t.Context(), mx, subagent.Config{Servers: []string{"k8s-1"}, Model: m, Mode: "off"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := sa.Run(t.Context(), "go", adk.WithCallbacks(h)); err != nil {
		t.Fatal(err)
	}
	var models, tools []string
	for _, g := range got {
		if strings.HasPrefix(g, "start ChatModel") {
			models = append(models, g)
		} else {
			tools = append(tools, g)
		}
	}
	want := []string{"start Tool MCP echo", "start Tool MCP fail", "error fail"}
	if diff := cmp.Diff(want, tools); diff != "" {
		t.Errorf("tool callbacks (-want +got):\n%s", diff)
	}
	if len(models) != 3 {
		t.Errorf("model callbacks %v, want one per model call (3)", models)
	}
}
