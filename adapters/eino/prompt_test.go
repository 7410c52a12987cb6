package eino_test

import (
	"context"
	"encoding/json"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/cloudwego/eino/components/tool"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpfleet/mcpfleet"
	mcpeino "github.com/mcpfleet/mcpfleet/adapters/eino"
	"github.com/mcpfleet/mcpfleet/adapters/eino/einotest"
	"github.com/mcpfleet/mcpfleet/config"
	"github.com/mcpfleet/mcpfleet/internal/goldenfile"
	"github.com/mcpfleet/mcpfleet/internal/testfleet"
)

// driftedPodsLog is pods_log with an extra parameter, so one kubernetes
// server's schema drifts from its sibling's and the tool is offered per server.
func driftedPodsLog() mcp.Tool {
	return mcp.Tool{Name: "pods_log", Description: "Returns the logs of a pod.",
		RawInputSchema: json.RawMessage(`{"type":"object","properties":{"name":{"type":"string"},"namespace":{"type":"string"},"container":{"type":"string"}},"required":["name"]}`)}
}

// goldenMux is a small fleet of testfleet servers: two kubernetes clusters
// whose pods_log drifts, and one prometheus server sharing the builtin
// tool names (so they fold as kind__tool). The goldens use testfleet's own
// tools rather than fixtures: fixture descriptions must not be copied into
// the repository, and the adapter's texts name tools, not describe them.
func goldenMux(t *testing.T) *mcpfleet.Mux {
	t.Helper()
	cfg := &config.Fleet{Servers: []config.Server{
		{Name: "k8s-1", Kind: "kubernetes", Transport: "inprocess", CallTimeout: 300 * time.Millisecond},
		{Name: "k8s-2", Kind: "kubernetes", Transport: "inprocess"},
		{Name: "prom-1", Kind: "prometheus", Transport: "inprocess"},
	}}
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	mx, err := mcpfleet.New(ctx, cfg,
		mcpfleet.WithInProcess("k8s-1", "kubernetes", testfleet.NewServer("k8s-1", testfleet.Options{})),
		mcpfleet.WithInProcess("k8s-2", "kubernetes", testfleet.NewServer("k8s-2", testfleet.Options{Tools: []mcp.Tool{driftedPodsLog()}})),
		mcpfleet.WithInProcess("prom-1", "prometheus", testfleet.NewServer("prom-1", testfleet.Options{})),
		mcpfleet.WithHealthInterval(-1))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { mx.Close() })
	return mx
}

// TestGoldenText pins every string of prompt.go a model reads: the server
// parameter, drifted descriptions, refusals, error renderings and the
// result tools, each produced through the public API.
func TestGoldenText(t *testing.T) {
	mx := goldenMux(t)
	tools, plan, err := mcpeino.NewTools(mx, mcpeino.ToolsConfig{})
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]*mcpeino.Tool{}
	for _, tl := range tools {
		byName[tl.Spec().Name] = tl
	}
	var g goldenfile.Sections
	for _, name := range []string{"kubernetes__echo", "k8s-2__pods_log"} {
		tl, ok := byName[name]
		if !ok {
			t.Fatalf("no tool %s in %v", name, plan.Specs)
		}
		info, _ := tl.Info(t.Context())
		g.Add("tool "+info.Name, einotest.ToolText(t, info))
	}
	calls := []struct{ name, tool, args string }{
		{"ok", "kubernetes__echo", `{"server":"k8s-1","text":"payments-api ready","count":2}`},
		{"image", "kubernetes__image", `{"server":"k8s-1"}`},
		{"tool error", "kubernetes__fail", `{"server":"k8s-1"}`},
		{"timeout", "kubernetes__slow", `{"server":"k8s-1","ms":5000}`},
		{"schema rejected", "kubernetes__echo", `{"server":"k8s-2","txt":"hi"}`},
		{"missing server", "kubernetes__echo", `{"text":"hi"}`},
		{"wrong server", "kubernetes__echo", `{"server":"prom-1","text":"hi"}`},
		{"not json", "kubernetes__echo", `{"server":`},
	}
	for _, c := range calls {
		out, err := byName[c.tool].InvokableRun(t.Context(), c.args)
		if err != nil {
			t.Fatalf("%s: Go error %v", c.name, err)
		}
		g.Add("call "+c.name+": "+c.tool+" "+c.args, out)
	}
	// A result too large for the context: the preview names a handle
	// (random, masked here) that the result tools take.
	big, _ := byName["kubernetes__big"].InvokableRun(t.Context(), `{"server":"k8s-1","bytes":200000}`)
	handle := regexp.MustCompile(`r-[0-9a-zA-Z]+`).FindString(big)
	if handle == "" {
		t.Fatalf("no handle in the offloaded preview:\n%.300s", big)
	}
	mask := func(s string) string { return strings.ReplaceAll(s, handle, "r-HANDLE") }
	// The preview's head is how the model learns to use the result tools;
	// the data lines after it are the root's business.
	head := strings.SplitAfterN(mask(big), "\n", 5)
	g.Add("call offloaded: kubernetes__big (first 4 lines)", strings.Join(head[:4], ""))
	results := mcpeino.ResultTools(mx)
	if len(results) != 2 {
		t.Fatalf("ResultTools = %d tools, want readResult and grepResult", len(results))
	}
	for _, r := range results {
		info, _ := r.Info(t.Context())
		g.Add("tool "+info.Name, einotest.ToolText(t, info))
		for _, args := range []string{`{}`, `{"handle":"r-0000","pattern":"x","offset":0}`,
			`{"handle":"r-HANDLE","pattern":"line 4242:|(","offset":4241,"limit":2,"context":0}`,
			`{"handle":"r-HANDLE","pattern":"line 424[12]:","offset":4241,"limit":2,"context":0}`} {
			out, _ := r.(tool.InvokableTool).InvokableRun(t.Context(), strings.ReplaceAll(args, "r-HANDLE", handle))
			g.Add("call "+info.Name+" "+args, mask(out))
		}
	}
	goldenfile.Check(t, "testdata/text.golden", g.String())
}
