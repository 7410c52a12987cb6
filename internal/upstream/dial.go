package upstream

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sort"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// Spec says how to reach one server.
type Spec struct {
	Name      string
	Transport string // stdio | http | sse | inprocess
	Command   string
	Args      []string
	Env       map[string]string
	Dir       string // working directory of a stdio child; "" = inherit
	URL       string
	Headers   map[string]string
	InProcess *server.MCPServer
	// Stderr receives a stdio child's stderr; nil discards it.
	Stderr io.Writer
	// Legacy pins the pre-2026 protocol (stateful, with initialize).
	Legacy bool
	// OnExit, if set, is called once when a stdio child process exits, for
	// whatever reason (crash, kill -9, Close). It lets the caller mark the
	// server down at once instead of at the next call or probe.
	OnExit func()
	// MaxResultBytes bounds one message from the server (0:
	// DefaultMaxResultBytes, < 0: no bound). A larger one is cut as it is
	// read, before mcp-go decodes it (see cutReader). Not applied in process.
	MaxResultBytes int64
}

// ClientInfo is what mcpfleet calls itself in initialize.
var clientInfo = mcp.Implementation{Name: "mcpfleet", Version: "0.1.0"}

// Dial starts a client for spec and initializes it. life bounds the
// connection's whole lifetime (a stdio child is killed when it ends); ctx
// bounds only the handshake.
func Dial(ctx, life context.Context, spec Spec) (*client.Client, *mcp.InitializeResult, error) {
	var w *exitWatch
	if spec.OnExit != nil && (spec.Transport == "stdio" || spec.Transport == "") {
		w = &exitWatch{onExit: spec.OnExit}
	}
	c, err := newClient(life, spec, w, discoverTimeout(ctx))
	if err != nil {
		w.started() // a child that failed to start has exited
		return nil, nil, err
	}
	err = c.Start(life)
	// The child holds its own copy of the pipe's write end now; dropping
	// ours makes the read end see EOF exactly when the child is gone.
	w.started()
	if err != nil {
		_ = c.Close()
		return nil, nil, fmt.Errorf("start %s: %w", spec.Transport, err)
	}
	type initRes struct {
		res *mcp.InitializeResult
		err error
	}
	// Initialize is run in its own goroutine so that a server that never
	// answers cannot hold the caller past ctx, whatever the transport does.
	done := make(chan initRes, 1)
	go func() {
		req := mcp.InitializeRequest{}
		req.Params.ProtocolVersion = ""
		req.Params.ClientInfo = clientInfo
		res, err := c.Initialize(ctx, req)
		done <- initRes{res, err}
	}()
	select {
	case r := <-done:
		if r.err != nil {
			_ = c.Close()
			return nil, nil, fmt.Errorf("initialize: %w", r.err)
		}
		return c, r.res, nil
	case <-ctx.Done():
		_ = c.Close()
		return nil, nil, fmt.Errorf("initialize: %w", ctx.Err())
	}
}

// minDiscoverTimeout is mcp-go's own default wait for the server/discover
// probe.
const minDiscoverTimeout = 5 * time.Second

// discoverTimeout is how long the server/discover probe may wait: half of
// what is left of the handshake's deadline, and never less than mcp-go's
// default. A server that is slow to start (a busy machine, a Node.js child
// still loading) may answer the probe late; had the client given up and
// sent initialize, a server that took the probe as its handshake answers
// 'duplicate "initialize" received' and the connection fails. A legacy
// server refuses the unknown method at once, so the longer wait costs it
// nothing.
func discoverTimeout(ctx context.Context) time.Duration {
	d, ok := ctx.Deadline()
	if !ok {
		return minDiscoverTimeout
	}
	return max(minDiscoverTimeout, time.Until(d)/2)
}

func newClient(life context.Context, spec Spec, w *exitWatch, discover time.Duration) (*client.Client, error) {
	limit := spec.MaxResultBytes
	if limit == 0 {
		limit = DefaultMaxResultBytes
	}
	opts := []client.ClientOption{client.WithDiscoverTimeout(discover)}
	if spec.Legacy {
		opts = append(opts, client.WithLegacyProtocolOnly())
	}
	switch spec.Transport {
	case "inprocess":
		if spec.InProcess == nil {
			return nil, errors.New("inprocess transport without a server")
		}
		return client.NewInProcessClientWithOptions(spec.InProcess, opts...)
	case "stdio", "":
		if spec.Command == "" {
			return nil, errors.New("stdio transport without a command")
		}
		if limit > 0 {
			t, err := cutStdio(life, spec, w, limit)
			if err != nil {
				return nil, fmt.Errorf("start stdio: %w", err)
			}
			return client.NewClient(t, opts...), nil
		}
		t := transport.NewStdioWithOptions(spec.Command, EnvList(spec.Env), spec.Args,
			transport.WithCommandFunc(commandFunc(spec, w)))
		return client.NewClient(t, opts...), nil
	case "http":
		hopts := []transport.StreamableHTTPCOption{transport.WithHTTPHeaders(spec.Headers)}
		if limit > 0 {
			hopts = append(hopts, transport.WithHTTPBasicClient(cutHTTPClient(limit)))
		}
		t, err := transport.NewStreamableHTTP(spec.URL, hopts...)
		if err != nil {
			return nil, err
		}
		return client.NewClient(t, opts...), nil
	case "sse":
		sopts := []transport.ClientOption{transport.WithHeaders(spec.Headers)}
		if limit > 0 {
			sopts = append(sopts, transport.WithHTTPClient(cutHTTPClient(limit)))
		}
		t, err := transport.NewSSE(spec.URL, sopts...)
		if err != nil {
			return nil, err
		}
		return client.NewClient(t, opts...), nil
	default:
		return nil, fmt.Errorf("unknown transport %q (want stdio, http, sse)", spec.Transport)
	}
}

// commandFunc builds the child with a minimal environment: PATH and HOME
// from the parent plus the server's own env. mcp-go's default would hand
// every child the whole parent environment, secrets included.
func commandFunc(spec Spec, w *exitWatch) transport.CommandFunc {
	return func(ctx context.Context, command string, env []string, args []string) (*exec.Cmd, error) {
		cmd := exec.CommandContext(ctx, command, args...)
		cmd.Env = MinimalEnv(spec.Env)
		cmd.Dir = spec.Dir
		if spec.Stderr != nil {
			cmd.Stderr = spec.Stderr
		}
		if err := w.attach(cmd); err != nil {
			return nil, err
		}
		return cmd, nil
	}
}

// MinimalEnv returns PATH and HOME from the parent, then extra, sorted by key.
// Keys in extra win.
func MinimalEnv(extra map[string]string) []string {
	m := map[string]string{}
	for _, k := range []string{"PATH", "HOME"} {
		if v, ok := os.LookupEnv(k); ok {
			m[k] = v
		}
	}
	for k, v := range extra {
		m[k] = v
	}
	return EnvList(m)
}

// EnvList turns a map into sorted KEY=VALUE pairs.
func EnvList(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k, v := range m {
		out = append(out, k+"="+v)
	}
	sort.Strings(out)
	return out
}
