package subagent

import (
	"context"
	"slices"

	"github.com/cloudwego/eino/adk"
	"github.com/cloudwego/eino/components"
	"github.com/cloudwego/eino/components/model"
	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/schema"

	"github.com/mcpfleet/mcpfleet"
	mcpeino "github.com/mcpfleet/mcpfleet/adapters/eino"
)

// lockdownKey marks the injected "answer now" message, so it is added once.
const lockdownKey = "mcpfleet_lockdown"

// middleware is the subagent's adk handler:
//   - BeforeModelRewriteState sets state.ToolInfos to the session's active
//     tools on every model call, so a loadTools result shows on the next call
//     (the same mechanism as adk's dynamictool/toolsearch);
//   - WrapInvokableToolCall (and WrapEnhancedInvokableToolCall, for
//     multimodal tools) is the execution gate: a tool not active on the
//     chosen server is refused with text and the server is never hit;
//   - WrapModel counts steps, records token usage and, on the last step,
//     forbids tool calls.
type middleware struct {
	*adk.BaseChatModelAgentMiddleware
	sa *Subagent
}

func (m *middleware) BeforeModelRewriteState(ctx context.Context, state *adk.ChatModelAgentState, _ *adk.ModelContext) (context.Context, *adk.ChatModelAgentState, error) {
	infos, err := m.sa.activeInfos()
	if err != nil {
		return ctx, state, err
	}
	state.ToolInfos = infos
	step := m.sa.run.nextStep()
	if step >= m.sa.cfg.MaxSteps && !slices.ContainsFunc(state.Messages, isLockdown) {
		msg := schema.UserMessage(lockdownText)
		msg.Extra = map[string]any{lockdownKey: true}
		state.Messages = append(state.Messages, msg)
	}
	return ctx, state, nil
}

func isLockdown(m *schema.Message) bool {
	b, _ := m.Extra[lockdownKey].(bool)
	return b
}

func (m *middleware) WrapModel(_ context.Context, inner model.BaseChatModel, _ *adk.ModelContext) (model.BaseChatModel, error) {
	return mcpeino.TraceModel(m.sa.mx.TracerProvider(), m.sa.cfg.Name, &stepModel{inner: inner, sa: m.sa}), nil
}

func (m *middleware) WrapInvokableToolCall(_ context.Context, endpoint adk.InvokableToolCallEndpoint, tc *adk.ToolContext) (adk.InvokableToolCallEndpoint, error) {
	t, ok := m.sa.tools[tc.Name]
	if !ok {
		return endpoint, nil // meta-tools and unknown names
	}
	return func(ctx context.Context, args string, opts ...tool.Option) (string, error) {
		args, text, refused := m.gate(ctx, tc.Name, t, args)
		if refused {
			return text, nil
		}
		return endpoint(ctx, args, opts...)
	}, nil
}

// WrapEnhancedInvokableToolCall is the same gate on the multimodal path
// (Config.Multimodal): adk calls only this one for EnhancedInvokableTools.
func (m *middleware) WrapEnhancedInvokableToolCall(_ context.Context, endpoint adk.EnhancedInvokableToolCallEndpoint, tc *adk.ToolContext) (adk.EnhancedInvokableToolCallEndpoint, error) {
	t, ok := m.sa.tools[tc.Name]
	if !ok {
		return endpoint, nil
	}
	return func(ctx context.Context, arg *schema.ToolArgument, opts ...tool.Option) (*schema.ToolResult, error) {
		args := ""
		if arg != nil {
			args = arg.Text
		}
		bound, text, refused := m.gate(ctx, tc.Name, t, args)
		if refused {
			return mcpeino.TextResult(text), nil
		}
		if bound != args {
			c := *arg
			c.Text = bound
			arg = &c
		}
		return endpoint(ctx, arg, opts...)
	}, nil
}

// gate refuses a call to a tool not active on the chosen server, recording
// the refusal. A call without a server, to a tool the model was shown bound
// to one server, gets that server (the arguments returned). Arguments that
// name no valid server pass: the tool renders and records that refusal
// itself.
func (m *middleware) gate(ctx context.Context, name string, t *mcpeino.Tool, args string) (string, string, bool) {
	args = t.Bind(args, shown(t.Spec(), m.sa.activeServers()))
	server, _, refusal := t.Target(args)
	if refusal != "" {
		return args, "", false
	}
	if err := m.sa.sess.AllowContext(ctx, server, t.Spec().Tool); err != nil {
		text := gateRefusal(err)
		_, reason := mcpfleet.Classify(nil, err)
		m.sa.record(ctx, mcpeino.CallRecord{Name: name, Server: server, Tool: t.Spec().Tool,
			Args: []byte(args), Status: mcpeino.StatusRejected, Detail: string(reason), Text: text})
		return args, text, true
	}
	return args, "", false
}

// stepModel applies the last-step lockdown and records usage.
type stepModel struct {
	inner model.BaseChatModel
	sa    *Subagent
}

func (s *stepModel) opts(opts []model.Option) ([]model.Option, bool) {
	if s.sa.run.step() < s.sa.cfg.MaxSteps {
		return opts, false
	}
	return append(slices.Clone(opts), model.WithToolChoice(schema.ToolChoiceForbidden)), true
}

func (s *stepModel) Generate(ctx context.Context, input []*schema.Message, opts ...model.Option) (*schema.Message, error) {
	opts, locked := s.opts(opts)
	msg, err := s.inner.Generate(ctx, input, opts...)
	if err != nil {
		return msg, err
	}
	if locked && len(msg.ToolCalls) > 0 {
		// The model ignored tool choice "none". Drop the calls so the run
		// ends here with whatever text it gave.
		c := *msg
		c.ToolCalls = nil
		if c.Content == "" {
			c.Content = noAnswerText
		}
		msg = &c
	}
	s.sa.run.usage(msg)
	return msg, nil
}

func (s *stepModel) Stream(ctx context.Context, input []*schema.Message, opts ...model.Option) (*schema.StreamReader[*schema.Message], error) {
	opts, _ = s.opts(opts)
	return s.inner.Stream(ctx, input, opts...)
}

// IsCallbacksEnabled forwards the inner model's answer, so eino neither
// skips nor doubles the model callbacks.
func (s *stepModel) IsCallbacksEnabled() bool { return components.IsCallbacksEnabled(s.inner) }
