package eino_test

import (
	"context"
	"encoding/json"
	"errors"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/cloudwego/eino/callbacks"
	"github.com/cloudwego/eino/components/tool"
	"github.com/google/go-cmp/cmp"

	"github.com/mcpfleet/mcpfleet"
	mcpeino "github.com/mcpfleet/mcpfleet/adapters/eino"
)

// TestGrepResultBadPattern: a refused pattern is named once, with the
// regexp's complaint and the root's advice; when only part of the pattern
// is at fault, that part is shown.
func TestGrepResultBadPattern(t *testing.T) {
	mx := goldenMux(t)
	tools, _, err := mcpeino.NewTools(mx, mcpeino.ToolsConfig{Servers: []string{"k8s-1"}})
	if err != nil {
		t.Fatal(err)
	}
	var big *mcpeino.Tool
	for _, tl := range tools {
		if tl.Spec().Tool == "big" {
			big = tl
		}
	}
	preview, _ := big.InvokableRun(t.Context(), `{"server":"k8s-1","bytes":200000}`)
	handle := regexp.MustCompile(`r-[0-9a-zA-Z]+`).FindString(preview)
	if handle == "" {
		t.Fatalf("no handle in the preview:\n%.300s", preview)
	}
	var grep tool.InvokableTool
	for _, r := range mcpeino.ResultTools(mx) {
		if info, _ := r.Info(t.Context()); info.Name == mcpeino.GrepResultName {
			grep = r.(tool.InvokableTool)
		}
	}
	const advice = " Patterns use Go RE2 syntax: no lookarounds or backreferences; escape ( ) [ ] . * + ? with a backslash to match them literally."
	long := strings.Repeat("x", 600)
	tests := []struct {
		name, pattern, want string
	}{
		{"whole pattern at fault", `line 4242:|(`, `REJECTED grepResult: bad pattern "line 4242:|(": missing closing ).` + advice},
		{"part at fault", `line (?<=x)4`, "REJECTED grepResult: bad pattern \"line (?<=x)4\": invalid named capture: `(?<=x)4`." + advice},
		{"too long", long, `REJECTED grepResult: bad pattern "` + long[:40] + `…": longer than 512 bytes, got 600.` + advice},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			args, _ := json.Marshal(map[string]string{"handle": handle, "pattern": tc.pattern})
			got, err := grep.InvokableRun(t.Context(), string(args))
			if err != nil {
				t.Fatalf("Go error %v", err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestCallbacksGetTheMuxError: OnError handlers receive the Mux's own
// error, so they can errors.As it, rather than the model-facing text.
func TestCallbacksGetTheMuxError(t *testing.T) {
	mx, _ := newFleet(t, srv{"k8s-1", "kubernetes", ""})
	var mu sync.Mutex
	var errs []error
	h := callbacks.NewHandlerBuilder().OnErrorFn(func(ctx context.Context, _ *callbacks.RunInfo, err error) context.Context {
		mu.Lock()
		errs = append(errs, err)
		mu.Unlock()
		return ctx
	}).Build()
	ctx := callbacks.InitCallbacks(t.Context(), &callbacks.RunInfo{Name: "test"}, h)
	rec := mcpeino.Call(ctx, mx, "echo", "k8s-1", "echo", []byte(`{"txt":"x"}`))
	mcpeino.Call(ctx, mx, "fail", "k8s-1", "fail", []byte(`{}`))
	if rec.Status != mcpeino.StatusRejected {
		t.Fatalf("echo without text: status %s, want rejected", rec.Status)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(errs) != 2 {
		t.Fatalf("%d errors reported, want 2: %v", len(errs), errs)
	}
	var rej *mcpfleet.RejectError
	if !errors.As(errs[0], &rej) || rej.Reason != mcpfleet.ReasonInvalidArguments {
		t.Errorf("rejection reported as %T %v, want a *RejectError (invalid_arguments)", errs[0], errs[0])
	}
	if got := errs[1].Error(); !strings.HasPrefix(got, "k8s-1.fail: tool_error: ") || strings.Contains(got, "ERROR from") {
		t.Errorf("tool error reported as %q", got)
	}
}
