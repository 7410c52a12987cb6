package main

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"

	"github.com/cloudwego/eino/components/model"

	"github.com/mcpfleet/mcpfleet"
	"github.com/mcpfleet/mcpfleet/adapters/eino/openai"
	"github.com/mcpfleet/mcpfleet/catalog"
	"github.com/mcpfleet/mcpfleet/examples/incident/planner"
	"github.com/mcpfleet/mcpfleet/orchestrator"
	"github.com/mcpfleet/mcpfleet/subagent"
)

// chooseModel returns the model and its display name: a real
// OpenAI-compatible model when MCPFLEET_MODEL is set, else the offline
// planner.
func chooseModel(ctx context.Context) (model.ToolCallingChatModel, string, error) {
	m, err := openai.ModelFromEnv(ctx)
	var missing *openai.MissingEnvError
	switch {
	case err == nil:
		c, _ := openai.ModelConfigFromEnv(nil)
		return m, c.Model + " at " + c.BaseURL, nil
	case errors.As(err, &missing) && slices.Contains(missing.Vars, openai.EnvModel):
		return planner.New(), planner.Name, nil
	default:
		return nil, "", err
	}
}

// subagentLog is the recorder of one subagent, keyed by its task.
type subagentLog struct {
	Task    string   `json:"task"`
	Servers []string `json:"servers"`
	rec     *recorder
}

// bot is one investigation: the orchestrator, its subagents' recorders and
// the shared catalog.
type bot struct {
	mx    *mcpfleet.Mux
	cat   *catalog.Catalog
	base  model.ToolCallingChatModel
	orch  *recorder
	mu    sync.Mutex
	subs  []*subagentLog
	orchx *orchestrator.Orchestrator
}

func newBot(mx *mcpfleet.Mux, cat *catalog.Catalog, m model.ToolCallingChatModel) (*bot, error) {
	b := &bot{mx: mx, cat: cat, base: m, orch: newRecorder(m)}
	o, err := orchestrator.New(mx, orchestrator.Config{
		Model:         b.orch,
		SubagentModel: b.subagentModel,
		Subagent:      subagent.Config{Catalog: cat, Scopes: []string{catalog.ScopeRead}},
	})
	if err != nil {
		return nil, err
	}
	b.orchx = o
	return b, nil
}

func (b *bot) subagentModel(t orchestrator.Task) (model.ToolCallingChatModel, error) {
	rec := newRecorder(b.base)
	b.mu.Lock()
	defer b.mu.Unlock()
	b.subs = append(b.subs, &subagentLog{Task: t.Task, Servers: t.Servers, rec: rec})
	return rec, nil
}

// logFor finds the recorder of a subagent by task and servers; each is
// used once, in order, for repeated identical tasks.
func (b *bot) logFor(task string, servers []string, used map[*subagentLog]bool) *subagentLog {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, s := range b.subs {
		if !used[s] && s.Task == task && strings.Join(s.Servers, ",") == strings.Join(servers, ",") {
			used[s] = true
			return s
		}
	}
	return nil
}

func (b *bot) run(ctx context.Context, question string) (*orchestrator.Trace, error) {
	return b.orchx.Run(ctx, question)
}
