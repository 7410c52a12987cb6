package gateway

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"go.opentelemetry.io/otel/trace"

	"github.com/mcpfleet/mcpfleet"
	"github.com/mcpfleet/mcpfleet/catalog"
	detachctx "github.com/mcpfleet/mcpfleet/internal/detach"
)

// Tool names: a contract with every client and prompt that names them.
const (
	ToolListKinds     = "listKinds"
	ToolSearchTools   = "searchTools"
	ToolDescribeTools = "describeTools"
	ToolCallTool      = "callTool"
	// ToolReadResult and ToolGrepResult read results the Mux offloaded;
	// callTool's preview of such a result names them.
	ToolReadResult = "readResult"
	ToolGrepResult = "grepResult"
)

func boolp(b bool) *bool { return &b }

func (g *Gateway) tools() []server.ServerTool {
	ro := mcp.ToolAnnotation{ReadOnlyHint: boolp(true), DestructiveHint: boolp(false), IdempotentHint: boolp(true), OpenWorldHint: boolp(false)}
	// callTool may reach any tool of the fleet, so it claims nothing.
	rw := mcp.ToolAnnotation{ReadOnlyHint: boolp(false), DestructiveHint: boolp(true), IdempotentHint: boolp(false), OpenWorldHint: boolp(true)}
	def := func(name, desc, schema string, a mcp.ToolAnnotation) mcp.Tool {
		t := mcp.NewToolWithRawSchema(name, desc, json.RawMessage(schema))
		t.Annotations = a
		return t
	}
	str := func(desc string) string { return fmt.Sprintf(`{"type":"string","description":%q}`, desc) }
	return []server.ServerTool{
		{Tool: def(ToolListKinds, descListKinds, `{"type":"object","properties":{},"additionalProperties":false}`, ro),
			Handler: g.track(ToolListKinds, g.listKinds)},
		{Tool: def(ToolSearchTools, descSearch, `{"type":"object","properties":{"query":`+str(descQuery)+`,"k":{"type":"integer","minimum":1,"maximum":20,"description":`+fmt.Sprintf("%q", descK)+`}},"required":["query"],"additionalProperties":false}`, ro),
			Handler: g.track(ToolSearchTools, g.searchTools)},
		{Tool: def(ToolDescribeTools, descDescribe, `{"type":"object","properties":{"names":{"type":"array","items":{"type":"string"},"minItems":1,"description":`+fmt.Sprintf("%q", descNames)+`}},"required":["names"],"additionalProperties":false}`, ro),
			Handler: g.track(ToolDescribeTools, g.describeTools)},
		{Tool: def(ToolCallTool, descCall, `{"type":"object","properties":{"server":`+str(descServer)+`,"tool":`+str(descTool)+`,"arguments":{"type":"object","description":`+fmt.Sprintf("%q", descArguments)+`}},"required":["server","tool"]}`, rw),
			Handler: g.track(ToolCallTool, g.callTool)},
		{Tool: def(ToolReadResult, descRead, `{"type":"object","properties":{"handle":`+str(descHandle)+`,"offset":{"type":"integer","minimum":0,"description":`+fmt.Sprintf("%q", descOffset)+`},"limit":{"type":"integer","minimum":1,"maximum":400,"description":`+fmt.Sprintf("%q", descLimit)+`}},"required":["handle"],"additionalProperties":false}`, ro),
			Handler: g.track(ToolReadResult, g.readResult)},
		{Tool: def(ToolGrepResult, descGrep, `{"type":"object","properties":{"handle":`+str(descHandle)+`,"pattern":`+str(descPattern)+`,"context":{"type":"integer","minimum":0,"maximum":5,"description":`+fmt.Sprintf("%q", descContext)+`}},"required":["handle","pattern"],"additionalProperties":false}`, ro),
			Handler: g.track(ToolGrepResult, g.grepResult)},
	}
}

// readResult and grepResult need no scope check: a handle is an
// unguessable capability issued only to a caller whose call was permitted,
// and the Mux refuses it to any other caller (the ctx carries the caller
// id that authenticate set), with the text of an unknown handle.
func (g *Gateway) readResult(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	h := req.GetString("handle", "")
	if strings.TrimSpace(h) == "" {
		return mcp.NewToolResultError(argMissing("handle")), nil
	}
	out, err := g.mux.ReadResult(ctx, h, req.GetInt("offset", 0), req.GetInt("limit", 0))
	if err != nil {
		return mcp.NewToolResultError(storeErrorText(err)), nil
	}
	return mcp.NewToolResultText(out), nil
}

