package subagent

import (
	"context"

	"github.com/cloudwego/eino/compose"

	"github.com/mcpfleet/mcpfleet"
	mcpeino "github.com/mcpfleet/mcpfleet/adapters/eino"
)

// Input is the input of Lambda: a task and, optionally, the servers to use
// instead of the template's.
type Input struct {
	Task    string   `json:"task"`
	Servers []string `json:"servers,omitempty"`
}

// Lambda is a compose node that builds a subagent from the template cfg
// (Servers replaced by the input's when given) and runs one task. A failed
// run returns its partial report with the error.
//
// Every subagent the node builds shares cfg.Cache, or one cache made here.
func Lambda(mx *mcpfleet.Mux, cfg Config) *compose.Lambda {
	if cfg.Cache == nil {
		cfg.Cache = mcpeino.NewCache()
	}
	return compose.InvokableLambda(func(ctx context.Context, in Input) (*Report, error) {
		c := cfg
		if in.Servers != nil {
			c.Servers = in.Servers
		}
		sa, err := New(ctx, mx, c)
		if err != nil {
			return nil, err
		}
		return sa.Run(ctx, in.Task)
	})
}
