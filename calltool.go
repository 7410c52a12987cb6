package mcpfleet

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
	"go.opentelemetry.io/otel/trace"

	"github.com/mcpfleet/mcpfleet/internal/detach"
	"github.com/mcpfleet/mcpfleet/internal/upstream"
	"github.com/mcpfleet/mcpfleet/normalizers"
)

// CallTool calls one tool on one server through the pipeline, in this order:
//
//  1. resolve the server and tool (unknown names are rejected with the
//     closest valid one; a down server gives server_down);
//  2. check that the arguments are a JSON object;
//  3. run the kind's, then the server's argument transformers, then the
//     field map;
//  4. reject placeholders ("", "undefined", "<none>", …) at any depth, drop
//     JSON null on optional fields, reject it on required ones;
//  5. validate against the tool's input schema (compiled once);
//  6. run the BeforeFuncs;
//  7. call the server, with the per-call timeout; tools/call is never retried
//     (for a tool the response cache covers: answer from the cache, or
//     share one call among identical calls in flight, see cache.go);
//  8. run the ResultFuncs;
//  9. run the AfterFuncs, on every path.
//
// Steps 1–5 never reach the server; their failures are *RejectError. A
// transport failure is *UpstreamError. A tool that answers with IsError is a
// Result, not an error.
func (m *Mux) CallTool(ctx context.Context, server, tool string, args json.RawMessage) (*Result, error) {
	return m.callTool(ctx, server, tool, args, nil)
}

// CallToolArgs is CallTool for arguments already decoded from JSON, as an
// MCP server in front of the Mux receives them: they skip step 2's decode
// instead of going map → JSON → map. args must be what encoding/json
// decodes (numbers as float64); nil is no arguments. The Mux owns args
// from then on: BeforeFuncs may change them, and Result.Args holds them.
func (m *Mux) CallToolArgs(ctx context.Context, server, tool string, args map[string]any) (*Result, error) {
	if args == nil {
		args = map[string]any{}
	}
	return m.callTool(ctx, server, tool, nil, args)
}

// callTool is CallTool with the arguments either as JSON (raw) or decoded
// (args non-nil).
func (m *Mux) callTool(ctx context.Context, server, tool string, raw json.RawMessage, args map[string]any) (*Result, error) {
	start := time.Now()
	c := &Call{Server: server, Tool: tool}
	var span trace.Span
	if m.opts.tel != nil {
		ctx, span = m.opts.tel.startCall(ctx, c)
	}
	res, err := m.call(ctx, c, raw, args)
	if len(m.opts.after) > 0 || m.opts.metrics != nil {
		o := Outcome{Result: res, Err: err, Duration: time.Since(start), Upstream: c.upstream}
		o.Status, o.Reason = Classify(res, err)
		for _, h := range m.opts.after {
			h(ctx, c, o)
		}
		if m.opts.metrics != nil {
			m.opts.metrics.CallDone(ctx, c, o)
		}
		if span != nil {
			m.opts.tel.endCall(span, c, o)
		}
	}
	if res != nil {
		res.Duration = time.Since(start)
	}
	return res, err
}

func (m *Mux) call(ctx context.Context, c *Call, raw json.RawMessage, args map[string]any) (*Result, error) {
	// 1. Resolve.
	sc, err := m.resolveServer(c.Server, c.Tool)
	if err != nil {
		return nil, err
	}
	c.Kind = sc.kind
	cl, gen, state, lastErr := sc.live()
	if sc.started != nil && (state == StateIdle || state == StateConnecting) {
		sc.awaitStart(ctx) // lazy or background: start.go
		cl, gen, state, lastErr = sc.live()
	}
	if cl == nil || state != StateUp {
		return nil, serverDown(c.Server, c.Tool, state, lastErr)
	}
	te, err := resolveTool(sc, c.Tool)
	if err != nil {
		return nil, err
	}
	c.Definition = te.def
	schema, decoded, serr := te.compiled(c.Server)
	if serr != nil {
		return nil, reject(c.Server, c.Tool, ReasonToolUnusable, Problem{Hint: brief(serr.Error())})
	}

	// 2. A JSON object (unless the caller decoded it).
	if args == nil {
		args, err = decodeArgs(raw)
	}
	if err != nil {
		p := Problem{Got: brief(string(raw)), Want: "a JSON object"}
		var notObject *notObjectError
		if !errors.As(err, &notObject) {
			p.Hint = "JSON syntax error: " + brief(err.Error()) + "."
		}
		return nil, reject(c.Server, c.Tool, ReasonInvalidJSON, p)
	}

	// 3. Normalize: kind transformers, server transformers, field map,
	// as the current presets have them (one snapshot for the whole call).
	norm := m.snap.Load().norms[sc.name]
	args, err = m.normalize(ctx, norm, c, decoded, args)
	if err != nil {
		var te *normalizers.Error
		p := Problem{Hint: err.Error()}
		if errors.As(err, &te) {
			p = Problem{Path: te.Path, Hint: te.Error()}
		}
		return nil, reject(c.Server, c.Tool, ReasonTransformFailed, p)
	}

	// 4. Placeholders.
	if !norm.allowsPlaceholders(c.Tool) {
		var problems []Problem
		args, problems = rejectPlaceholders(decoded, args)
		if len(problems) > 0 {
			return nil, reject(c.Server, c.Tool, ReasonPlaceholder, problems...)
		}
	}

	// 5. Validate: the acceptor vouches for the common case, the
	// validator decides the rest and words every rejection.
	if acc := norm.accept.get(c.Tool, schema, decoded); acc == nil || !acc.accepts(args) {
		if err := schema.Validate(args); err != nil {
			return nil, reject(c.Server, c.Tool, ReasonInvalidArguments, validationProblems(err, decoded)...)
		}
	}
	c.Args = args

	// 6. Before hooks.
	for _, h := range m.opts.before {
		nctx, short, err := h(ctx, c)
		if err != nil {
			var rej *RejectError
			if errors.As(err, &rej) {
				return nil, err
			}
			return nil, reject(c.Server, c.Tool, ReasonHookRejected, Problem{Hint: brief(err.Error())})
		}
		if nctx != nil {
			ctx = nctx
		}
		if short != nil {
			return m.transform(ctx, c, short)
		}
	}

	// 7. Upstream, once, or the response cache.
	out, cached, err := m.fetch(ctx, sc, cl, gen, c)
	if err != nil {
		return nil, err
	}
	// 8. Result transforms.
	res, err := m.transform(ctx, c, out)
	if res != nil && cached != "" {
		markCached(res, cached)
	}
	return res, err
}

