package upstream

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

// TestStdioChildWritesStderr: a child may write to its stderr, which the
// transport throws away: the write succeeds (node servers exit when it
// fails), and the child goes on to answer on stdout.
func TestStdioChildWritesStderr(t *testing.T) {
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	defer cancel()
	script := `if echo "server running on stdio" >&2; then s=ok; else s=failed; fi
read line
echo "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"stderr\":\"$s\"}}"
read line`
	tr, err := cutStdio(ctx, Spec{Transport: "stdio", Command: "sh", Args: []string{"-c", script}}, nil, DefaultMaxResultBytes)
	if err != nil {
		t.Fatal(err)
	}
	if err := tr.Start(ctx); err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	res, err := tr.SendRequest(ctx, transport.JSONRPCRequest{JSONRPC: mcp.JSONRPC_VERSION, ID: mcp.NewRequestId(int64(1)), Method: "ping"})
	if err != nil {
		t.Fatal(err)
	}
	var got struct{ Stderr string }
	if err := json.Unmarshal(res.Result, &got); err != nil || got.Stderr != "ok" {
		t.Fatalf("the child's write to stderr: %q (%v), want ok", got.Stderr, err)
	}
}
