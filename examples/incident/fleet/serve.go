package fleet

import (
	"context"
	"errors"
	"io"
	"log"
	"os"

	"github.com/mark3labs/mcp-go/server"
)

// ServeStdio serves one simulated instance as MCP over r and w until r
// reaches EOF or ctx is cancelled; both end it cleanly with a nil error.
// The example binary uses it to re-exec itself as a fleet server, so it
// logs only to stderr: stdout belongs to the protocol.
func ServeStdio(ctx context.Context, in Instance, r io.Reader, w io.Writer) error {
	s, err := NewServer(in)
	if err != nil {
		return err
	}
	stdio := server.NewStdioServer(s)
	stdio.SetErrorLogger(log.New(os.Stderr, in.Name+": ", log.LstdFlags))
	err = stdio.Listen(ctx, r, w)
	if errors.Is(err, io.EOF) || errors.Is(err, context.Canceled) || ctx.Err() != nil {
		return nil
	}
	return err
}
