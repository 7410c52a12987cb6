package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/cloudwego/eino/schema"

	"github.com/mcpfleet/mcpfleet"
	"github.com/mcpfleet/mcpfleet/catalog"
	"github.com/mcpfleet/mcpfleet/subagent"
	"github.com/mcpfleet/mcpfleet/tokenreport"
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
	// GatewayTokens: the tool definitions `mcpfleet serve` gives a client.
	GatewayTokens int `json:"gateway_tokens"`
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

// measureFleet fills the fleet-wide rows of the table, exactly as
// `mcpfleet tokens` computes them.
func measureFleet(ctx context.Context, mx *mcpfleet.Mux, cat *catalog.Catalog) (TokenTable, error) {
	r, err := tokenreport.Measure(ctx, mx, tokenreport.Options{Catalog: cat})
	if err != nil {
		return TokenTable{}, err
	}
	return TokenTable{Servers: r.Servers, Pairs: r.Pairs, UniqueTools: r.UniqueTools, FullTokens: r.FullTokens,
		KindsTokens: r.KindsTokens, OrchestratorTokens: r.OrchestratorTokens, CatalogTokens: r.CatalogTokens,
		GatewayTokens: r.GatewayTokens}, nil
}

// chatTool is a tool as a chat API sends it to a model.
type chatTool struct {
	Type     string       `json:"type"`
	Function chatFunction `json:"function"`
}

type chatFunction struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	Parameters  json.RawMessage `json:"parameters,omitempty"`
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
	row("gateway: mcpfleet serve's own tools, all a client carries", t.GatewayTokens)
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
	n := tokenreport.Count(instruction)
	if len(cts) > 0 {
		b, _ := json.Marshal(cts)
		n += tokenreport.Count(string(b))
	}
	return n
}
