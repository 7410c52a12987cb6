package subagent

import (
	"context"
	"encoding/json"

	"github.com/cloudwego/eino/schema"

	"github.com/mcpfleet/mcpfleet"
	"github.com/mcpfleet/mcpfleet/internal/tokens"
)

// SliceCost is what a subagent's first model call carries, in o200k tokens.
type SliceCost struct {
	Servers      []string `json:"servers"`
	Mode         string   `json:"mode"`
	ActiveTools  int      `json:"active_tools"`  // folded tools, meta-tools excluded
	Tools        int      `json:"tools"`         // folded tool definitions
	MetaTools    int      `json:"meta_tools"`    // loadTools + searchTools definitions
	CatalogBlock int      `json:"catalog_block"` // the deferred catalog in the instruction
	Instruction  int      `json:"instruction"`   // the whole instruction, catalog block included
	Total        int      `json:"total"`         // Tools + MetaTools + Instruction
}

// SliceTokens computes the token cost of a subagent's slice without a model:
// the tool definitions as an OpenAI-style tools array, and the instruction.
// cfg.Model is ignored.
func SliceTokens(ctx context.Context, mx *mcpfleet.Mux, cfg Config) (SliceCost, error) {
	sa, err := prepare(ctx, mx, cfg)
	if err != nil {
		return SliceCost{}, err
	}
	if sa.sess.MetaTools() {
		sa.meta = metaTools(sa)
	}
	infos, err := sa.activeInfos()
	if err != nil {
		return SliceCost{}, err
	}
	n := len(infos) - len(sa.meta)
	c := SliceCost{Servers: sa.Servers(), Mode: sa.sess.Mode(), ActiveTools: n,
		Tools: toolTokens(infos[:n]), MetaTools: toolTokens(infos[n:]),
		CatalogBlock: tokens.Count(sa.sess.CatalogBlock()), Instruction: tokens.Count(sa.instr)}
	c.Total = c.Tools + c.MetaTools + c.Instruction
	return c, nil
}

// toolTokens counts infos as the tools array of a chat completion request.
func toolTokens(infos []*schema.ToolInfo) int {
	cts := make([]tokens.ChatTool, 0, len(infos))
	for _, in := range infos {
		var params json.RawMessage
		if in.ParamsOneOf != nil {
			if js, err := in.ParamsOneOf.ToJSONSchema(); err == nil && js != nil {
				params, _ = json.Marshal(js)
			}
		}
		cts = append(cts, tokens.ChatTool{Type: "function", Function: tokens.ChatFunction{Name: in.Name, Description: in.Desc, Parameters: params}})
	}
	return tokens.Tools(cts)
}
