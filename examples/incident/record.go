package main

import (
	"context"
	"slices"
	"sync"

	"github.com/cloudwego/eino/components"
	"github.com/cloudwego/eino/components/model"
	"github.com/cloudwego/eino/schema"
)

// recorder wraps a model and keeps what every call was shown: the tool
// names and the messages. The transcript and the --json trace are built
// from it, so they show what the model saw, whichever model it is.
type recorder struct {
	inner      model.ToolCallingChatModel
	bound      []string
	boundInfos []*schema.ToolInfo
	log        *modelLog
}

// modelLog is shared by a recorder and the copies WithTools makes.
type modelLog struct {
	mu    sync.Mutex
	calls []modelCall
	first []*schema.ToolInfo // the tools of the first call
}

// modelCall is one model call.
type modelCall struct {
	Tools    []string          `json:"tools"`
	Messages []*schema.Message `json:"messages,omitempty"`
	Reply    *schema.Message   `json:"reply,omitempty"`
}

func newRecorder(inner model.ToolCallingChatModel) *recorder {
	return &recorder{inner: inner, log: &modelLog{}}
}

func (r *recorder) Calls() []modelCall {
	r.log.mu.Lock()
	defer r.log.mu.Unlock()
	return slices.Clone(r.log.calls)
}

func (r *recorder) WithTools(tools []*schema.ToolInfo) (model.ToolCallingChatModel, error) {
	m, err := r.inner.WithTools(tools)
	if err != nil {
		return nil, err
	}
	return &recorder{inner: m, bound: toolNames(tools), boundInfos: slices.Clone(tools), log: r.log}, nil
}

func toolNames(ts []*schema.ToolInfo) []string {
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = t.Name
	}
	return out
}

func (r *recorder) note(input []*schema.Message, opts []model.Option) int {
	co := model.GetCommonOptions(nil, opts...)
	names := r.bound
	if co.Tools != nil {
		names = toolNames(co.Tools)
	}
	infos := co.Tools
	if infos == nil {
		infos = r.boundInfos
	}
	r.log.mu.Lock()
	defer r.log.mu.Unlock()
	if len(r.log.calls) == 0 {
		r.log.first = infos
	}
	r.log.calls = append(r.log.calls, modelCall{Tools: slices.Clone(names), Messages: slices.Clone(input)})
	return len(r.log.calls) - 1
}

func (r *recorder) Generate(ctx context.Context, input []*schema.Message, opts ...model.Option) (*schema.Message, error) {
	i := r.note(input, opts)
	msg, err := r.inner.Generate(ctx, input, opts...)
	if err == nil {
		r.log.mu.Lock()
		r.log.calls[i].Reply = msg
		r.log.mu.Unlock()
	}
	return msg, err
}

func (r *recorder) Stream(ctx context.Context, input []*schema.Message, opts ...model.Option) (*schema.StreamReader[*schema.Message], error) {
	r.note(input, opts)
	return r.inner.Stream(ctx, input, opts...)
}

// IsCallbacksEnabled forwards the inner model's answer, so eino neither
// skips nor doubles the model callbacks.
func (r *recorder) IsCallbacksEnabled() bool { return components.IsCallbacksEnabled(r.inner) }

// firstCall returns the instruction and tools of the first model call.
func (r *recorder) firstCall() (string, []*schema.ToolInfo) {
	r.log.mu.Lock()
	defer r.log.mu.Unlock()
	if len(r.log.calls) == 0 {
		return "", nil
	}
	var sys string
	for _, m := range r.log.calls[0].Messages {
		if m.Role == schema.System {
			sys += m.Content
		}
	}
	return sys, r.log.first
}
