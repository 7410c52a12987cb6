package subagent

import (
	"context"
	"slices"

	"github.com/cloudwego/eino/compose"
	"github.com/cloudwego/eino/schema"

	"github.com/mcpfleet/mcpfleet"
	mcpeino "github.com/mcpfleet/mcpfleet/adapters/eino"
)

// Input is the input of Lambda: a task and, optionally, the servers to use
// instead of the template's and the conversation so far.
type Input struct {
	Task    string   `json:"task"`
	Servers []string `json:"servers,omitempty"`
	// Messages, if set, is the conversation so far (see
	// Subagent.RunMessages); Task, if set, is appended to it as the next
	// user message.
	Messages []*schema.Message `json:"messages,omitempty"`
}

// Lambda is a compose node that builds a subagent from the template cfg
// (Servers replaced by the input's when given) and runs one task, or
// continues the input's conversation. A failed
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
		if len(in.Messages) == 0 {
			return sa.Run(ctx, in.Task)
		}
		msgs := in.Messages
		if in.Task != "" {
			msgs = append(slices.Clip(msgs), schema.UserMessage(in.Task))
		}
		return sa.RunMessages(ctx, msgs)
	})
}
