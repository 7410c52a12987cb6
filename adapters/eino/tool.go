package eino

import (
	"context"
	"encoding/json"
	"slices"

	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/schema"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpfleet/mcpfleet"
)

// Tool is one kind-folded fleet tool as an eino tool.InvokableTool.
type Tool struct {
	mx     *mcpfleet.Mux
	spec   Spec
	info   *schema.ToolInfo
	onCall func(context.Context, CallRecord)
	cache  *Cache // nil: convert every time
}

var _ tool.InvokableTool = (*Tool)(nil)

// ToolsConfig configures NewTools.
type ToolsConfig struct {
	// Servers limits the tools to these servers; nil means every server.
	Servers []string
	// OnCall, if set, sees every call the tools make (after it finished).
	OnCall func(context.Context, CallRecord)
	// Cache, if set, shares schema conversions with other tools of the Mux.
	Cache *Cache
}

// NewTools folds the fleet's tools (see Fold) and returns them as eino tools,
// with the drift that kept some tools from folding.
func NewTools(mx *mcpfleet.Mux, cfg ToolsConfig) ([]*Tool, Plan, error) {
	plan := Fold(mx.KindGroups(), mx.Tool)
	if cfg.Servers != nil {
		plan = plan.Restrict(cfg.Servers)
	}
	tools := make([]*Tool, 0, len(plan.Specs))
	for _, s := range plan.Specs {
		t, err := cfg.Cache.NewTool(mx, s, cfg.OnCall)
		if err != nil {
			return nil, plan, err
		}
		tools = append(tools, t)
	}
	return tools, plan, nil
}

// Restrict keeps only the specs and enum values of the given servers.
func (p Plan) Restrict(servers []string) Plan {
	var out Plan
	for _, s := range p.Specs {
		var keep []string
		for _, srv := range s.Servers {
			if slices.Contains(servers, srv) {
				keep = append(keep, srv)
			}
		}
		if len(keep) > 0 {
			s.Servers = keep
			out.Specs = append(out.Specs, s)
		}
	}
	for _, d := range p.Drift {
		for _, v := range d.Variants {
			if slices.ContainsFunc(v, func(s string) bool { return slices.Contains(servers, s) }) {
				out.Drift = append(out.Drift, d)
				break
			}
		}
	}
	return out
}

// NewTool makes an eino tool from one spec. onCall may be nil. It converts
// the schema each time; Cache.NewTool shares the conversion.
func NewTool(mx *mcpfleet.Mux, s Spec, onCall func(context.Context, CallRecord)) (*Tool, error) {
	return (*Cache)(nil).NewTool(mx, s, onCall)
}

// Spec returns what the tool was built from.
func (t *Tool) Spec() Spec { return t.spec }

// Info returns the tool's definition with every server of the spec in the enum.
func (t *Tool) Info(context.Context) (*schema.ToolInfo, error) { return t.info, nil }

// InfoFor returns the definition with the server enum narrowed to servers,
// which is how an agent shows only the servers active in its session.
// Narrowed to one server, the server is bound: the definition has no
// server parameter, and Bind gives a call without one that server.
// With a Cache the result is shared: do not modify it.
func (t *Tool) InfoFor(servers []string) (*schema.ToolInfo, error) {
	return t.cache.info(t.spec, servers, len(servers) == 1)
}

// IsCallbacksEnabled reports true: Call reports to eino callbacks itself,
// with the server and tool, so eino must not wrap the tool a second time.
func (t *Tool) IsCallbacksEnabled() bool { return true }

// Target resolves the server a call goes to and the arguments to forward
// (without "server"). A non-empty refusal is model-facing text.
func (t *Tool) Target(argsJSON string) (server string, args json.RawMessage, refusal string) {
	var m map[string]json.RawMessage
	if argsJSON == "" {
		argsJSON = "{}"
	}
	if err := json.Unmarshal([]byte(argsJSON), &m); err != nil {
		return "", nil, badArgsText(t.spec.Name, err.Error())
	}
	if !t.spec.ServerArg {
		return t.spec.Servers[0], json.RawMessage(argsJSON), ""
	}
	raw, ok := m[ServerParam]
	if !ok {
		return "", nil, missingServerText(t.spec.Name, t.spec.Servers)
	}
	if err := json.Unmarshal(raw, &server); err != nil || !slices.Contains(t.spec.Servers, server) {
		return "", nil, wrongServerText(t.spec.Name, string(raw), t.spec.Servers)
	}
	delete(m, ServerParam)
	if m == nil {
		m = map[string]json.RawMessage{}
	}
	b, _ := json.Marshal(m)
	return server, b, ""
}

// Bind returns argsJSON with the "server" argument set to the one server
// in shown when the call names none: the call of a tool shown bound (see
// InfoFor), in the form Target and InvokableRun take. Anything else comes
// back unchanged, to be judged by Target.
func (t *Tool) Bind(argsJSON string, shown []string) string {
	if !t.spec.ServerArg || len(shown) != 1 {
		return argsJSON
	}
	in := argsJSON
	if in == "" {
		in = "{}"
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal([]byte(in), &m); err != nil {
		return argsJSON
	}
	if _, ok := m[ServerParam]; ok {
		return argsJSON
	}
	if m == nil {
		m = map[string]json.RawMessage{}
	}
	m[ServerParam], _ = json.Marshal(shown[0])
	b, _ := json.Marshal(m)
	return string(b)
}

// InvokableRun calls the MCP tool. Failures come back as text, never as an
// error, so the agent run continues (see Call).
func (t *Tool) InvokableRun(ctx context.Context, argumentsInJSON string, _ ...tool.Option) (string, error) {
	rec, _ := t.run(ctx, argumentsInJSON)
	return rec.Text, nil
}

// run is InvokableRun's call: the refusal of a bad server argument, or the
// call through the Mux with the result it was rendered from. Either way
// the record goes to the OnCall hook.
func (t *Tool) run(ctx context.Context, argumentsInJSON string) (CallRecord, *mcp.CallToolResult) {
	server, args, refusal := t.Target(argumentsInJSON)
	var rec CallRecord
	var res *mcp.CallToolResult
	if refusal != "" {
		rec = CallRecord{Name: t.spec.Name, Server: server, Tool: t.spec.Tool, Args: json.RawMessage(argumentsInJSON),
			Status: StatusRejected, Detail: "bad_server", Text: refusal}
	} else {
		rec, res = call(ctx, t.mx, t.spec.Name, server, t.spec.Tool, args)
	}
	if t.onCall != nil {
		t.onCall(ctx, rec)
	}
	return rec, res
}
