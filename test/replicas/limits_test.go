package replicas

import (
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/mcpfleet/mcpfleet/internal/testfleet"
)

// TestClientLimits sends each oversized input a shared gateway refuses,
// through the mcp-go client (and a raw chunked POST, which the client
// never sends), to a real `mcpfleet serve` process: each refusal names
// the limit and the size sent, and the process's peak RSS stays within
// 64 MiB of what it was before. Before the limits, a 30 MB searchTools
// query lifted it to 440 MB.
func TestClientLimits(t *testing.T) {
	cfg, tokens := writeFleet(t, testfleet.ServeHTTP(t, testfleet.NewServer("test-1", testfleet.Options{})), "")
	r := startReplica(t, cfg, tokens)
	ctx := t.Context()
	cl := connect(t, r.Addr, tokAlice, "")
	got, _, err := callTool(ctx, cl, "callTool", map[string]any{"server": "test-1", "tool": "big", "arguments": map[string]any{"bytes": 200_000}})
	h := handleRE.FindString(got)
	if err != nil || h == "" {
		t.Fatalf("big: %v\n%.300s", err, got)
	}
	before := r.peakRSS(t)

	tests := []struct {
		name string
		tool string
		args map[string]any
		want string
	}{
		{"30 MB query", "searchTools", map[string]any{"query": strings.Repeat("restart pods ", 30<<20/13)},
			"request body too large: the limit is 4194304 bytes, this request has 3145"},
		{"long query", "searchTools", map[string]any{"query": strings.Repeat("q", 100_000)},
			"query too long: the limit is 8192 bytes, this query has 100000"},
		{"many names", "describeTools", map[string]any{"names": names(50_000)},
			"too many names: the limit is 50 per describeTools call, this call has 50000"},
		{"long pattern", "grepResult", map[string]any{"handle": h, "pattern": strings.Repeat("x", 100_000)},
			"the limit is 512 bytes, this pattern has 100000"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, isErr, err := callTool(ctx, cl, tt.tool, tt.args)
			msg := got
			if err != nil {
				msg = err.Error()
			} else if !isErr {
				t.Errorf("accepted: %.200s", got)
			}
			if !strings.Contains(msg, tt.want) {
				t.Errorf("answer = %.300q, want it to say %q", msg, tt.want)
			}
		})
	}
	t.Run("chunked 30 MB body", func(t *testing.T) {
		body := io.MultiReader(strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"searchTools","arguments":{"query":"`),
			io.LimitReader(repeatReader('x'), 30<<20), strings.NewReader(`"}}}`))
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, "http://"+r.Addr+"/mcp", body)
		must(t, err)
		req.Header.Set("Authorization", "Bearer "+tokAlice)
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err) // the server may close early, but answers first
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != http.StatusRequestEntityTooLarge || !strings.Contains(string(b), "the limit is 4194304 bytes, this request has more than 4194304") {
			t.Errorf("chunked body: %d %s", resp.StatusCode, b)
		}
	})
	after := r.peakRSS(t)
	t.Logf("peak RSS %d MiB before the oversized inputs, %d MiB after", before>>20, after>>20)
	if after-before > 64<<20 {
		t.Errorf("peak RSS grew by %d MiB; want at most 64", (after-before)>>20)
	}
}

func names(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("tool_%05d", i)
	}
	return out
}

type repeatReader byte

func (r repeatReader) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = byte(r)
	}
	return len(p), nil
}
