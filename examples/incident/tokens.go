package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/cloudwego/eino/schema"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/tiktoken-go/tokenizer"

	"github.com/mcpfleet/mcpfleet"
	mcpeino "github.com/mcpfleet/mcpfleet/adapters/eino"
	"github.com/mcpfleet/mcpfleet/catalog"
	"github.com/mcpfleet/mcpfleet/kindgroups"
	"github.com/mcpfleet/mcpfleet/subagent"
)

// TokenTable is the closing table: what each view of the fleet costs a
// model, in o200k tokens. Its fleet-wide fields have the names and the
// definitions of `mcpfleet tokens --json`, so the two can be compared.
type TokenTable struct {
	Servers     int `json:"servers"`
	Pairs       int `json:"pairs"`
	UniqueTools int `json:"unique_tools"`
	// FullTokens: every server's tools with exact schemas, one chat-API tools
	// array per server, summed.
	FullTokens int `json:"full_tokens"`
	// KindsTokens: one "kind (servers): tool, …" line per kind, no schemas.
	KindsTokens int `json:"kinds_tokens"`
	// OrchestratorTokens: the overview the orchestrator is given.
	OrchestratorTokens int `json:"orchestrator_tokens"`
	// CatalogTokens: the deferred catalog of the whole fleet (mode on, all scopes).
	CatalogTokens int `json:"catalog_tokens"`
	// OrchestratorCall: the orchestrator's first model call, instruction
	// (framing + overview) plus the spawnSubagents definition. Not in
	// `mcpfleet tokens`.
	OrchestratorCall int `json:"orchestrator_call_tokens"`
	// Subagents: what each subagent's first model call carried.
	Subagents []SubagentRow `json:"subagents,omitempty"`
}

// SubagentRow is one subagent's slice, as subagent.SliceTokens measures it.
type SubagentRow struct {
	Name string `json:"name"`
	subagent.SliceCost
}

// o200k is the tokenizer, built once: parsing the embedded vocabulary is slow.
//
// TODO(#5): this duplicates internal/tokens, which examples may not import.
// Replace it with the public token package once there is one; main_test
// checks the figures against `mcpfleet tokens --json` meanwhile.
var o200k = sync.OnceValues(func() (tokenizer.Codec, error) { return tokenizer.Get(tokenizer.O200kBase) })

func countTokens(s string) int {
	c, err := o200k()
	if err != nil {
		panic("o200k vocabulary unavailable: " + err.Error()) // embedded: a build defect
	}
	n, err := c.Count(s)
	if err != nil {
		panic(err)
	}
	return n
}

// chatTool is an MCP tool as a chat API sends it to a model.
type chatTool struct {
	Type     string       `json:"type"`
	Function chatFunction `json:"function"`
}

type chatFunction struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	Parameters  json.RawMessage `json:"parameters,omitempty"`
}

// toolsTokens counts tools as one chat-API tools array with exact schemas.
func toolsTokens(tools []mcp.Tool) int {
	if len(tools) == 0 {
		return 0
	}
	cts := make([]chatTool, len(tools))
	for i, t := range tools {
		schema := t.RawInputSchema
		if len(schema) == 0 {
			schema, _ = json.Marshal(t.InputSchema)
		}
		cts[i] = chatTool{Type: "function", Function: chatFunction{Name: t.Name, Description: t.Description, Parameters: schema}}
	}
	b, err := json.Marshal(cts)
	if err != nil {
		return 0
	}
	return countTokens(string(b))
}

// kindLines is the per-kind view without schemas.
func kindLines(groups []kindgroups.Group) string {
	var b strings.Builder
	for _, g := range groups {
		fmt.Fprintf(&b, "%s (%s): %s\n", g.Kind, strings.Join(g.Servers, ", "), strings.Join(g.Tools, ", "))
	}
	return b.String()
}

// measureFleet fills the fleet-wide rows of the table.
func measureFleet(mx *mcpfleet.Mux, cat *catalog.Catalog) TokenTable {
	groups := mx.KindGroups()
	t := TokenTable{KindsTokens: countTokens(kindLines(groups)), OrchestratorTokens: countTokens(mx.Overview())}
	for _, s := range mx.Servers() {
		t.Servers++
		t.Pairs += len(s.Tools)
		t.FullTokens += toolsTokens(s.Tools)
	}
	for _, g := range groups {
		t.UniqueTools += len(g.Tools)
	}
	if sess, err := cat.NewSession(catalog.SessionConfig{Scopes: []string{catalog.ScopeAll}, Mode: catalog.ModeOn}); err == nil {
		t.CatalogTokens = countTokens(sess.CatalogBlock())
	}
	return t
}

// newCatalog builds the catalog every subagent shares.
func newCatalog(mx *mcpfleet.Mux) *catalog.Catalog {
	return catalog.Build(mx.Servers(), mcpeino.CatalogConfig(mx.Config()))
}

// writeTokenTable prints the table; ratios are full ÷ view.
func writeTokenTable(w io.Writer, t TokenTable, st style) {
	fmt.Fprintf(w, "%s\n", st.bold(fmt.Sprintf("Tokens (o200k): %d servers, %d (server, tool) pairs, %d unique tools", t.Servers, t.Pairs, t.UniqueTools)))
	row := func(name string, n int) {
		r := "-"
		if n > 0 {
			r = fmt.Sprintf("%.1fx", float64(t.FullTokens)/float64(n))
		}
		fmt.Fprintf(w, "  %-66s %8d %8s\n", name, n, r)
	}
	fmt.Fprintf(w, "  %-66s %8s %8s\n", "view", "tokens", "full ÷")
	row("full catalog: every server's tools with schemas", t.FullTokens)
	row("kinds view: tool names per kind, no schemas", t.KindsTokens)
	row("orchestrator view: the overview", t.OrchestratorTokens)
	row("orchestrator's first call: instruction + spawnSubagents", t.OrchestratorCall)
	row("deferred catalog block, whole fleet", t.CatalogTokens)
	for _, s := range t.Subagents {
		row(fmt.Sprintf("%s [%s]: %d tools + catalog", s.Name, strings.Join(s.Servers, ","), s.ActiveTools), s.Total)
	}
}

// promptTokens counts an instruction plus tool definitions as a chat API
// sends them.
func promptTokens(instruction string, infos []*schema.ToolInfo) int {
	cts := make([]chatTool, 0, len(infos))
	for _, in := range infos {
		var params json.RawMessage
		if in.ParamsOneOf != nil {
			if js, err := in.ParamsOneOf.ToJSONSchema(); err == nil && js != nil {
				params, _ = json.Marshal(js)
			}
		}
		cts = append(cts, chatTool{Type: "function", Function: chatFunction{Name: in.Name, Description: in.Desc, Parameters: params}})
	}
	n := countTokens(instruction)
	if len(cts) > 0 {
		b, _ := json.Marshal(cts)
		n += countTokens(string(b))
	}
	return n
}