func (g *Gateway) grepResult(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	h, pat := req.GetString("handle", ""), req.GetString("pattern", "")
	switch {
	case strings.TrimSpace(h) == "":
		return mcp.NewToolResultError(argMissing("handle")), nil
	case pat == "":
		return mcp.NewToolResultError(argMissing("pattern")), nil
	case len(pat) > g.cfg.MaxPatternBytes:
		return mcp.NewToolResultError(patternTooLong(g.cfg.MaxPatternBytes, len(pat))), nil
	}
	out, err := g.mux.GrepResult(ctx, h, pat, req.GetInt("context", 0))
	if err != nil {
		return mcp.NewToolResultError(storeErrorText(err)), nil
	}
	return mcp.NewToolResultText(out), nil
}

// track observes a request (see observe: in flight, counted, traced) and
// refuses it while shutting down.
func (g *Gateway) track(name string, h server.ToolHandlerFunc) server.ToolHandlerFunc {
	return g.observe(name, func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		if g.draining.Load() {
			return mcp.NewToolResultError(shuttingDown), nil
		}
		return h(ctx, req)
	})
}

// kinds returns the kinds with at least one tool the scopes permit.
func (g *Gateway) kinds(scopes []string) []kindLine {
	var out []kindLine
	idx := map[string]int{}
	for _, e := range g.catalog().Entries() {
		if !catalog.Permitted(e, scopes) {
			continue
		}
		i, ok := idx[e.Kind]
		if !ok {
			i = len(out)
			idx[e.Kind] = i
			out = append(out, kindLine{Kind: e.Kind})
		}
		out[i].Tools++
		for _, s := range e.Servers {
			if !slices.Contains(out[i].Servers, s) {
				out[i].Servers = append(out[i].Servers, s)
			}
		}
	}
	for i := range out {
		slices.Sort(out[i].Servers)
	}
	return out
}

func (g *Gateway) listKinds(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	return mcp.NewToolResultText(renderKinds(g.kinds(g.scopes(ctx))) + loadedLine(g.loaded(ctx))), nil
}

func (g *Gateway) searchTools(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	q := req.GetString("query", "")
	if len(q) > g.cfg.MaxQueryBytes {
		return mcp.NewToolResultError(queryTooLong(g.cfg.MaxQueryBytes, len(q))), nil
	}
	q = strings.TrimSpace(q)
	if q == "" {
		return mcp.NewToolResultError(argMissing("query")), nil
	}
	k := req.GetInt("k", catalog.DefaultK)
	hits := g.catalog().Search(catalog.WithScopes(ctx, g.scopes(ctx)...), q, k)
	if len(hits) == 0 {
		return mcp.NewToolResultText(noHits(q)), nil
	}
	var b strings.Builder
	for _, h := range hits {
		fmt.Fprintf(&b, "%s.%s [%s]: %s\n", h.Kind, h.Tool, strings.Join(h.Servers, ", "), h.Line)
		if h.AvoidWhen != "" {
			fmt.Fprintf(&b, "  avoid when: %s\n", h.AvoidWhen)
		}
	}
	return mcp.NewToolResultText(b.String()), nil
}

// described is one tool as describeTools returns it.
type described struct {
	Name        string          `json:"name"`
	Tool        string          `json:"tool"`
	Description string          `json:"description,omitempty"`
	InputSchema json.RawMessage `json:"inputSchema"`
}

func (g *Gateway) describeTools(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	names := req.GetStringSlice("names", nil)
	if len(names) == 0 {
		// A model that sends one name as a string still means it.
		if s := strings.TrimSpace(req.GetString("names", "")); s != "" {
			names = []string{s}
		} else {
			return mcp.NewToolResultError(describeNone), nil
		}
	}
	if len(names) > g.cfg.MaxDescribeNames {
		return mcp.NewToolResultError(tooManyNames(g.cfg.MaxDescribeNames, len(names))), nil
	}
	cat := g.catalog()
	scopes := g.scopes(ctx)
	var out []described
	var problems []string
	seen := map[string]int{} // kind.tool -> index in out
	for _, raw := range names {
		name := strings.TrimSpace(raw)
		if name == "" {
			continue
		}
		e, servers, problem := resolve(cat, scopes, name)
		if problem != "" {
			problems = append(problems, problem)
			continue
		}
		if i, ok := seen[e.Key()]; ok {
			// "k8s-1.pods_log" and "kubernetes.pods_log": one entry, the
			// union of the servers asked for.
			servers = union(serversOf(out[i].InputSchema), servers)
			out[i].InputSchema = withServer(e.Schema, servers)
			continue
		}
		seen[e.Key()] = len(out)
		out = append(out, described{Name: e.Key(), Tool: e.Tool, Description: e.Description, InputSchema: withServer(e.Schema, servers)})
	}
	var b strings.Builder
	if len(out) > 0 {
		js, err := json.MarshalIndent(out, "", " ")
		if err != nil {
			return nil, err
		}
		b.Write(js)
		b.WriteByte('\n')
	}
	for _, p := range problems {
		b.WriteString(p)
		b.WriteByte('\n')
	}
	res := mcp.NewToolResultText(b.String())
	res.IsError = len(out) == 0
	if len(out) > 0 {
		keys := make([]string, len(out))
		for i, d := range out {
			keys[i] = d.Name
		}
		g.recordLoads(ctx, keys)
	}
	return res, nil
}

