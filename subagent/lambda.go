package subagent

import (
	"context"

	"github.com/cloudwego/eino/compose"

	"github.com/mcpfleet/mcpfleet"
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
func Lambda(mx *mcpfleet.Mux, cfg Config) *compose.Lambda {
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
