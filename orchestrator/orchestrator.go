package orchestrator

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/cloudwego/eino/adk"
	"github.com/cloudwego/eino/components/model"
	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/compose"
	"github.com/cloudwego/eino/schema"
	"go.opentelemetry.io/otel/attribute"

	"github.com/mcpfleet/mcpfleet"
	mcpeino "github.com/mcpfleet/mcpfleet/adapters/eino"
	"github.com/mcpfleet/mcpfleet/catalog"
	"github.com/mcpfleet/mcpfleet/subagent"
)

// Defaults for zero Config fields.
const (
	DefaultMaxParallel     = 4
	DefaultSubagentTimeout = 3 * time.Minute
	DefaultMaxSteps        = 8
	DefaultReportTokens    = 4000
)

// Task is one subagent assignment, as the model writes it.
type Task struct {
	// Name, optional, names the subagent ("triage", "symptoms") in the trace,
	// its report and the spawnSubagents result; default "subagent-N".
	Name    string   `json:"name,omitempty"`
	Task    string   `json:"task"`
	Servers []string `json:"servers"`
}

// Config configures an orchestrator. Model and SubagentModel are required.
type Config struct {
	// Model drives the orchestrator; it sees only the kinds overview and spawnSubagents.
	Model model.ToolCallingChatModel
	// SubagentModel returns the model for one subagent. It is called once per
	// subagent, so each gets its own (a scripted model per task, or the same
	// real model every time).
	SubagentModel func(t Task) (model.ToolCallingChatModel, error)
	// MaxParallel bounds subagents running at once; default 4.
	MaxParallel int
	// SubagentTimeout bounds one subagent's run; default 3m.
	SubagentTimeout time.Duration
	// MaxSteps bounds the orchestrator's model calls; default 8.
	MaxSteps int
	// ReportTokens bounds the o200k size of one spawnSubagents result; default 4000.
	ReportTokens int
	// Subagent is the template for subagents: Servers, Model and Name are
	// set per task; the rest (Scopes, Mode, MaxSteps, ...) is used as is.
	Subagent subagent.Config
	// Framing replaces the default task framing of the system prompt.
	Framing string
}

// Orchestrator answers questions by planning subagents over the fleet.
// It is safe for concurrent Runs.
type Orchestrator struct {
	mx  *mcpfleet.Mux
	cfg Config
	cat *catalog.Catalog
}

// New checks cfg and returns an orchestrator.
func New(mx *mcpfleet.Mux, cfg Config) (*Orchestrator, error) {
	var errs []error
	if cfg.Model == nil {
		errs = append(errs, errors.New("orchestrator: Config.Model is required"))
	}
	if cfg.SubagentModel == nil {
		errs = append(errs, errors.New("orchestrator: Config.SubagentModel is required"))
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	if cfg.MaxParallel <= 0 {
		cfg.MaxParallel = DefaultMaxParallel
	}
	if cfg.SubagentTimeout <= 0 {
		cfg.SubagentTimeout = DefaultSubagentTimeout
	}
	if cfg.MaxSteps <= 0 {
		cfg.MaxSteps = DefaultMaxSteps
	}
	if cfg.ReportTokens <= 0 {
		cfg.ReportTokens = DefaultReportTokens
	}
	if cfg.Subagent.MaxServers <= 0 {
		cfg.Subagent.MaxServers = subagent.DefaultMaxServers
	}
	if cfg.Subagent.Cache == nil {
		// One cache for every subagent of this orchestrator: each would
		// otherwise convert every permitted tool schema again.
		cfg.Subagent.Cache = mcpeino.NewCache()
	}
	cat := cfg.Subagent.Catalog
	if cat == nil {
		var err error
		if cat, err = catalog.BuildFleet(mx.Servers(), mx.Config()); err != nil {
			return nil, fmt.Errorf("orchestrator: %w", err)
		}
	}
	return &Orchestrator{mx: mx, cfg: cfg, cat: cat}, nil
}

// SystemPrompt is the orchestrator's whole instruction: framing plus the
// kinds overview. No tool names or schemas.
func (o *Orchestrator) SystemPrompt() string {
	return systemPrompt(o.cfg.Framing, o.cfg.Subagent.MaxServers, o.mx.Overview())
}

// Run answers question. The trace is returned even with an error.
func (o *Orchestrator) Run(ctx context.Context, question string, opts ...adk.AgentRunOption) (*Trace, error) {
	start := time.Now()
	ctx, span := mcpeino.StartAgentSpan(ctx, o.mx.TracerProvider(), "orchestrator")
	t, err := o.run(ctx, start, question, opts...)
	var attrs []attribute.KeyValue
	if t != nil {
		attrs = append(attrs, mcpeino.KeyInputTokens.Int(t.TotalTokens.Prompt), mcpeino.KeyOutputTokens.Int(t.TotalTokens.Completion),
			attribute.Int("mcpfleet.subagents", len(t.Subagents)))
	}
	mcpeino.EndSpan(span, err, attrs...)
	return t, err
}

func (o *Orchestrator) run(ctx context.Context, start time.Time, question string, opts ...adk.AgentRunOption) (*Trace, error) {
	r := &run{o: o, trace: &Trace{Question: question, Overview: o.mx.Overview(), Subagents: []SubagentTrace{}}}
	spawn := &spawnTool{r: r}
	agent, err := adk.NewChatModelAgent(ctx, &adk.ChatModelAgentConfig{
		Name:          "orchestrator",
		Description:   "Plans subagents over the fleet",
		Instruction:   o.SystemPrompt(),
		Model:         o.cfg.Model,
		MaxIterations: o.cfg.MaxSteps,
		ToolsConfig: adk.ToolsConfig{ToolsNodeConfig: compose.ToolsNodeConfig{
			Tools: []tool.BaseTool{spawn},
			UnknownToolsHandler: func(ctx context.Context, name, input string) (string, error) {
				return fmt.Sprintf("REJECTED %s: no such tool; your only tool is %s.", name, SpawnName), nil
			},
		}},
		Handlers: []adk.ChatModelAgentMiddleware{&usageMiddleware{BaseChatModelAgentMiddleware: &adk.BaseChatModelAgentMiddleware{}, r: r}},
	})
	if err != nil {
		return r.trace, fmt.Errorf("orchestrator: %w", err)
	}
	iter := adk.NewRunner(ctx, adk.RunnerConfig{Agent: agent}).Query(ctx, question, opts...)
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
		if ev.Output == nil || ev.Output.MessageOutput == nil || ev.Output.MessageOutput.Role != schema.Assistant {
			continue
		}
		if msg, err := ev.Output.MessageOutput.GetMessage(); err == nil && msg != nil && len(msg.ToolCalls) == 0 {
			r.setAnswer(msg.Content)
		}
	}
	t := r.finish(time.Since(start))
	if runErr != nil {
		return t, fmt.Errorf("orchestrator: %w", runErr)
	}
	if t.Answer == "" {
		return t, errors.New("orchestrator: the run ended without an answer")
	}
	return t, nil
}