// resolve maps a describeTools name to an entry and the servers it may be
// called on. Scopes decide visibility: a tool the caller may not use is
// reported exactly like an unknown one, so names cannot be probed.
func resolve(cat *catalog.Catalog, scopes []string, name string) (catalog.Entry, []string, string) {
	var hits []catalog.Entry
	for _, e := range cat.Entries() {
		if e.Tool == name && catalog.Permitted(e, scopes) {
			hits = append(hits, e)
		}
	}
	if len(hits) == 1 {
		return hits[0], hits[0].Servers, ""
	}
	if len(hits) > 1 {
		opts := make([]string, len(hits))
		for i, e := range hits {
			opts[i] = e.Key()
		}
		return catalog.Entry{}, nil, describeAmbiguous(name, opts)
	}
	if prefix, tool, ok := strings.Cut(name, "."); ok {
		if e, ok := cat.Lookup(prefix, tool); ok && catalog.Permitted(e, scopes) {
			return e, e.Servers, ""
		}
		if kind, ok := cat.KindOf(prefix); ok {
			if e, ok := cat.Lookup(kind, tool); ok && catalog.Permitted(e, scopes) && slices.Contains(e.Servers, prefix) {
				return e, []string{prefix}, ""
			}
		}
	}
	return catalog.Entry{}, nil, describeUnknown(name, suggest(cat, scopes, name))
}

// suggest returns up to three permitted names for a name that resolved to
// nothing, found by searching for its words.
func suggest(cat *catalog.Catalog, scopes []string, name string) []string {
	q := strings.NewReplacer(".", " ", "_", " ", "-", " ").Replace(name)
	var out []string
	for _, h := range cat.Search(catalog.WithScopes(context.Background(), scopes...), q, 3) {
		out = append(out, h.Kind+"."+h.Tool)
	}
	return out
}

// withServer returns schema with a required "server" property whose enum
// is servers. The model sends it as callTool's top-level server.
func withServer(schema json.RawMessage, servers []string) json.RawMessage {
	var m map[string]any
	if json.Unmarshal(schema, &m) != nil || m == nil {
		m = map[string]any{"type": "object"}
	}
	props, _ := m["properties"].(map[string]any)
	if props == nil {
		props = map[string]any{}
	}
	props["server"] = map[string]any{"type": "string", "enum": servers, "description": descServerArg}
	m["properties"] = props
	req, _ := m["required"].([]any)
	if !slices.Contains(req, any("server")) {
		m["required"] = append([]any{"server"}, req...)
	}
	b, err := json.Marshal(m)
	if err != nil {
		return schema
	}
	return b
}

// serversOf reads back the server enum withServer wrote.
func serversOf(schema json.RawMessage) []string {
	var m struct {
		Properties struct {
			Server struct {
				Enum []string `json:"enum"`
			} `json:"server"`
		} `json:"properties"`
	}
	_ = json.Unmarshal(schema, &m)
	return m.Properties.Server.Enum
}

func union(a, b []string) []string {
	out := slices.Concat(a, b)
	slices.Sort(out)
	return slices.Compact(out)
}

