package upstream_test

import (
	"context"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpfleet/mcpfleet/internal/testfleet"
	"github.com/mcpfleet/mcpfleet/internal/upstream"
)

// TestOnExit: a stdio child killed with SIGKILL is reported at once, with
// no call in flight; closing the client reports it too, once.
func TestOnExit(t *testing.T) {
	bin := testfleet.StdioBinary(t)
	for _, how := range []string{"sigkill", "close"} {
		t.Run(how, func(t *testing.T) {
			exited := make(chan struct{}, 2)
			spec := upstream.Spec{Name: "x", Transport: "stdio", Command: bin, Args: []string{"--name", "x", "--diag"},
				OnExit: func() { exited <- struct{}{} }}
			ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
			defer cancel()
			c, _, err := upstream.Dial(ctx, t.Context(), spec)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			req := mcp.CallToolRequest{}
			req.Params.Name = "pid"
			res, err := c.CallTool(ctx, req)
			if err != nil {
				t.Fatal(err)
			}
			pid, _ := strconv.Atoi(res.Content[0].(mcp.TextContent).Text)
			select {
			case <-exited:
				t.Fatal("OnExit before the child exited")
			default:
			}
			if how == "sigkill" {
				if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
					t.Fatal(err)
				}
			} else {
				_ = c.Close()
			}
			select {
			case <-exited:
			case <-time.After(5 * time.Second):
				t.Fatal("OnExit not called within 5s of the child's exit")
			}
			select {
			case <-exited:
				t.Fatal("OnExit called twice")
			case <-time.After(100 * time.Millisecond):
			}
		})
	}
}
