package eino_test

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/cloudwego/eino/callbacks"
	"github.com/google/go-cmp/cmp"

	mcpeino "github.com/mcpfleet/mcpfleet/adapters/eino"
)

func TestToolFailuresAreText(t *testing.T) {
	mx, calls := newFleet(t, srv{"k8s-1", "kubernetes", "kubernetes"}, srv{"k8s-2", "kubernetes", "kubernetes"})
	var mu sync.Mutex
	var recs []mcpeino.CallRecord
	tools, _, err := mcpeino.NewTools(mx, mcpeino.ToolsConfig{OnCall: func(_ context.Context, r mcpeino.CallRecord) {
		mu.Lock()
		recs = append(recs, r)
		mu.Unlock()
	}})
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]*mcpeino.Tool{}
	for _, tl := range tools {
		byName[tl.Spec().Name] = tl
	}
	tests := []struct {
		name, tool, args string
		status, prefix   string
		hits             int64 // calls reaching k8s-1
	}{
		{"ok", "pods_list_in_namespace", `{"server":"k8s-1","namespace":"payments"}`, mcpeino.StatusOK, "k8s-1 pods_list_in_namespace", 1},
		{"tool error", "fail", `{"server":"k8s-1"}`, mcpeino.StatusError, "ERROR from k8s-1.fail: ", 1},
		{"schema reject", "pods_list_in_namespace", `{"server":"k8s-1"}`, mcpeino.StatusRejected, "REJECTED k8s-1.pods_list_in_namespace", 0},
		{"missing server", "pods_list", `{}`, mcpeino.StatusRejected, `REJECTED pods_list: the "server" argument is required; use one of: k8s-1, k8s-2.`, 0},
		{"unknown server", "pods_list", `{"server":"k8s-9"}`, mcpeino.StatusRejected, `REJECTED pods_list: server "k8s-9" does not offer this tool`, 0},
		{"not json", "pods_list", `{"server":`, mcpeino.StatusRejected, "REJECTED pods_list: arguments are not a JSON object", 0},
		{"image", "image", `{"server":"k8s-1"}`, mcpeino.StatusOK, "[image image/png, 92 bytes base64]", 1},
		{"structured", "echo", `{"server":"k8s-1","text":"hi"}`, mcpeino.StatusOK, "structured: {\"server\":\"k8s-1\",\"text\":\"hi\"}", 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			before := calls["k8s-1"].Load()
			mu.Lock()
			recs = nil
			mu.Unlock()
			out, err := byName[tc.tool].InvokableRun(t.Context(), tc.args)
			if err != nil {
				t.Fatalf("InvokableRun returned a Go error: %v", err)
			}
			// the root may wrap upstream text in its neutralization envelope,
			// so results are matched by content; refusals by prefix
			if !strings.HasPrefix(out, tc.prefix) && !strings.Contains(out, tc.prefix) {
				t.Errorf("text = %q, want %q", out, tc.prefix)
			}
			if got := calls["k8s-1"].Load() - before; got != tc.hits {
				t.Errorf("server hit %d times, want %d", got, tc.hits)
			}
			mu.Lock()
			defer mu.Unlock()
			if len(recs) != 1 || recs[0].Status != tc.status || recs[0].Text != out {
				t.Errorf("records = %+v, want one with status %s", recs, tc.status)
			}
		})
	}
}

func TestCallReportsToCallbacks(t *testing.T) {
	mx, _ := newFleet(t, srv{"k8s-1", "kubernetes", ""})
	var mu sync.Mutex
	var got []string
	h := callbacks.NewHandlerBuilder().
		OnStartFn(func(ctx context.Context, info *callbacks.RunInfo, _ callbacks.CallbackInput) context.Context {
			mu.Lock()
			got = append(got, "start "+info.Name+" "+info.Type+" "+string(info.Component))
			mu.Unlock()
			return ctx
		}).
		OnEndFn(func(ctx context.Context, info *callbacks.RunInfo, _ callbacks.CallbackOutput) context.Context {
			mu.Lock()
			got = append(got, "end "+info.Name)
			mu.Unlock()
			return ctx
		}).
		OnErrorFn(func(ctx context.Context, info *callbacks.RunInfo, err error) context.Context {
			mu.Lock()
			got = append(got, "error "+info.Name)
			mu.Unlock()
			return ctx
		}).Build()
	ctx := callbacks.InitCallbacks(t.Context(), &callbacks.RunInfo{Name: "test"}, h)
	mcpeino.Call(ctx, mx, "echo", "k8s-1", "echo", []byte(`{"text":"x"}`))
	mcpeino.Call(ctx, mx, "fail", "k8s-1", "fail", []byte(`{}`))
	want := []string{"start echo MCP Tool", "end echo", "start fail MCP Tool", "error fail"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("callbacks (-want +got):\n%s", diff)
	}
}
