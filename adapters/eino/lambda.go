package eino

import (
	"context"
	"encoding/json"

	"github.com/cloudwego/eino/compose"

	"github.com/mcpfleet/mcpfleet"
	"github.com/mcpfleet/mcpfleet/catalog"
)

// OverviewLambda is a compose node that ignores its input and emits the
// fleet's "kind: servers" overview, e.g. to seed a planner's prompt.
func OverviewLambda(mx *mcpfleet.Mux) *compose.Lambda {
	return compose.InvokableLambda(func(ctx context.Context, _ string) (string, error) {
		return mx.Overview(), nil
	})
}

// CallInput is the input of CallToolLambda.
type CallInput struct {
	Server string          `json:"server"`
	Tool   string          `json:"tool"`
	Args   json.RawMessage `json:"args,omitempty"`
}

// CallToolLambda is a compose node that makes one MCP call. Like the tools, it
// reports failures in the CallRecord (Status, Text) rather than as a Go error,
// so a pipeline can branch on them, and it reports to eino callbacks.
func CallToolLambda(mx *mcpfleet.Mux) *compose.Lambda {
	return compose.InvokableLambda(func(ctx context.Context, in CallInput) (CallRecord, error) {
		return Call(ctx, mx, in.Tool, in.Server, in.Tool, in.Args), nil
	})
}

// SearchInput is the input of SearchToolsLambda.
type SearchInput struct {
	Query string `json:"query"`
	K     int    `json:"k,omitempty"` // default 5
}

// SearchToolsLambda is a compose node that searches the catalog.
func SearchToolsLambda(c *catalog.Catalog) *compose.Lambda {
	return compose.InvokableLambda(func(ctx context.Context, in SearchInput) ([]catalog.Hit, error) {
		k := in.K
		if k <= 0 {
			k = 5
		}
		return c.Search(ctx, in.Query, k), nil
	})
}