// transform runs the ResultFuncs, then shape: offload a result over the
// threshold, else neutralize it.
func (m *Mux) transform(ctx context.Context, c *Call, r *mcp.CallToolResult) (*Result, error) {
	var err error
	r, cut := takeCut(r)
	// Hooks see, and every stage below edits, one representation of
	// structuredContent (see exactStructured); a hook that sets raw bytes
	// gets them decoded too.
	r = exactStructured(r)
	for _, h := range m.opts.results {
		if r, err = h(ctx, c, r); err != nil {
			return nil, fmt.Errorf("%s.%s: result transform: %w", c.Server, c.Tool, err)
		}
		if r == nil {
			return nil, fmt.Errorf("%s.%s: result transform returned no result", c.Server, c.Tool)
		}
		r = exactStructured(r)
	}
	r = valueContent(r)
	repeats := r.StructuredContent != nil && rewraps(r.StructuredContent, r.Content)
	r, off := m.shape(ctx, c, r, repeats)
	r = withCutNote(r, c, cut)
	return &Result{CallToolResult: *r, Server: c.Server, Tool: c.Tool, Args: c.Args, Repairs: c.Repairs,
		Offload: off, StructuredRepeatsText: repeats && off == nil}, nil
}

func (m *Mux) send(ctx context.Context, sc *serverConn, cl toolCaller, gen uint64, c *Call) (*mcp.CallToolResult, error) {
	if ok, until := sc.brk.allow(time.Now()); !ok {
		failures, _ := sc.brk.state()
		return nil, circuitOpen(c.Server, c.Tool, until, failures)
	}
	// Waiting for a slot has its own bound: a queue behind a slow server
	// must not eat the call's own timeout, nor wait forever.
	var err error
	if !sc.sem.TryAcquire(1) { // the usual case costs no timer
		qctx, qcancel := context.WithTimeout(ctx, m.rel.QueueTimeout)
		err = sc.sem.Acquire(qctx, 1)
		qcancel()
	}
	if err != nil {
		sc.brk.done(false, time.Now()) // release a half-open trial slot
		if ctx.Err() != nil {
			return nil, &UpstreamError{Server: c.Server, Tool: c.Tool, Timeout: true, Err: context.Cause(ctx)}
		}
		return nil, reject(c.Server, c.Tool, ReasonOverloaded, Problem{Path: "server",
			Hint: fmt.Sprintf("All %s's call slots stayed busy for %s.", c.Server, m.rel.QueueTimeout)})
	}
	defer sc.sem.Release(1)
	sc.inflight.Add(1)
	defer sc.inflight.Add(-1)
	// The server may have gone down while this call queued.
	if cur, curGen, state, lastErr := sc.live(); cur == nil || curGen != gen {
		sc.brk.done(false, time.Now())
		return nil, serverDown(c.Server, c.Tool, state, lastErr)
	}
	cctx, cancel := context.WithTimeout(ctx, sc.callTimeout())
	defer cancel()
	var upctx context.Context = cctx
	if sc.spec.Transport == "inprocess" {
		var stop context.CancelFunc
		upctx, stop = detach.Values(cctx)
		defer stop()
	}
	req := mcp.CallToolRequest{}
	req.Params.Name = c.Tool
	req.Params.Arguments = c.Args
	// On ctx's end mcp-go sends notifications/cancelled, so the server can
	// stop the work too.
	// A big answer on stdio is decoded by the transport, which hands it
	// over through upctx (see upstream.BigResult); no other transport
	// does, so their calls carry nothing for it.
	var big *upstream.BigResult
	if t := sc.spec.Transport; t == "stdio" || t == "" {
		upctx, big = upstream.WithBigResult(upctx)
	}
	out, err := m.callUpstream(ctx, upctx, cl, c, req)
	out = big.Take(out)
	if err != nil {
		if cctx.Err() != nil {
			// Only our own timeout says the server is failing; the
			// caller giving up says nothing about it.
			sc.brk.done(ctx.Err() == nil, time.Now())
			return nil, &UpstreamError{Server: c.Server, Tool: c.Tool, Timeout: true, Err: context.Cause(cctx)}
		}
		transport := isTransportFailure(err)
		sc.brk.done(transport, time.Now())
		if transport {
			sc.markDown(gen, err)
		}
		return nil, &UpstreamError{Server: c.Server, Tool: c.Tool, Err: err}
	}
	sc.brk.done(false, time.Now())
	if out == nil {
		return nil, &UpstreamError{Server: c.Server, Tool: c.Tool, Err: errors.New("empty result")}
	}
	return out, nil
}

// isTransportFailure tells a dead connection from a JSON-RPC error answer:
// only the former makes a server down. mcp-go wraps every transport-level
// failure in *transport.Error and returns error answers unwrapped.
func isTransportFailure(err error) bool {
	var te *transport.Error
	return errors.As(err, &te)
}
