package upstream

import (
	"os"
	"os/exec"
	"sync"
)

// exitWatch tells when a stdio child exits without calling cmd.Wait, which
// belongs to mcp-go's transport (a second Wait is an error). The child
// inherits the write end of a pipe as an extra descriptor; once our copy is
// closed, a read on the other end returns EOF when the last holder, the
// child, is gone, whether it exited, crashed or was killed with SIGKILL.
//
// A child that hands the descriptor to grandchildren (npx → node) is seen as
// exited only when they all are, which is the moment its stdout closes too.
type exitWatch struct {
	onExit func()
	mu     sync.Mutex
	r, w   *os.File
}

// attach gives cmd the write end of a fresh pipe. A nil watch does nothing.
func (x *exitWatch) attach(cmd *exec.Cmd) error {
	if x == nil {
		return nil
	}
	r, w, err := os.Pipe()
	if err != nil {
		return err
	}
	x.mu.Lock()
	x.r, x.w = r, w
	x.mu.Unlock()
	cmd.ExtraFiles = append(cmd.ExtraFiles, w)
	return nil
}

// started closes the parent's write end and starts waiting for EOF. It is
// called after the transport started the child, or failed to.
func (x *exitWatch) started() {
	if x == nil {
		return
	}
	x.mu.Lock()
	r, w := x.r, x.w
	x.r, x.w = nil, nil
	x.mu.Unlock()
	if w == nil {
		return
	}
	_ = w.Close()
	go func() {
		// Nothing is ever written: the read returns at EOF, when the
		// last holder is gone. A one-byte buffer, not io.Copy's.
		var b [1]byte
		for {
			if _, err := r.Read(b[:]); err != nil {
				break
			}
		}
		_ = r.Close()
		x.onExit()
	}()
}
