package subagent

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/cloudwego/eino/adk"
	"github.com/cloudwego/eino/schema"
	"go.opentelemetry.io/otel/attribute"

	mcpeino "github.com/mcpfleet/mcpfleet/adapters/eino"
)

// Report is what one Run or RunMessages did. It is JSON-serializable.
type Report struct {
	Name    string   `json:"name"`
	Servers []string `json:"servers"`
	Task    string   `json:"task"`
	Answer  string   `json:"answer"`
	// Calls lists every fleet tool call, including ones the gate refused.
	Calls []mcpeino.CallRecord `json:"calls"`
	// Loaded lists the names loadTools activated, in order.
	Loaded []string `json:"loaded,omitempty"`
	// Steps counts model calls; Usage has one entry per call that reported tokens.
	Steps int         `json:"steps"`
	Usage []StepUsage `json:"usage,omitempty"`
	// Tokens sums Usage.
	Tokens    Tokens        `json:"tokens"`
	LockedOut bool          `json:"locked_out,omitempty"` // the last step ran with tool choice none
	Mode      string        `json:"mode"`
	Duration  time.Duration `json:"duration_ns"`
	// Messages are the assistant and tool messages the run added, in order:
	// what a caller appends to its history to continue the conversation.
	// Left out of JSON, where the answer and calls already tell the story.
	Messages []*schema.Message `json:"-"`
}

// StepUsage is the token usage one model call reported.
type StepUsage struct {
	Step int `json:"step"`
	Tokens
}

// Tokens counts model tokens.
type Tokens struct {
	Prompt     int `json:"prompt"`
	Completion int `json:"completion"`
	Total      int `json:"total"`
}

// runState is the per-Run bookkeeping shared by the middleware and tools.
type runState struct {
	mu     sync.Mutex
	steps  int
	calls  []mcpeino.CallRecord
	load   []string
	usages []StepUsage
	// offloaded turns true at the first result kept out of the context;
	// from the next step on the model is offered readResult and grepResult.
	offloaded bool
}

func (r *runState) sawOffload() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.offloaded
}

func (r *runState) nextStep() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.steps++
	return r.steps
}

func (r *runState) step() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.steps
}

func (r *runState) loaded(names []string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.load = append(r.load, names...)
}

func (r *runState) usage(m *schema.Message) {
	if m == nil || m.ResponseMeta == nil || m.ResponseMeta.Usage == nil {
		return
	}
	u := m.ResponseMeta.Usage
	r.mu.Lock()
	defer r.mu.Unlock()
	r.usages = append(r.usages, StepUsage{Step: r.steps, Tokens: Tokens{u.PromptTokens, u.CompletionTokens, u.TotalTokens}})
}

func (sa *Subagent) record(_ context.Context, rec mcpeino.CallRecord) {
	sa.run.mu.Lock()
	defer sa.run.mu.Unlock()
	sa.run.calls = append(sa.run.calls, rec)
	if rec.Offloaded != "" {
		sa.run.offloaded = true
	}
}

// ErrNoMessages is returned by RunMessages given an empty history: there
// is nothing for the model to answer.
var ErrNoMessages = errors.New("subagent: no messages to run on")

// Run gives the subagent a task and returns its report. The error is non-nil
// only when the run could not finish (model failure, cancelled ctx); tool
// failures are in Report.Calls. A partial report comes with the error.
//
// Run is RunMessages with one user message.
func (sa *Subagent) Run(ctx context.Context, task string, opts ...adk.AgentRunOption) (*Report, error) {
	return sa.RunMessages(ctx, []*schema.Message{schema.UserMessage(task)}, opts...)
}

