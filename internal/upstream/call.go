package upstream

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

// Caller sends tools/call requests straight to a client's transport, for
// the transports that carry no HTTP headers (stdio and in process).
//
// On a 2026-07-28 connection, mcp-go's Client.CallTool encodes a request's
// params three times per call: once to merge the per-request _meta
// (protocol version, client identity and capabilities), and twice to
// mirror the method, tool and x-mcp-header parameters into HTTP headers,
// re-encoding the tool's input schema to find them, which stdio and in
// process transports then drop. It decodes the result through a generic
// map. A Caller writes the _meta it encoded once, at connect, and decodes
// the result as big answers are decoded (decodeCallToolResult). What goes
// over the wire is the same request.
//
// A Caller answers no input requests, as the client it replaces has no
// handlers for them: a result that asks for input is an error, except one
// that only asks to be retried (load shedding), which is retried with its
// requestState, as mcp-go does.
type Caller struct {
	t    transport.Interface
	meta []byte // the protocol's _meta, {"k":v,…}; nil on a legacy connection
	ids  atomic.Int64
}

// maxRetries bounds the retries a load-shedding server may ask for, as
// mcp-go's maxLoadSheddingRoundTrips does.
const maxRetries = 3

// cancelTimeout bounds the notifications/cancelled sent for a request
// whose context ended.
const cancelTimeout = 5 * time.Second

// NewCaller returns a Caller for c, a client of spec that init
// initialized; nil for a transport that needs mcp-go's own request path
// (Streamable HTTP and SSE, which mirror requests into headers).
func NewCaller(c *client.Client, spec Spec, init *mcp.InitializeResult) *Caller {
	switch spec.Transport {
	case "stdio", "", "inprocess":
	default:
		return nil
	}
	k := &Caller{t: c.GetTransport()}
	if init != nil && mcp.IsModernProtocol(init.ProtocolVersion) {
		meta, err := json.Marshal(map[string]any{
			mcp.MetaKeyProtocolVersion:    init.ProtocolVersion,
			mcp.MetaKeyClientCapabilities: c.GetClientCapabilities(),
			mcp.MetaKeyClientInfo:         clientInfo,
		})
		if err != nil {
			return nil
		}
		k.meta = meta
	}
	return k
}

// callParams is mcp.CallToolParams with _meta already encoded.
type callParams struct {
	Name      string          `json:"name"`
	Arguments any             `json:"arguments,omitempty"`
	Meta      json.RawMessage `json:"_meta,omitempty"`
	mcp.MultiRoundTripParams
}

// CallTool calls req's tool and returns its result, as client.CallTool
// does. A failure to reach the server is a *transport.Error; an error
// answer is returned as mcp-go returns it.
func (k *Caller) CallTool(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	meta, err := k.withMeta(req.Params.Meta)
	if err != nil {
		return nil, err
	}
	p := callParams{Name: req.Params.Name, Arguments: req.Params.Arguments, Meta: meta}
	for retries := 0; ; retries++ {
		r, err := k.send(ctx, p)
		if err != nil || !r.NeedsInput() {
			return r, err
		}
		if len(r.InputRequests) > 0 {
			return nil, fmt.Errorf("the server asked for %d inputs (elicitation, sampling or roots), which mcpfleet does not answer", len(r.InputRequests))
		}
		if retries == maxRetries {
			return nil, fmt.Errorf("the server asked to retry %d times without requesting input", retries+1)
		}
		p.RequestState = r.RequestState
	}
}

func (k *Caller) send(ctx context.Context, p callParams) (*mcp.CallToolResult, error) {
	req := transport.JSONRPCRequest{
		JSONRPC: mcp.JSONRPC_VERSION,
		// A string id cannot collide with the client's own numeric ones.
		ID:     mcp.NewRequestId("mcpfleet-" + strconv.FormatInt(k.ids.Add(1), 10)),
		Method: string(mcp.MethodToolsCall),
		Params: p,
	}
	if err := ctx.Err(); err != nil {
		return nil, transport.NewError(err)
	}
	res, err := k.t.SendRequest(ctx, req)
	if err != nil {
		if ctx.Err() != nil {
			k.cancel(ctx, req.ID)
		}
		return nil, transport.NewError(err)
	}
	if res.Error != nil {
		return nil, res.Error.AsError()
	}
	if r, ok := decodeCallToolResult(res.Result); ok {
		return r, nil
	}
	return mcp.ParseCallToolResult(&res.Result)
}

// withMeta returns the request's _meta: the caller's own members (trace
// context, progress token) and the protocol's.
func (k *Caller) withMeta(m *mcp.Meta) (json.RawMessage, error) {
	if m == nil {
		return k.meta, nil // read only: encoding copies it
	}
	own, err := json.Marshal(m)
	if err != nil {
		return nil, fmt.Errorf("encode _meta: %w", err)
	}
	if k.meta == nil {
		return own, nil
	}
	if len(own) < 2 || own[0] != '{' {
		return nil, errors.New("encode _meta: not an object")
	}
	out := make([]byte, 0, len(own)+len(k.meta))
	out = append(out, own[:len(own)-1]...)
	if len(own) > 2 {
		out = append(out, ',')
	}
	return append(out, k.meta[1:]...), nil
}

// cancel tells the server to stop the request id, whose context ended,
// off the caller's path, as mcp-go's client does.
func (k *Caller) cancel(ctx context.Context, id mcp.RequestId) {
	n := mcp.JSONRPCNotification{
		JSONRPC: mcp.JSONRPC_VERSION,
		Notification: mcp.Notification{
			Method: string(mcp.MethodNotificationCancelled),
			Params: mcp.NotificationParams{
				AdditionalFields: map[string]any{"requestId": id, "reason": ctx.Err().Error()},
			},
		},
	}
	ctx = context.WithoutCancel(ctx)
	go func() {
		ctx, stop := context.WithTimeout(ctx, cancelTimeout)
		defer stop()
		_ = k.t.SendNotification(ctx, n)
	}()
}
