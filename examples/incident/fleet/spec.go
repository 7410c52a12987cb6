package fleet

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"go.opentelemetry.io/otel/trace"

	"github.com/mcpfleet/mcpfleet"
)

// param is one argument of a simulated tool.
type param struct {
	Name     string
	Type     string // string | integer | number | boolean | array | object; "" leaves the value untyped
	Nullable bool   // also accepts JSON null, as several real servers declare
	Desc     string
	Required bool
	Enum     []string
	Items    string         // item type for arrays ("string", "integer", "object")
	Props    []param        // properties for objects, or for array items of type object
	Default  any            // optional default value
	Extra    map[string]any // any further schema keywords (minimum, pattern, ...)
}

// Shorthands for the params of the tool tables.

func pStr(name, desc string) param { return param{Name: name, Type: "string", Desc: desc} }
func pReq(name, desc string) param {
	return param{Name: name, Type: "string", Desc: desc, Required: true}
}
func pBool(name, desc string) param {
	return param{Name: name, Type: "boolean", Desc: desc}
}
func pInt(name, desc string, def int) param {
	return param{Name: name, Type: "integer", Desc: desc, Default: def}
}
func pNum(name, desc string) param { return param{Name: name, Type: "number", Desc: desc} }
func pArr(name, items, desc string) param {
	return param{Name: name, Type: "array", Items: items, Desc: desc}
}
func pObj(name, desc string) param { return param{Name: name, Type: "object", Desc: desc} }
func pEnum(name, desc string, vals ...string) param {
	return param{Name: name, Type: "string", Desc: desc, Enum: vals}
}

// toolSpec is one simulated tool.
type toolSpec struct {
	Name        string
	Title       string
	Desc        string
	ReadOnly    bool // readOnlyHint; write tools leave it false
	Destructive bool // destructiveHint
	Params      []param
	Handle      handler // nil: answered by the kind's default handler
}

// Instance identifies one running simulated server.
type Instance struct {
	Kind     string
	Name     string
	ReadOnly bool // a read-only instance does not expose write tools
	// Tracer, if set, makes each tools/call a server span that joins the
	// caller's trace through the request's _meta, as a traced MCP server
	// does.
	Tracer trace.TracerProvider
}

// kindSpec is one kind of simulated server.
type kindSpec struct {
	// Tools lists every tool of the kind; a read-only instance keeps only
	// those with ReadOnly set.
	Tools func() []toolSpec
	// Default answers tools that have no handler of their own.
	Default handler
}

func (p param) schema() map[string]any {
	s := map[string]any{}
	switch {
	case p.Type == "":
	case p.Nullable:
		s["type"] = []string{p.Type, "null"}
	default:
		s["type"] = p.Type
	}
	if p.Desc != "" {
		s["description"] = p.Desc
	}
	if len(p.Enum) > 0 {
		s["enum"] = p.Enum
	}
	if p.Default != nil {
		s["default"] = p.Default
	}
	switch p.Type {
	case "array":
		item := map[string]any{"type": p.Items}
		if p.Items == "" {
			item["type"] = "string"
		}
		if p.Items == "object" && len(p.Props) > 0 {
			item = objectSchema(p.Props)
		}
		s["items"] = item
	case "object":
		if len(p.Props) > 0 {
			o := objectSchema(p.Props)
			o["description"] = p.Desc
			o["type"] = s["type"]
			s = o
		}
	}
	for k, v := range p.Extra {
		s[k] = v
	}
	return s
}

func objectSchema(params []param) map[string]any {
	props := map[string]any{}
	var req []string
	for _, p := range params {
		props[p.Name] = p.schema()
		if p.Required {
			req = append(req, p.Name)
		}
	}
	o := map[string]any{"type": "object", "properties": props}
	if len(req) > 0 {
		sort.Strings(req)
		o["required"] = req
	}
	return o
}

// mcpTool builds the MCP tool definition with explicit hints: mcp-go's
// defaults (destructive, open-world) would be wrong for read tools.
func (t toolSpec) mcpTool() mcp.Tool {
	raw, err := json.Marshal(objectSchema(t.Params))
	if err != nil {
		panic(fmt.Sprintf("fleet: tool %s: %v", t.Name, err)) // programmer error in a static table
	}
	ro, destr, idem, open := t.ReadOnly, t.Destructive, t.ReadOnly, true
	return mcp.Tool{
		Name:           t.Name,
		Title:          t.Title,
		Description:    t.Desc,
		RawInputSchema: raw,
		Annotations: mcp.ToolAnnotation{
			Title:           t.Title,
			ReadOnlyHint:    &ro,
			DestructiveHint: &destr,
			IdempotentHint:  &idem,
			OpenWorldHint:   &open,
		},
	}
}

// NewServer returns the simulated MCP server for one instance.
func NewServer(in Instance) (*server.MCPServer, error) {
	ks, ok := kinds()[in.Kind]
	if !ok {
		return nil, fmt.Errorf("fleet: unknown kind %q (have %v)", in.Kind, Kinds())
	}
	opts := []server.ServerOption{server.WithToolCapabilities(true)}
	if tp := in.Tracer; tp != nil {
		opts = append(opts, server.WithToolHandlerMiddleware(func(next server.ToolHandlerFunc) server.ToolHandlerFunc {
			return func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				ctx, span := mcpfleet.StartServerSpan(ctx, tp, req)
				defer span.End()
				return next(ctx, req)
			}
		}))
	}
	s := server.NewMCPServer(in.Name, "0.1.0", opts...)
	for _, t := range ks.Tools() {
		if in.ReadOnly && !t.ReadOnly {
			continue
		}
		h := t.Handle
		if h == nil {
			h = ks.Default
		}
		s.AddTool(t.mcpTool(), func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return h(ctx, in, req.GetArguments())
		})
	}
	return s, nil
}

// Kinds lists the simulated kinds, sorted.
func Kinds() []string {
	var ks []string
	for k := range kinds() {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// Tools returns the tool definitions an instance exposes, without starting it.
func Tools(in Instance) ([]mcp.Tool, error) {
	ks, ok := kinds()[in.Kind]
	if !ok {
		return nil, fmt.Errorf("fleet: unknown kind %q (have %v)", in.Kind, Kinds())
	}
	var out []mcp.Tool
	for _, t := range ks.Tools() {
		if in.ReadOnly && !t.ReadOnly {
			continue
		}
		out = append(out, t.mcpTool())
	}
	return out, nil
}