// RunMessages runs the subagent on a conversation, such as the earlier turns
// of a chat followed by the user's new message, and returns the report of
// this run only: its calls, loads, steps and usage. Report.Task is the last
// user message, and Report.Messages holds what the run added, so the next
// turn's history is msgs followed by Report.Messages and the new user
// message.
//
// msgs is not modified. Tool calls in msgs that have no tool message (a run
// cut off mid-call) are answered with an error text before the model sees
// them, as the model APIs require. The instruction is prepended as the
// system message; msgs should not carry one of their own.
//
// Errors are as for Run; an empty msgs gives ErrNoMessages, and a nil
// message an error before the model is called.
func (sa *Subagent) RunMessages(ctx context.Context, msgs []*schema.Message, opts ...adk.AgentRunOption) (*Report, error) {
	if len(msgs) == 0 {
		return nil, fmt.Errorf("subagent %s: %w", sa.cfg.Name, ErrNoMessages)
	}
	if i := slices.Index(msgs, nil); i >= 0 {
		return nil, fmt.Errorf("subagent %s: message %d is nil", sa.cfg.Name, i)
	}
	sa.runMu.Lock()
	defer sa.runMu.Unlock()
	sa.run = &runState{}
	start := time.Now()
	ctx, span := mcpeino.StartAgentSpan(ctx, sa.mx.TracerProvider(), sa.cfg.Name, attribute.StringSlice("mcpfleet.servers", sa.cfg.Servers))
	runner := adk.NewRunner(ctx, adk.RunnerConfig{Agent: sa.agent})
	// A copy, so nothing adk or the middleware appends can land in the
	// caller's backing array.
	iter := runner.Run(ctx, slices.Clone(msgs), opts...)
	var answer string
	var added []*schema.Message
	var runErr error
	for {
		ev, ok := iter.Next()
		if !ok {
			break
		}
		if ev.Err != nil {
			runErr = ev.Err
			continue
		}
		if ev.Output == nil || ev.Output.MessageOutput == nil {
			continue
		}
		mo := ev.Output.MessageOutput
		if mo.Role != schema.Assistant && mo.Role != schema.Tool {
			continue
		}
		msg, err := mo.GetMessage()
		if err != nil {
			runErr = err
			continue
		}
		if msg == nil {
			continue
		}
		added = append(added, msg)
		if mo.Role == schema.Assistant && len(msg.ToolCalls) == 0 {
			answer = msg.Content
		}
	}
	rep := sa.report(lastUserText(msgs), answer, time.Since(start))
	rep.Messages = inCallOrder(added)
	if runErr == nil && ctx.Err() != nil {
		runErr = ctx.Err()
	}
	mcpeino.EndSpan(span, runErr, mcpeino.KeyInputTokens.Int(rep.Tokens.Prompt), mcpeino.KeyOutputTokens.Int(rep.Tokens.Completion),
		attribute.Int("mcpfleet.steps", rep.Steps), attribute.Int("mcpfleet.calls", len(rep.Calls)))
	if runErr != nil {
		return rep, fmt.Errorf("subagent %s: %w", sa.cfg.Name, runErr)
	}
	if answer == "" {
		return rep, errors.New("subagent " + sa.cfg.Name + ": the run ended without an answer")
	}
	return rep, nil
}

// inCallOrder puts each block of tool messages in the order of the calls
// that asked for them. adk emits tool events as the tools finish, which
// for parallel calls is not the order the model's next call sees them in;
// the history a caller keeps should read as the model read it.
func inCallOrder(msgs []*schema.Message) []*schema.Message {
	for i := 0; i < len(msgs); i++ {
		if msgs[i].Role != schema.Assistant || len(msgs[i].ToolCalls) < 2 {
			continue
		}
		calls := msgs[i].ToolCalls
		end := i + 1
		for end < len(msgs) && msgs[end].Role == schema.Tool {
			end++
		}
		slices.SortStableFunc(msgs[i+1:end], func(a, b *schema.Message) int {
			return callIndex(calls, a.ToolCallID) - callIndex(calls, b.ToolCallID)
		})
		i = end - 1
	}
	return msgs
}

func callIndex(calls []schema.ToolCall, id string) int {
	for i, c := range calls {
		if c.ID == id {
			return i
		}
	}
	return len(calls)
}

// lastUserText is the text of the last user message: the task of a turn.
func lastUserText(msgs []*schema.Message) string {
	for i := len(msgs) - 1; i >= 0; i-- {
		m := msgs[i]
		if m == nil || m.Role != schema.User {
			continue
		}
		if m.Content != "" {
			return m.Content
		}
		var parts []string
		for _, p := range m.UserInputMultiContent {
			if p.Type == schema.ChatMessagePartTypeText {
				parts = append(parts, p.Text)
			}
		}
		return strings.Join(parts, "\n")
	}
	return ""
}

func (sa *Subagent) report(task, answer string, d time.Duration) *Report {
	r := sa.run
	r.mu.Lock()
	defer r.mu.Unlock()
	rep := &Report{Name: sa.cfg.Name, Servers: slices.Clone(sa.cfg.Servers), Task: task, Answer: answer,
		Calls: slices.Clone(r.calls), Loaded: slices.Clone(r.load), Steps: r.steps, Usage: slices.Clone(r.usages),
		LockedOut: r.steps >= sa.cfg.MaxSteps, Mode: sa.sess.Mode(), Duration: d}
	if rep.Calls == nil {
		rep.Calls = []mcpeino.CallRecord{}
	}
	for _, u := range r.usages {
		rep.Tokens.Prompt += u.Prompt
		rep.Tokens.Completion += u.Completion
		rep.Tokens.Total += u.Total
	}
	return rep
}
