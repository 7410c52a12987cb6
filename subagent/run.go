package subagent

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/cloudwego/eino/adk"
	"github.com/cloudwego/eino/schema"

	mcpeino "github.com/mcpfleet/mcpfleet/adapters/eino"
)

// Report is what one Run did. It is JSON-serializable.
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

// Run gives the subagent a task and returns its report. The error is non-nil
// only when the run could not finish (model failure, cancelled ctx); tool
// failures are in Report.Calls. A partial report comes with the error.
func (sa *Subagent) Run(ctx context.Context, task string, opts ...adk.AgentRunOption) (*Report, error) {
	sa.runMu.Lock()
	defer sa.runMu.Unlock()
	sa.run = &runState{}
	start := time.Now()
	runner := adk.NewRunner(ctx, adk.RunnerConfig{Agent: sa.agent})
	iter := runner.Query(ctx, task, opts...)
	var answer string
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
		if mo.Role != schema.Assistant {
			continue
		}
		msg, err := mo.GetMessage()
		if err != nil {
			runErr = err
			continue
		}
		if msg != nil && len(msg.ToolCalls) == 0 {
			answer = msg.Content
		}
	}
	rep := sa.report(task, answer, time.Since(start))
	if runErr == nil && ctx.Err() != nil {
		runErr = ctx.Err()
	}
	if runErr != nil {
		return rep, fmt.Errorf("subagent %s: %w", sa.cfg.Name, runErr)
	}
	if answer == "" {
		return rep, errors.New("subagent " + sa.cfg.Name + ": the run ended without an answer")
	}
	return rep, nil
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
