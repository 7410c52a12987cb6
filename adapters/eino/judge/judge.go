package judge

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/cloudwego/eino/components/model"
	"github.com/cloudwego/eino/schema"
	"golang.org/x/sync/errgroup"

	"github.com/mcpfleet/mcpfleet/config"
	"github.com/mcpfleet/mcpfleet/internal/neutralize"
)

// DefaultParallel is how many definitions JudgeLock sends at a time
// when its parallel argument is 0 or less.
const DefaultParallel = 4

// Judge asks a chat model whether tool definitions are poisoned. It is
// safe for concurrent use if its model is.
type Judge struct {
	model model.BaseChatModel
	by    string
}

// New returns a judge that asks m and records by (the model's name) in
// every verdict.
func New(m model.BaseChatModel, by string) *Judge { return &Judge{model: m, by: by} }

// Judge asks the model about one definition, the canonical JSON that
// fleet.lock keeps (config.LockedTool.Definition). A poisoned verdict
// carries the model's evidence and, when the evidence is a quote of one
// text of the definition, the field it sits in. A reply that is not a
// verdict is a *ReplyError.
func (j *Judge) Judge(ctx context.Context, definition json.RawMessage) (config.Judgement, error) {
	msg, err := j.model.Generate(ctx, []*schema.Message{schema.SystemMessage(systemPrompt), schema.UserMessage(userMessage(definition))},
		model.WithTemperature(0))
	if err != nil {
		return config.Judgement{}, err
	}
	v, err := parseReply(msg.Content)
	if err != nil {
		return config.Judgement{}, err
	}
	v.By = j.by
	if v.Verdict == config.VerdictPoisoned {
		v.Field = fieldOf(definition, v.Evidence)
	}
	return v, nil
}

// ToolError is a definition JudgeLock could not judge.
type ToolError struct {
	Kind, Tool string
	Err        error
}

func (e *ToolError) Error() string { return "judge: " + e.Kind + "/" + e.Tool + ": " + e.Err.Error() }

func (e *ToolError) Unwrap() error { return e.Err }

// JudgeLock judges every tool of lock that has a definition and no
// verdict, at most parallel at a time (DefaultParallel when parallel is
// 0 or less), and records each verdict in lock. A tool that fails keeps
// no verdict and is one *ToolError of errs, in kind and tool order; the
// others are judged all the same. judged counts the verdicts recorded.
func (j *Judge) JudgeLock(ctx context.Context, lock *config.Lock, parallel int) (judged int, errs []error) {
	type job struct{ kind, tool string }
	var jobs []job
	for _, kind := range slices.Sorted(maps.Keys(lock.Kinds)) {
		for _, tool := range slices.Sorted(maps.Keys(lock.Kinds[kind].Tools)) {
			if lt := lock.Kinds[kind].Tools[tool]; lt.Judged == nil && len(lt.Definition) > 0 {
				jobs = append(jobs, job{kind, tool})
			}
		}
	}
	verdicts := make([]*config.Judgement, len(jobs))
	failures := make([]error, len(jobs))
	var g errgroup.Group
	g.SetLimit(cmpOr(parallel, DefaultParallel))
	for i, jb := range jobs {
		def := lock.Kinds[jb.kind].Tools[jb.tool].Definition
		g.Go(func() error {
			if err := ctx.Err(); err != nil {
				failures[i] = &ToolError{Kind: jb.kind, Tool: jb.tool, Err: err}
				return nil
			}
			v, err := j.Judge(ctx, def)
			if err != nil {
				failures[i] = &ToolError{Kind: jb.kind, Tool: jb.tool, Err: err}
				return nil
			}
			verdicts[i] = &v
			return nil
		})
	}
	g.Wait()
	for i, jb := range jobs {
		if failures[i] != nil {
			errs = append(errs, failures[i])
			continue
		}
		lt := lock.Kinds[jb.kind].Tools[jb.tool]
		lt.Judged = verdicts[i]
		lock.Kinds[jb.kind].Tools[jb.tool] = lt
		judged++
	}
	return judged, errs
}

func cmpOr(n, def int) int {
	if n <= 0 {
		return def
	}
	return n
}

// fieldOf is where evidence sits in definition: the path of the first
// text a model reads (description, title, a schema's descriptions, enum
// values and so on) that holds it, with runs of spaces counted as one;
// "" when no text does, as when the model paraphrased.
func fieldOf(definition json.RawMessage, evidence string) string {
	want := squash(evidence)
	if want == "" {
		return ""
	}
	var v any
	if json.Unmarshal(definition, &v) != nil {
		return ""
	}
	field := ""
	neutralize.SchemaTexts(v, func(path, text string) {
		if field == "" && strings.Contains(squash(text), want) {
			field = strings.TrimPrefix(path, "/")
		}
	})
	return field
}

// squash lowers s and joins its runs of white space into one space.
func squash(s string) string { return strings.ToLower(strings.Join(strings.Fields(s), " ")) }

// ReplyError is a model reply that is not a verdict: Field is the part
// that is wrong ("reply" for the whole), Got what it held, Want what was
// expected, and Hint the nearest valid value, if any.
type ReplyError struct {
	Field, Got, Want, Hint string
}

func (e *ReplyError) Error() string {
	s := fmt.Sprintf("judge: reply %s: got %q, want %s", e.Field, e.Got, e.Want)
	if e.Hint != "" {
		s += fmt.Sprintf(" (did you mean %q?)", e.Hint)
	}
	return s
}
