package eino

import (
	"context"
	"encoding/json"
	"errors"
	"strings"

	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/schema"

	"github.com/mcpfleet/mcpfleet"
)

// Names of the tools that read offloaded results.
const (
	ReadResultName = "readResult"
	GrepResultName = "grepResult"
)

// ResultTools returns readResult and grepResult over mx's ResultStore, or
// nil when mx does not offload. A result too large for the context is kept
// out of it by the Mux; the model gets a preview and a handle, and these
// tools let it read on. Like every fleet tool they answer with text, never
// a Go error.
func ResultTools(mx *mcpfleet.Mux) []tool.BaseTool {
	if !mx.Offloading() {
		return nil
	}
	return []tool.BaseTool{&readResultTool{mx}, &grepResultTool{mx}}
}

type readResultTool struct{ mx *mcpfleet.Mux }

func (t *readResultTool) Info(context.Context) (*schema.ToolInfo, error) {
	return &schema.ToolInfo{Name: ReadResultName, Desc: readResultDesc, ParamsOneOf: schema.NewParamsOneOfByParams(map[string]*schema.ParameterInfo{
		"handle": {Type: schema.String, Desc: "The handle from the preview, r-…", Required: true},
		"offset": {Type: schema.Integer, Desc: "First line to read, from 0"},
		"limit":  {Type: schema.Integer, Desc: "How many lines (at most 400)"},
	})}, nil
}

func (t *readResultTool) InvokableRun(ctx context.Context, args string, _ ...tool.Option) (string, error) {
	var in struct {
		Handle string `json:"handle"`
		Offset int    `json:"offset"`
		Limit  int    `json:"limit"`
	}
	if err := json.Unmarshal([]byte(args), &in); err != nil || in.Handle == "" {
		return `REJECTED readResult: want {"handle": "r-…", "offset": 0, "limit": 100}`, nil
	}
	out, err := t.mx.ReadResult(ctx, in.Handle, in.Offset, in.Limit)
	return resultText(ReadResultName, "", out, err), nil
}

type grepResultTool struct{ mx *mcpfleet.Mux }

func (t *grepResultTool) Info(context.Context) (*schema.ToolInfo, error) {
	return &schema.ToolInfo{Name: GrepResultName, Desc: grepResultDesc, ParamsOneOf: schema.NewParamsOneOfByParams(map[string]*schema.ParameterInfo{
		"handle":  {Type: schema.String, Desc: "The handle from the preview, r-…", Required: true},
		"pattern": {Type: schema.String, Desc: "An RE2 regular expression", Required: true},
		"context": {Type: schema.Integer, Desc: "Lines of context around each match (0 to 5)"},
	})}, nil
}

func (t *grepResultTool) InvokableRun(ctx context.Context, args string, _ ...tool.Option) (string, error) {
	var in struct {
		Handle  string `json:"handle"`
		Pattern string `json:"pattern"`
		Context int    `json:"context"`
	}
	if err := json.Unmarshal([]byte(args), &in); err != nil || in.Handle == "" || in.Pattern == "" {
		return `REJECTED grepResult: want {"handle": "r-…", "pattern": "RE2 regexp", "context": 2}`, nil
	}
	out, err := t.mx.GrepResult(ctx, in.Handle, in.Pattern, in.Context)
	return resultText(GrepResultName, in.Pattern, out, err), nil
}

func resultText(name, pattern, out string, err error) string {
	switch {
	case errors.Is(err, mcpfleet.ErrResultNotFound):
		return "REJECTED " + name + ": no stored result by that handle (it may have expired); call the original tool again"
	case errors.Is(err, mcpfleet.ErrBadPattern):
		return badPatternText(pattern, err)
	case err != nil:
		// The Go package prefix helps logs, not models.
		return "REJECTED " + name + ": " + strings.TrimPrefix(err.Error(), "mcpfleet: ")
	}
	return out
}
