package subagent

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/schema"

	"github.com/mcpfleet/mcpfleet/catalog"
)

// Meta-tool names.
const (
	LoadToolsName   = "loadTools"
	SearchToolsName = "searchTools"
)

func metaTools(sa *Subagent) []tool.BaseTool {
	return []tool.BaseTool{&loadTool{sa: sa}, &searchTool{sa: sa}}
}

type loadTool struct{ sa *Subagent }

func (l *loadTool) Info(context.Context) (*schema.ToolInfo, error) {
	return &schema.ToolInfo{Name: LoadToolsName, Desc: loadToolsDesc, ParamsOneOf: schema.NewParamsOneOfByParams(map[string]*schema.ParameterInfo{
		"names": {Type: schema.Array, ElemInfo: &schema.ParameterInfo{Type: schema.String}, Desc: "Tool names to load", Required: true},
	})}, nil
}

func (l *loadTool) InvokableRun(ctx context.Context, args string, _ ...tool.Option) (string, error) {
	var in struct {
		Names []string `json:"names"`
	}
	if err := json.Unmarshal([]byte(args), &in); err != nil {
		return fmt.Sprintf("REJECTED loadTools: want {\"names\": [\"tool\", ...]} (%v)", err), nil
	}
	if held := len(l.sa.sess.Active()) + reservedTools; held+len(in.Names) > MaxTools {
		return toolLimitText(held, len(in.Names)), nil
	}
	res, err := l.sa.sess.LoadContext(ctx, in.Names)
	l.sa.run.loaded(res.Loaded)
	return loadText(res, l.sa.callNames(res.Loaded), err), nil
}

type searchTool struct{ sa *Subagent }

func (s *searchTool) Info(context.Context) (*schema.ToolInfo, error) {
	return &schema.ToolInfo{Name: SearchToolsName, Desc: searchToolsDesc, ParamsOneOf: schema.NewParamsOneOfByParams(map[string]*schema.ParameterInfo{
		"query": {Type: schema.String, Desc: "What the tool should do", Required: true},
		"k":     {Type: schema.Integer, Desc: "How many results (default 5)"},
	})}, nil
}

func (s *searchTool) InvokableRun(ctx context.Context, args string, _ ...tool.Option) (string, error) {
	var in struct {
		Query string `json:"query"`
		K     int    `json:"k"`
	}
	if err := json.Unmarshal([]byte(args), &in); err != nil || in.Query == "" {
		return "REJECTED searchTools: want {\"query\": \"what the tool should do\"}", nil
	}
	if in.K <= 0 || in.K > 20 {
		in.K = 5
	}
	hits := s.sa.sess.Search(ctx, in.Query, in.K)
	return searchText(hits, func(h catalog.Hit) string { return s.sa.loadName(h.Kind, h.Tool, h.Servers) }), nil
}

// loadName is what to pass to loadTools to load kind.tool on every server
// of the kind: the tool name when no other kind has it, else kind.tool.
// When a server is named like the kind and has the tool, the catalog reads
// "kind.tool" as that one server, so the kind's servers are listed one by
// one ("wiki.echo, wiki-2.echo").
func (sa *Subagent) loadName(kind, tool string, servers []string) string {
	shared := false
	for _, s := range sa.plan.Specs {
		if s.Tool == tool && s.Kind != kind {
			shared = true
			break
		}
	}
	if !shared {
		return tool
	}
	if srvKind, ok := sa.mx.KindOf(kind); ok {
		if _, ok := sa.plan.ByTool(srvKind, tool, kind); ok {
			names := make([]string, len(servers))
			for i, srv := range servers {
				names[i] = srv + "." + tool
			}
			return strings.Join(names, ", ")
		}
	}
	return kind + "." + tool
}

// callNames maps loadTools names to the tool name the model then calls.
func (sa *Subagent) callNames(loaded []string) map[string]string {
	out := map[string]string{}
	for _, n := range loaded {
		for _, s := range sa.plan.Specs {
			if n == s.Tool || n == s.Kind+"."+s.Tool || serverDotTool(n, s.Servers, s.Tool) {
				out[n] = s.Name
				break
			}
		}
	}
	return out
}

func serverDotTool(n string, servers []string, tool string) bool {
	for _, s := range servers {
		if n == s+"."+tool {
			return true
		}
	}
	return false
}
