package planner

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/cloudwego/eino/components/model"
	"github.com/cloudwego/eino/schema"
)

// Name is how the example names this model in its output.
const Name = "scripted planner (offline)"

// SpawnToolName is the orchestrator tool whose presence makes the planner
// act as the orchestrator.
const SpawnToolName = "spawnSubagents"

// Meta-tool names the planner knows how to use when they are bound.
const (
	loadToolsName   = "loadTools"
	searchToolsName = "searchTools"
	grepResultName  = "grepResult"
)

// Planner is a deterministic model.ToolCallingChatModel. It keeps no state
// between calls: every decision is derived from the messages and tools of
// the call, so one Planner serves any number of agents concurrently.
type Planner struct {
	bound []*schema.ToolInfo
}

var _ model.ToolCallingChatModel = (*Planner)(nil)

// New returns a planner.
func New() *Planner { return &Planner{} }

// WithTools returns a planner with tools bound; per-call tools
// (model.WithTools) take precedence, as they do in eino-ext models.
func (p *Planner) WithTools(tools []*schema.ToolInfo) (model.ToolCallingChatModel, error) {
	return &Planner{bound: slices.Clone(tools)}, nil
}

// Generate decides the next step.
func (p *Planner) Generate(ctx context.Context, input []*schema.Message, opts ...model.Option) (*schema.Message, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	co := model.GetCommonOptions(nil, opts...)
	tools := co.Tools
	if tools == nil {
		tools = p.bound
	}
	v := newView(input, tools)
	forbidden := co.ToolChoice != nil && *co.ToolChoice == schema.ToolChoiceForbidden
	var d decision
	if _, ok := v.tools[SpawnToolName]; ok {
		d = orchestrate(v)
	} else {
		d = investigate(v)
	}
	if forbidden && d.call != nil {
		// Told to answer now: answer from what was found so far.
		d = decision{answer: finalAnswer(v)}
		if _, ok := v.tools[SpawnToolName]; ok {
			d = decision{answer: report(v)}
		}
	}
	msg := &schema.Message{Role: schema.Assistant, Content: d.answer}
	if d.call != nil {
		args, err := json.Marshal(d.call.args)
		if err != nil {
			return nil, fmt.Errorf("planner: %w", err)
		}
		msg.Content = d.thought
		msg.ToolCalls = []schema.ToolCall{{ID: fmt.Sprintf("call_%d", len(v.turns)+1), Type: "function",
			Function: schema.FunctionCall{Name: d.call.name, Arguments: string(args)}}}
	}
	if msg.Content == "" && len(msg.ToolCalls) == 0 {
		return nil, errors.New("planner: nothing to say")
	}
	return msg, nil
}

// Stream returns Generate's message as a one-chunk stream.
func (p *Planner) Stream(ctx context.Context, input []*schema.Message, opts ...model.Option) (*schema.StreamReader[*schema.Message], error) {
	m, err := p.Generate(ctx, input, opts...)
	if err != nil {
		return nil, err
	}
	return schema.StreamReaderFromArray([]*schema.Message{m}), nil
}

// IsCallbacksEnabled reports false: the planner fires no callbacks, so eino
// injects them once around it.
func (p *Planner) IsCallbacksEnabled() bool { return false }

// decision is one step: a tool call (with a short thought) or an answer.
type decision struct {
	call    *call
	thought string
	answer  string
}

type call struct {
	name string
	args map[string]any
}

// turn is one tool call the agent made and the result it got back.
type turn struct {
	name   string
	args   map[string]any
	result string
}

// view is what the planner sees on one call.
type view struct {
	system string // the instruction
	task   string // the first user message
	tools  map[string]*schema.ToolInfo
	turns  []turn
	kinds  map[string]string // bound tool name -> kind, as tool found it
}

func newView(msgs []*schema.Message, tools []*schema.ToolInfo) *view {
	v := &view{tools: map[string]*schema.ToolInfo{}, kinds: map[string]string{}}
	for _, t := range tools {
		v.tools[t.Name] = t
	}
	results := map[string]string{}
	for _, m := range msgs {
		if m.Role == schema.Tool {
			results[m.ToolCallID] = m.Content
		}
	}
	for _, m := range msgs {
		switch m.Role {
		case schema.System:
			v.system += m.Content + "\n"
		case schema.User:
			if v.task == "" {
				v.task = m.Content
			}
		case schema.Assistant:
			for _, tc := range m.ToolCalls {
				var args map[string]any
				_ = json.Unmarshal([]byte(tc.Function.Arguments), &args)
				v.turns = append(v.turns, turn{name: tc.Function.Name, args: args, result: results[tc.ID]})
			}
		}
	}
	return v
}

// serversOf returns the "server" enum of a bound tool: the servers it
// reaches. A tool shown without a server parameter is bound to the one
// server of its kind in the slice ("Your servers: …").
func (v *view) serversOf(name string) []string {
	t, ok := v.tools[name]
	if !ok || t.ParamsOneOf == nil {
		return nil
	}
	if enum := v.enum(t); enum != nil {
		return enum
	}
	return parseSlice(v.system).byKind[v.kinds[name]]
}

// enum is the "server" enum of t, nil when t has no server parameter.
func (v *view) enum(t *schema.ToolInfo) []string {
	js, err := t.ParamsOneOf.ToJSONSchema()
	if err != nil || js == nil {
		return nil
	}
	b, err := json.Marshal(js)
	if err != nil {
		return nil
	}
	var s struct {
		Properties map[string]struct {
			Enum []string `json:"enum"`
		} `json:"properties"`
	}
	_ = json.Unmarshal(b, &s)
	return s.Properties["server"].Enum
}

// tool finds the bound name of an MCP tool of a kind: the tool's own name,
// or kind__tool when several kinds share it.
func (v *view) tool(kind, name string) (string, bool) {
	for _, n := range []string{name, kind + "__" + name} {
		if _, ok := v.tools[n]; ok {
			v.kinds[n] = kind
			return n, true
		}
	}
	return "", false
}

// made returns the turns that called name on server (any server if "").
func (v *view) made(name, server string) []turn {
	var out []turn
	for _, t := range v.turns {
		if t.name == name && (server == "" || t.args["server"] == server) {
			out = append(out, t)
		}
	}
	return out
}

// last returns the most recent turn calling name on server.
func (v *view) last(name, server string) (turn, bool) {
	ts := v.made(name, server)
	if len(ts) == 0 {
		return turn{}, false
	}
	return ts[len(ts)-1], true
}

// failed reports whether a result is a refusal or an error.
func failed(result string) bool {
	return strings.HasPrefix(result, "REJECTED") || strings.HasPrefix(result, "ERROR")
}

var handleRe = regexp.MustCompile(`stored as (\S+?)\.?\n`)

// offloadHandle returns the handle of an offloaded result, if the result
// is a preview of one.
func offloadHandle(result string) (string, bool) {
	m := handleRe.FindStringSubmatch(result)
	if m == nil {
		return "", false
	}
	return m[1], true
}
