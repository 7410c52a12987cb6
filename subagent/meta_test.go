package subagent_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/cloudwego/eino/schema"
	"github.com/google/go-cmp/cmp"

	"github.com/mcpfleet/mcpfleet/adapters/eino/einotest"
	"github.com/mcpfleet/mcpfleet/subagent"
)

// TestLoadServerNamedLikeKind: loadTools ["wiki.echo"], where "wiki" is a
// server of kind "wiki" with a sibling "wiki-2", loads echo on that server
// only. The model asked for one server; the enum it is shown next and the
// gate must not open the sibling.
func TestLoadServerNamedLikeKind(t *testing.T) {
	mx, hits := newFleet(t, srv{Name: "k8s-1", Kind: "kubernetes"}, srv{Name: "wiki", Kind: "wiki"}, srv{Name: "wiki-2", Kind: "wiki"})
	m := einotest.New(
		einotest.Calls(einotest.Call(subagent.LoadToolsName, map[string]any{"names": []string{"wiki.echo"}})),
		einotest.Calls(einotest.Call("wiki__echo", map[string]any{"server": "wiki-2", "text": "hi"})),
		einotest.Answer("done"),
	)
	sa, err := subagent.New(t.Context(), mx, subagent.Config{Servers: []string{"k8s-1"}, Model: m, Mode: "on"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := sa.Run(t.Context(), "echo on the wiki server"); err != nil {
		t.Fatal(err)
	}
	calls := m.Calls()
	if enum := serverEnum(t, calls[1].Tools, "wiki__echo"); enum != nil {
		t.Errorf("after loading wiki.echo the enum is %v, want none (bound to wiki)", enum)
	}
	if n := hits["wiki-2"].Load(); n != 0 {
		t.Errorf("wiki-2 was hit %d times; it was never loaded", n)
	}
	// The refusal names a form that loads wiki-2: "wiki.echo" would load
	// the server "wiki" again and the model would loop.
	if txt := toolResult(calls[2].Messages, "wiki__echo"); !strings.HasPrefix(txt, "REJECTED") || !strings.Contains(txt, `"wiki-2.echo"`) {
		t.Errorf("call to wiki-2 = %q, want the gate's refusal naming wiki-2.echo", txt)
	} else if strings.Contains(txt, `"wiki.echo" for every`) {
		t.Errorf("refusal offers wiki.echo as the kind-wide name, which loads the server wiki: %q", txt)
	}
	t.Logf("refusal: %s", toolResult(calls[2].Messages, "wiki__echo"))
}

// TestSearchNamesShadowedKind: searchTools names a tool of kind "wiki" in a
// form that loads it on every wiki server, though "wiki.echo" would mean
// the server "wiki" only; loading what it names opens both.
func TestSearchNamesShadowedKind(t *testing.T) {
	mx, _ := newFleet(t, srv{Name: "k8s-1", Kind: "kubernetes"}, srv{Name: "wiki", Kind: "wiki"}, srv{Name: "wiki-2", Kind: "wiki"})
	var named []string
	m := einotest.New(
		einotest.Calls(einotest.Call(subagent.SearchToolsName, map[string]any{"query": "echo the text back", "k": 3})),
		einotest.Step{Func: func(r einotest.Record) *schema.Message {
			res := toolResult(r.Messages, subagent.SearchToolsName)
			for _, line := range strings.Split(res, "\n") {
				if strings.Contains(line, "[wiki;") {
					names, _, _ := strings.Cut(strings.TrimPrefix(line, "- "), " [")
					named = strings.Split(names, ", ")
				}
			}
			return schema.AssistantMessage("", []schema.ToolCall{einotest.Call(subagent.LoadToolsName, map[string]any{"names": named})})
		}},
		einotest.Answer("done"),
	)
	sa, err := subagent.New(t.Context(), mx, subagent.Config{Servers: []string{"k8s-1"}, Model: m, Mode: "on"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := sa.Run(t.Context(), "echo on every wiki"); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"wiki.echo", "wiki-2.echo"}, named); diff != "" {
		t.Errorf("searchTools names for wiki's echo (-want +got):\n%s", diff)
	}
	if enum := serverEnum(t, m.Calls()[2].Tools, "wiki__echo"); !slices.Equal(enum, []string{"wiki", "wiki-2"}) {
		t.Errorf("after loading %v the enum is %v, want [wiki wiki-2]", named, enum)
	}
}