func (g *Gateway) callTool(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	in := req.GetArguments()
	srv, _ := in["server"].(string)
	tool, _ := in["tool"].(string)
	args, isObject := argumentsOf(in["arguments"])
	// Models copy describeTools' schema, "server" included, into arguments.
	if s, ok := args["server"].(string); ok {
		if srv == "" {
			srv = s
		}
		if def, ok := g.mux.Tool(srv, tool); !ok || !hasProperty(def, "server") {
			delete(args, "server")
		}
	}
	// "kind.tool" or "server.tool" where a bare tool name belongs.
	if _, ok := g.mux.Tool(srv, tool); !ok {
		if prefix, rest, ok := strings.Cut(tool, "."); ok {
			if k, _ := g.mux.KindOf(srv); prefix == k || prefix == srv {
				tool = rest
			}
		}
	}
	switch {
	case srv == "":
		return mcp.NewToolResultError(argMissing("server")), nil
	case tool == "":
		return mcp.NewToolResultError(argMissing("tool")), nil
	}
	if kind, ok := g.mux.KindOf(srv); ok {
		var gate *catalog.GateError
		if errors.As(g.catalog().Permit(srv, tool, g.scopes(ctx)), &gate) {
			_, reason := mcpfleet.Classify(nil, gate)
			g.refused(ctx, srv, tool, reason)
			return mcp.NewToolResultError(gate.ModelText()), nil
		}
		if refusal := g.admit(ctx, srv, kind); refusal != "" {
			g.refused(ctx, srv, tool, ReasonRateLimited)
			return mcp.NewToolResultError(refusal), nil
		}
	}
	dctx, stop := detach(ctx, g.scopes(ctx))
	defer stop()
	var res *mcpfleet.Result
	var err error
	if isObject {
		// Decoded already: no map → JSON → map round trip.
		res, err = g.mux.CallToolArgs(dctx, srv, tool, args)
	} else {
		// Not an object: the Mux words the rejection from the JSON.
		raw, merr := json.Marshal(in["arguments"])
		if merr != nil {
			return mcp.NewToolResultError(merr.Error()), nil
		}
		res, err = g.mux.CallTool(dctx, srv, tool, raw)
	}
	var rej *mcpfleet.RejectError
	var up *mcpfleet.UpstreamError
	switch {
	// The Mux counted the call's outcome through its Metrics.
	case errors.As(err, &rej):
		return mcp.NewToolResultError(rej.ModelText()), nil
	case errors.As(err, &up):
		return mcp.NewToolResultError(upstreamText(up)), nil
	case err != nil:
		return mcp.NewToolResultError(upstreamText(fmt.Errorf("%s.%s: %w", srv, tool, err))), nil
	}
	out := res.CallToolResult
	if len(res.Repairs) > 0 {
		// Tells the caller which repairs were applied, without putting
		// anything in the content the model reads.
		meta := &mcp.Meta{AdditionalFields: map[string]any{"mcpfleet/repairs": res.Repairs}}
		if out.Meta != nil {
			meta.ProgressToken = out.Meta.ProgressToken
			for k, v := range out.Meta.AdditionalFields {
				meta.AdditionalFields[k] = v
			}
		}
		out.Meta = meta
	}
	return &out, nil
}

// argumentsOf returns callTool's arguments as an object. Models often send
// the object JSON-encoded as a string; that is decoded. Anything else that
// is not an object gives false, and is passed on as sent for the Mux to
// reject with its own text.
func argumentsOf(v any) (map[string]any, bool) {
	switch a := v.(type) {
	case nil:
		return map[string]any{}, true
	case map[string]any:
		return a, true
	case string:
		var m map[string]any
		if json.Unmarshal([]byte(a), &m) == nil && m != nil {
			return m, true
		}
		if strings.TrimSpace(a) == "" {
			return map[string]any{}, true
		}
	}
	return nil, false
}

func hasProperty(t mcp.Tool, name string) bool {
	if len(t.RawInputSchema) > 0 {
		var m struct {
			Properties map[string]json.RawMessage `json:"properties"`
		}
		_ = json.Unmarshal(t.RawInputSchema, &m)
		_, ok := m.Properties[name]
		return ok
	}
	_, ok := t.InputSchema.Properties[name]
	return ok
}

// detach keeps a request's deadline and cancellation but none of its
// values except the caller's scopes and caller id. mcp-go's server puts the
// incoming HTTP headers and the client session on the handler's ctx; an
// in-process upstream server reads them back from the ctx of the call the
// Mux makes (and rejects the call: "Mcp-Name header value callTool does not
// match body value pods_delete"), and would apply its protocol state to our
// client's session. The price is that values such as trace spans do not
// cross the gateway.
func detach(ctx context.Context, scopes []string) (context.Context, context.CancelFunc) {
	out, stop := detachctx.Values(ctx)
	out = catalog.WithScopes(out, scopes...)
	// The caller id makes the Mux record who may read a result it
	// offloads; losing it here would hand every token's results to all.
	if id := mcpfleet.CallerFrom(ctx); id != "" {
		out = mcpfleet.WithCaller(out, id)
	}
	// The request's span is kept, so the Mux's spans are children of the
	// gateway's server span.
	if span := trace.SpanFromContext(ctx); span.SpanContext().IsValid() {
		out = trace.ContextWithSpan(out, span)
	}
	return out, stop
}
