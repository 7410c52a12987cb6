package orchestrator

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/schema"
	"go.opentelemetry.io/otel/attribute"
	"golang.org/x/sync/errgroup"

	mcpeino "github.com/mcpfleet/mcpfleet/adapters/eino"
	"github.com/mcpfleet/mcpfleet/internal/tokens"
	"github.com/mcpfleet/mcpfleet/subagent"
)

// SpawnName is the orchestrator's only tool.
const SpawnName = "spawnSubagents"

type spawnTool struct{ r *run }

func (s *spawnTool) Info(context.Context) (*schema.ToolInfo, error) {
	return &schema.ToolInfo{Name: SpawnName, Desc: spawnDesc, ParamsOneOf: schema.NewParamsOneOfByParams(map[string]*schema.ParameterInfo{
		"tasks": {Type: schema.Array, Required: true, Desc: "One entry per subagent", ElemInfo: &schema.ParameterInfo{
			Type: schema.Object, SubParams: map[string]*schema.ParameterInfo{
				"name":    {Type: schema.String, Desc: nameParamDesc},
				"task":    {Type: schema.String, Required: true, Desc: "What the subagent must find out"},
				"servers": {Type: schema.Array, Required: true, Desc: "Server names from the overview", ElemInfo: &schema.ParameterInfo{Type: schema.String}},
			}}},
	})}, nil
}

// InvokableRun runs the subagents in parallel (bounded by MaxParallel), each
// under SubagentTimeout. A subagent that fails or times out is reported in
// its section; it never fails the others or the tool.
func (s *spawnTool) InvokableRun(ctx context.Context, args string, _ ...tool.Option) (string, error) {
	ctx, span := mcpeino.StartToolSpan(ctx, s.r.o.mx.TracerProvider(), SpawnName)
	out, n := s.spawn(ctx, args)
	mcpeino.EndSpan(span, nil, attribute.Int("mcpfleet.subagents", n))
	return out, nil
}

// spawn runs the tasks of args and returns the tool's text and how many
// subagents ran.
func (s *spawnTool) spawn(ctx context.Context, args string) (string, int) {
	var in struct {
		Tasks []Task `json:"tasks"`
	}
	if err := json.Unmarshal([]byte(args), &in); err != nil || len(in.Tasks) == 0 {
		return `REJECTED spawnSubagents: want {"tasks": [{"task": "...", "servers": ["server", ...]}]}`, 0
	}
	o := s.r.o
	s.r.mu.Lock()
	s.r.spawns++
	spawn := s.r.spawns
	first := len(s.r.trace.Subagents)
	for i := range in.Tasks {
		t := &in.Tasks[i]
		t.Name = strings.TrimSpace(t.Name)
		if t.Name == "" {
			t.Name = fmt.Sprintf("subagent-%d", first+i+1)
		}
		s.r.trace.Subagents = append(s.r.trace.Subagents, SubagentTrace{Spawn: spawn, Name: t.Name, Task: t.Task, Servers: t.Servers})
	}
	s.r.mu.Unlock()

	results := make([]SubagentTrace, len(in.Tasks))
	var g errgroup.Group // no WithContext: one failure must not cancel siblings
	g.SetLimit(o.cfg.MaxParallel)
	for i, t := range in.Tasks {
		g.Go(func() error {
			results[i] = s.runOne(ctx, spawn, t)
			return nil
		})
	}
	_ = g.Wait()
	s.r.mu.Lock()
	for i, res := range results {
		s.r.trace.Subagents[first+i] = res
	}
	s.r.mu.Unlock()
	return render(results, o.cfg.ReportTokens, o.cfg.SubagentTimeout.String(), first), len(results)
}

func (s *spawnTool) runOne(ctx context.Context, spawn int, t Task) SubagentTrace {
	o := s.r.o
	st := SubagentTrace{Spawn: spawn, Name: t.Name, Task: t.Task, Servers: t.Servers}
	ctx, cancel := context.WithTimeout(ctx, o.cfg.SubagentTimeout)
	defer cancel()
	m, err := o.cfg.SubagentModel(t)
	if err != nil {
		st.Error = err.Error()
		return st
	}
	cfg := o.cfg.Subagent
	cfg.Servers, cfg.Model, cfg.Name = t.Servers, m, t.Name
	cfg.Catalog = o.cat
	bctx, span := mcpeino.StartCreateAgentSpan(ctx, o.mx.TracerProvider(), t.Name)
	sa, err := subagent.New(bctx, o.mx, cfg)
	mcpeino.EndSpan(span, err)
	if err != nil {
		st.Error = err.Error()
		return st
	}
	rep, err := sa.Run(ctx, t.Task)
	st.Report = rep
	if err != nil {
		st.Error = err.Error()
		st.TimedOut = errors.Is(err, context.DeadlineExceeded) || ctx.Err() == context.DeadlineExceeded
	}
	return st
}

// render writes one section per subagent: the answer and a compact call log
// by server (counts per status, no tool names: the orchestrator plans by
// server and kind only). Each section gets an equal share of the budget.
func render(results []SubagentTrace, budget int, timeout string, first int) string {
	share := budget / max(1, len(results))
	var b strings.Builder
	for i, r := range results {
		var sec strings.Builder
		sec.WriteString(reportHeader(first+i, r.Name, r.Servers, r.Task))
		switch {
		case r.TimedOut:
			sec.WriteString(timedOutText(timeout, r.Report != nil && (r.Report.Answer != "" || len(r.Report.Calls) > 0)))
		case r.Error != "":
			sec.WriteString(failedText(errors.New(r.Error)))
		}
		if r.Report != nil {
			if r.Report.Answer != "" {
				sec.WriteString("answer: " + r.Report.Answer + "\n")
			}
			if log := callLog(r.Report); log != "" {
				sec.WriteString("calls: " + log + "\n")
			}
		}
		b.WriteString(trim(sec.String(), share))
		b.WriteByte('\n')
	}
	return b.String()
}

func callLog(rep *subagent.Report) string {
	per := map[string]map[string]int{}
	for _, c := range rep.Calls {
		if per[c.Server] == nil {
			per[c.Server] = map[string]int{}
		}
		per[c.Server][c.Status]++
	}
	var parts []string
	for _, srv := range slices.Sorted(maps.Keys(per)) {
		var st []string
		for _, k := range slices.Sorted(maps.Keys(per[srv])) {
			st = append(st, fmt.Sprintf("%d %s", per[srv][k], k))
		}
		parts = append(parts, srv+" ("+strings.Join(st, ", ")+")")
	}
	return strings.Join(parts, "; ")
}

// trim cuts s to at most n o200k tokens, marking the cut.
func trim(s string, n int) string {
	c := tokens.Count(s)
	if c <= n {
		return s
	}
	for len(s) > 0 {
		cut := min(len(s)-1, len(s)*n/c*95/100)
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:max(cut, 0)]
		if c = tokens.Count(s + trimmedMark); c <= n {
			return s + trimmedMark
		}
	}
	return trimmedMark
}
