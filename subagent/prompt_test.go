package subagent_test

import (
	"context"
	"testing"
	"time"

	"github.com/cloudwego/eino/schema"

	"github.com/mcpfleet/mcpfleet"
	"github.com/mcpfleet/mcpfleet/adapters/eino/einotest"
	"github.com/mcpfleet/mcpfleet/config"
	"github.com/mcpfleet/mcpfleet/internal/goldenfile"
	"github.com/mcpfleet/mcpfleet/internal/testfleet"
	"github.com/mcpfleet/mcpfleet/subagent"
)

// addResults adds every tool result in msgs, headed by the call it answers.
func addResults(g *goldenfile.Sections, msgs []*schema.Message) {
	calls := map[string]schema.ToolCall{}
	for _, m := range msgs {
		for _, tc := range m.ToolCalls {
			calls[tc.ID] = tc
		}
		if m.Role == schema.Tool {
			tc := calls[m.ToolCallID]
			g.Add("result "+tc.Function.Name+" "+tc.Function.Arguments, m.Content)
		}
	}
}

// goldenMux serves testfleet servers only: the catalog block and search
// results quote tool descriptions, and fixture descriptions must not be
// copied into the repository.
func goldenMux(t *testing.T) *mcpfleet.Mux {
	t.Helper()
	cfg := &config.Fleet{DeferredTools: "on", KindSettings: map[string]config.KindSettings{
		"prometheus": {AvoidWhen: map[string]string{"image": "you need a graph; query the series instead"}},
	}, Servers: []config.Server{
		{Name: "k8s-1", Kind: "kubernetes", Transport: "inprocess"},
		{Name: "k8s-2", Kind: "kubernetes", Transport: "inprocess"},
		{Name: "prom-1", Kind: "prometheus", Transport: "inprocess"},
	}}
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	var opts []mcpfleet.Option
	for _, s := range cfg.Servers {
		opts = append(opts, mcpfleet.WithInProcess(s.Name, s.Kind, testfleet.NewServer(s.Name, testfleet.Options{})))
	}
	mx, err := mcpfleet.New(ctx, cfg, append(opts, mcpfleet.WithHealthInterval(-1))...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { mx.Close() })
	return mx
}

func rawCall(name, args string) schema.ToolCall {
	return schema.ToolCall{Type: "function", Function: schema.FunctionCall{Name: name, Arguments: args}}
}

// TestGoldenText pins every string of prompt.go a model reads: the
// instruction with slice and catalog, the meta-tool definitions, loadTools
// and searchTools results, the gate's and the unknown-tool refusals, and
// the last-step lockdown.
func TestGoldenText(t *testing.T) {
	mx := goldenMux(t)
	var g goldenfile.Sections

	m := einotest.New(
		einotest.Calls(
			einotest.Call("kubernetes__echo", map[string]any{"server": "k8s-2", "text": "hi"}), // not active: the gate refuses
			einotest.Call("no_such_tool", map[string]any{}),
			rawCall(subagent.LoadToolsName, `{"names":`),
			rawCall(subagent.LoadToolsName, `{"names":[]}`),
			rawCall(subagent.SearchToolsName, `{}`),
			einotest.Call(subagent.SearchToolsName, map[string]any{"query": "image", "k": 2}),
			einotest.Call(subagent.SearchToolsName, map[string]any{"query": "zyxwvut"}),
		),
		einotest.Calls(einotest.Call(subagent.LoadToolsName, map[string]any{"names": []string{"k8s-2.echo", "prometheus.image", "no_such_tool"}})),
		einotest.Calls(einotest.Call(subagent.LoadToolsName, map[string]any{"names": []string{"k8s-2.echo"}})),
		einotest.Answer("done"),
	)
	sa, err := subagent.New(t.Context(), mx, subagent.Config{Servers: []string{"k8s-1"}, Model: m, Mode: "on"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := sa.Run(t.Context(), "Does k8s-2 echo?"); err != nil {
		t.Fatal(err)
	}
	calls := m.Calls()
	g.Add("instruction (mode on)", calls[0].Messages[0].Content)
	for _, info := range calls[0].Tools {
		if info.Name == subagent.LoadToolsName || info.Name == subagent.SearchToolsName {
			g.Add("tool "+info.Name, einotest.ToolText(t, info))
		}
	}
	addResults(&g, calls[len(calls)-1].Messages)

	// A server whose tools do not fit the budget is named as not preloaded.
	m = einotest.New(einotest.Answer("done"))
	sa, err = subagent.New(t.Context(), mx, subagent.Config{Servers: []string{"k8s-1", "prom-1"}, Model: m, Mode: "on", ToolBudget: 1})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := sa.Run(t.Context(), "?"); err != nil {
		t.Fatal(err)
	}
	g.Add("instruction (mode on, nothing preloaded)", m.Calls()[0].Messages[0].Content)

	// Mode off: no meta-tools, so unknown names are refused without a pointer to them.
	m = einotest.New(einotest.Calls(einotest.Call("no_such_tool", map[string]any{})), einotest.Answer("done"))
	sa, err = subagent.New(t.Context(), mx, subagent.Config{Servers: []string{"k8s-1"}, Model: m, Mode: "off"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := sa.Run(t.Context(), "?"); err != nil {
		t.Fatal(err)
	}
	calls = m.Calls()
	g.Add("instruction (mode off)", calls[0].Messages[0].Content)
	addResults(&g, calls[len(calls)-1].Messages)

	// The last step: the answer-now message, and the answer a model that
	// keeps calling tools ends with.
	m = einotest.New().WithFallback(func(einotest.Record) *schema.Message {
		return schema.AssistantMessage("", []schema.ToolCall{einotest.Call("kubernetes__echo", map[string]any{"server": "k8s-1", "text": "again"})})
	})
	sa, err = subagent.New(t.Context(), mx, subagent.Config{Servers: []string{"k8s-1"}, Model: m, Mode: "off", MaxSteps: 2})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := sa.Run(t.Context(), "loop")
	if err != nil {
		t.Fatal(err)
	}
	calls = m.Calls()
	last := calls[len(calls)-1].Messages
	g.Add("lockdown message", last[len(last)-1].Content)
	g.Add("answer after lockdown", rep.Answer)

	goldenfile.Check(t, "testdata/text.golden", g.String())
}
