package upstream

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"time"

	"github.com/mark3labs/mcp-go/client/transport"
)

// DefaultMaxResultBytes bounds one message from a server when the fleet
// file sets no max_result_bytes: 64 MiB.
const DefaultMaxResultBytes = 64 << 20

// cutStdio starts spec's command itself and hands mcp-go its pipes
// through a cutReader (transport.NewIO), since mcp-go's own stdio
// transport reads the child's stdout with no hook to bound a message. The
// child is shut down as mcp-go's would be: stdin closed, then SIGTERM,
// then SIGKILL.
//
// Big tools/call answers are decoded here too, not by mcp-go (see
// bigReader).
func cutStdio(life context.Context, spec Spec, w *exitWatch, limit int64) (transport.Interface, error) {
	cmd, err := commandFunc(spec, w)(life, spec.Command, nil, spec.Args)
	if err != nil {
		return nil, err
	}
	if cmd.Stderr == nil {
		// A file, not io.Discard: exec then hands the child the
		// descriptor itself, instead of a pipe and a goroutine with a copy
		// buffer per server to throw the bytes away.
		null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
		if err != nil {
			return nil, fmt.Errorf("failed to open %s: %w", os.DevNull, err)
		}
		defer null.Close() // the child holds its own copy once started
		cmd.Stderr = null
	}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, fmt.Errorf("failed to create stdin pipe: %w", err)
	}
	// Our own pipe, not StdoutPipe: Wait, which runs from the start here,
	// would close StdoutPipe's read end at exit, losing what the child
	// wrote last and we had not read yet.
	stdout, pw, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("failed to create stdout pipe: %w", err)
	}
	cmd.Stdout = pw
	err = cmd.Start()
	_ = pw.Close() // the child holds its own copy
	if err != nil {
		_ = stdout.Close()
		return nil, fmt.Errorf("failed to start command: %w", err)
	}
	p := &child{cmd: cmd, stdin: stdin, done: make(chan struct{})}
	go func() { p.err = cmd.Wait(); close(p.done) }()
	stash := newBigStash()
	t := transport.NewIO(newBigReader(newCutReader(stdout, limit), stash), p, stdout)
	return &bigStdio{Stdio: t, stash: stash}, nil
}

// child is a started stdio server; closing it closes its stdin and waits
// for it to exit, escalating as mcp-go's stdio transport does.
type child struct {
	cmd   *exec.Cmd
	stdin io.WriteCloser
	done  chan struct{}
	err   error
	once  sync.Once
}

func (p *child) Write(b []byte) (int, error) { return p.stdin.Write(b) }

// How long Close waits after closing stdin, then after SIGTERM, then
// after SIGKILL: mcp-go's own timings.
var childWaits = [3]time.Duration{2 * time.Second, 3 * time.Second, 3 * time.Second}

func (p *child) Close() error {
	var err error
	p.once.Do(func() {
		err = p.stdin.Close()
		for k, step := range []func(){
			func() {},
			func() { _ = p.cmd.Process.Signal(syscall.SIGTERM) },
			func() { _ = p.cmd.Process.Kill() },
		} {
			step()
			select {
			case <-p.done:
				var ee *exec.ExitError
				if p.err != nil && !errors.As(p.err, &ee) && err == nil {
					err = p.err
				}
				return
			case <-time.After(childWaits[k]):
			}
		}
	})
	return err
}

// cutTransport bounds each message of an HTTP response body (a JSON body
// or an SSE stream) with a cutReader.
type cutTransport struct {
	base  http.RoundTripper
	limit int64
}

func (t cutTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	res, err := t.base.RoundTrip(req)
	if err != nil || res.Body == nil {
		return res, err
	}
	res.Body = cutBody{newCutReader(res.Body, t.limit), res.Body}
	res.ContentLength = -1 // a cut body is shorter
	return res, nil
}

type cutBody struct {
	io.Reader
	io.Closer
}

// cutHTTPClient is an http.Client whose response bodies are bounded.
func cutHTTPClient(limit int64) *http.Client {
	return &http.Client{Transport: cutTransport{base: http.DefaultTransport, limit: limit}}
}
