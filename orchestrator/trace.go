package orchestrator

import (
	"context"
	"slices"
	"sync"
	"time"

	"github.com/cloudwego/eino/adk"
	"github.com/cloudwego/eino/components"
	"github.com/cloudwego/eino/components/model"
	"github.com/cloudwego/eino/schema"

	mcpeino "github.com/mcpfleet/mcpfleet/adapters/eino"
	"github.com/mcpfleet/mcpfleet/subagent"
)

// Trace is everything one Run did; it is JSON-serializable.
type Trace struct {
	Question string `json:"question"`
	Answer   string `json:"answer"`
	// Overview is what the orchestrator was shown of the fleet.
	Overview string `json:"overview"`
	// Steps counts orchestrator model calls; Usage has those that reported tokens.
	Steps int                  `json:"steps"`
	Usage []subagent.StepUsage `json:"usage,omitempty"`
	// Tokens is the orchestrator's own model usage.
	Tokens subagent.Tokens `json:"tokens"`
	// Subagents lists every subagent spawned, in spawn order.
	Subagents []SubagentTrace `json:"subagents"`
	// TotalTokens adds the subagents' usage to the orchestrator's.
	TotalTokens subagent.Tokens `json:"total_tokens"`
	Duration    time.Duration   `json:"duration_ns"`
}

// SubagentTrace is one subagent's part of a Trace.
type SubagentTrace struct {
	Spawn int `json:"spawn"` // which spawnSubagents call (1-based)
	// Name is the task's name, or "subagent-N" (N counts subagents of the run).
	Name     string           `json:"name"`
	Task     string           `json:"task"`
	Servers  []string         `json:"servers"`
	Report   *subagent.Report `json:"report,omitempty"`
	Error    string           `json:"error,omitempty"`
	TimedOut bool             `json:"timed_out,omitempty"`
}

type run struct {
	o      *Orchestrator
	mu     sync.Mutex
	trace  *Trace
	spawns int
}

func (r *run) setAnswer(s string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.trace.Answer = s
}

func (r *run) finish(d time.Duration) *Trace {
	r.mu.Lock()
	defer r.mu.Unlock()
	t := r.trace
	t.Duration = d
	t.TotalTokens = t.Tokens
	for _, s := range t.Subagents {
		if s.Report != nil {
			t.TotalTokens.Prompt += s.Report.Tokens.Prompt
			t.TotalTokens.Completion += s.Report.Tokens.Completion
			t.TotalTokens.Total += s.Report.Tokens.Total
		}
	}
	c := *t
	c.Subagents = slices.Clone(t.Subagents)
	return &c
}

// usageMiddleware counts the orchestrator's steps and token usage.
type usageMiddleware struct {
	*adk.BaseChatModelAgentMiddleware
	r *run
}

func (u *usageMiddleware) WrapModel(_ context.Context, inner model.BaseChatModel, _ *adk.ModelContext) (model.BaseChatModel, error) {
	return mcpeino.TraceModel(u.r.o.mx.TracerProvider(), "orchestrator", &usageModel{inner: inner, r: u.r}), nil
}

type usageModel struct {
	inner model.BaseChatModel
	r     *run
}

func (m *usageModel) Generate(ctx context.Context, in []*schema.Message, opts ...model.Option) (*schema.Message, error) {
	m.r.mu.Lock()
	m.r.trace.Steps++
	step := m.r.trace.Steps
	m.r.mu.Unlock()
	msg, err := m.inner.Generate(ctx, in, opts...)
	if err == nil && msg != nil && msg.ResponseMeta != nil && msg.ResponseMeta.Usage != nil {
		u := msg.ResponseMeta.Usage
		m.r.mu.Lock()
		m.r.trace.Usage = append(m.r.trace.Usage, subagent.StepUsage{Step: step, Tokens: subagent.Tokens{Prompt: u.PromptTokens, Completion: u.CompletionTokens, Total: u.TotalTokens}})
		m.r.trace.Tokens.Prompt += u.PromptTokens
		m.r.trace.Tokens.Completion += u.CompletionTokens
		m.r.trace.Tokens.Total += u.TotalTokens
		m.r.mu.Unlock()
	}
	return msg, err
}

func (m *usageModel) Stream(ctx context.Context, in []*schema.Message, opts ...model.Option) (*schema.StreamReader[*schema.Message], error) {
	m.r.mu.Lock()
	m.r.trace.Steps++
	m.r.mu.Unlock()
	return m.inner.Stream(ctx, in, opts...)
}

// IsCallbacksEnabled forwards the inner model's answer (see DEPENDENCIES.md).
func (m *usageModel) IsCallbacksEnabled() bool { return components.IsCallbacksEnabled(m.inner) }
