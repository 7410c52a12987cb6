package einotest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/cloudwego/eino/components/model"
	"github.com/cloudwego/eino/schema"
)

// Step is one scripted model turn: tool calls to emit, or a final answer, or
// a function that decides from what the model was sent.
type Step struct {
	ToolCalls []schema.ToolCall
	Answer    string
	// Func, if set, produces the reply; ToolCalls and Answer are ignored.
	Func func(r Record) *schema.Message
	// Usage, if set, is reported in ResponseMeta.Usage.
	Usage *schema.TokenUsage
	// Err, if set, is returned instead of a reply.
	Err error
	// Delay, if set, holds the reply back; a cancelled ctx ends the wait with ctx.Err().
	Delay time.Duration
}

// Record is what one model call received.
type Record struct {
	Messages   []*schema.Message
	Tools      []*schema.ToolInfo // model.GetCommonOptions(nil, opts...).Tools
	Bound      []*schema.ToolInfo // tools bound with WithTools
	ToolChoice *schema.ToolChoice
}

// ToolNames returns the names of the per-call tools, or the bound ones when
// none were passed per call: what the model could see on this call.
func (r Record) ToolNames() []string {
	ts := r.Tools
	if ts == nil {
		ts = r.Bound
	}
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = t.Name
	}
	return out
}

// ErrExhausted is returned when the script has no step left and no Fallback.
var ErrExhausted = errors.New("einotest: script exhausted")

// Model is a scripted model.ToolCallingChatModel. It is safe for concurrent use;
// steps are consumed in call order.
type Model struct {
	st    *state
	bound []*schema.ToolInfo
}

type state struct {
	mu       sync.Mutex
	steps    []Step
	next     int
	calls    []Record
	fallback func(Record) *schema.Message
	ids      int
}

var _ model.ToolCallingChatModel = (*Model)(nil)

// New returns a model that plays steps in order.
func New(steps ...Step) *Model { return &Model{st: &state{steps: steps}} }

// WithFallback sets the reply used once the steps run out.
func (m *Model) WithFallback(f func(Record) *schema.Message) *Model {
	m.st.mu.Lock()
	defer m.st.mu.Unlock()
	m.st.fallback = f
	return m
}

// Calls returns a copy of every call's record so far.
func (m *Model) Calls() []Record {
	m.st.mu.Lock()
	defer m.st.mu.Unlock()
	return slices.Clone(m.st.calls)
}

// WithTools returns a model with tools bound; it shares the script and records.
func (m *Model) WithTools(tools []*schema.ToolInfo) (model.ToolCallingChatModel, error) {
	return &Model{st: m.st, bound: slices.Clone(tools)}, nil
}

// Generate plays the next step.
func (m *Model) Generate(ctx context.Context, input []*schema.Message, opts ...model.Option) (*schema.Message, error) {
	co := model.GetCommonOptions(nil, opts...)
	r := Record{Messages: slices.Clone(input), Tools: slices.Clone(co.Tools), Bound: m.bound, ToolChoice: co.ToolChoice}
	m.st.mu.Lock()
	m.st.calls = append(m.st.calls, r)
	var step Step
	var ok bool
	if m.st.next < len(m.st.steps) {
		step, ok = m.st.steps[m.st.next], true
		m.st.next++
	}
	fb := m.st.fallback
	base := m.st.ids
	m.st.ids += 100
	m.st.mu.Unlock()
	if ok && step.Delay > 0 {
		select {
		case <-time.After(step.Delay):
		case <-ctx.Done():
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var msg *schema.Message
	switch {
	case !ok && fb != nil:
		msg = fb(r)
	case !ok:
		return nil, fmt.Errorf("%w after %d calls", ErrExhausted, len(m.Calls())-1)
	case step.Err != nil:
		return nil, step.Err
	case step.Func != nil:
		msg = step.Func(r)
	default:
		msg = &schema.Message{Role: schema.Assistant, Content: step.Answer, ToolCalls: slices.Clone(step.ToolCalls)}
	}
	if msg == nil {
		return nil, errors.New("einotest: step returned no message")
	}
	for i := range msg.ToolCalls {
		if msg.ToolCalls[i].ID == "" {
			msg.ToolCalls[i].ID = fmt.Sprintf("call_%d", base+i)
		}
		if msg.ToolCalls[i].Type == "" {
			msg.ToolCalls[i].Type = "function"
		}
	}
	if step.Usage != nil {
		msg.ResponseMeta = &schema.ResponseMeta{Usage: step.Usage}
	}
	return msg, nil
}

// Stream plays the next step as a one-chunk stream.
func (m *Model) Stream(ctx context.Context, input []*schema.Message, opts ...model.Option) (*schema.StreamReader[*schema.Message], error) {
	msg, err := m.Generate(ctx, input, opts...)
	if err != nil {
		return nil, err
	}
	return schema.StreamReaderFromArray([]*schema.Message{msg}), nil
}

// IsCallbacksEnabled reports false: the model fires no callbacks itself, so
// eino injects them once. A wrapper around Model must forward this value.
func (m *Model) IsCallbacksEnabled() bool { return false }

// Call builds a tool call with args marshalled to JSON.
func Call(name string, args any) schema.ToolCall {
	b, err := json.Marshal(args)
	if err != nil {
		panic("einotest.Call: " + err.Error())
	}
	return schema.ToolCall{Type: "function", Function: schema.FunctionCall{Name: name, Arguments: string(b)}}
}

// Calls is a Step emitting the given tool calls.
func Calls(calls ...schema.ToolCall) Step { return Step{ToolCalls: calls} }

// Answer is a Step giving a final answer.
func Answer(text string) Step { return Step{Answer: text} }

// ToolText renders a tool definition as a model receives it: the
// description, then the JSON schema of its parameters, indented. Golden
// tests pin tools in this form. A schema that does not render fails t.
func ToolText(t testing.TB, info *schema.ToolInfo) string {
	t.Helper()
	js, err := info.ParamsOneOf.ToJSONSchema()
	if err != nil {
		t.Fatalf("tool %s: %v", info.Name, err)
	}
	b, err := json.MarshalIndent(js, "", "  ")
	if err != nil {
		t.Fatalf("tool %s: %v", info.Name, err)
	}
	return info.Desc + "\n" + string(b)
}
