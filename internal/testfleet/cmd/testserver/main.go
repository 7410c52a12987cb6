package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpfleet/mcpfleet/internal/testfleet"
)

func main() {
	name := flag.String("name", "testserver", "server name")
	fixture := flag.String("fixture", "", "a tools/list JSON file ({\"tools\": [...]}) whose tools to serve with echo handlers")
	page := flag.Int("page", 0, "tools/list page size (0 = no pagination)")
	diag := flag.Bool("diag", false, "add the pid and stats diagnostic tools")
	callLog := flag.String("calllog", "", "append \"tool text\" to this file for every tools/call received, to count deliveries across restarts")
	bigWraps := flag.Bool("bigwraps", false, "big also returns its text as structuredContent {\"content\": text}")
	flag.Parse()
	opts := testfleet.Options{PageSize: *page, Diagnostics: *diag, BigWraps: *bigWraps}
	if *callLog != "" {
		f, err := os.OpenFile(*callLog, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
		if err != nil {
			fmt.Fprintln(os.Stderr, "testserver:", err)
			os.Exit(2)
		}
		defer f.Close()
		opts.OnCall = func(r mcp.CallToolRequest) {
			// One write per line: O_APPEND keeps lines whole.
			_, _ = f.WriteString(r.Params.Name + " " + r.GetString("text", "") + "\n")
		}
	}
	if *fixture != "" {
		tools, err := readTools(*fixture)
		if err != nil {
			fmt.Fprintln(os.Stderr, "testserver:", err)
			os.Exit(2)
		}
		opts.Tools = tools
	}
	s := testfleet.NewServer(*name, opts)
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer stop()
	if err := server.NewStdioServer(s).Listen(ctx, os.Stdin, os.Stdout); err != nil && ctx.Err() == nil {
		fmt.Fprintln(os.Stderr, "testserver:", err)
		os.Exit(1)
	}
}

func readTools(path string) ([]mcp.Tool, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var f struct {
		Tools []struct {
			Name        string             `json:"name"`
			Description string             `json:"description"`
			InputSchema json.RawMessage    `json:"inputSchema"`
			Annotations mcp.ToolAnnotation `json:"annotations"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(b, &f); err != nil {
		return nil, err
	}
	out := make([]mcp.Tool, 0, len(f.Tools))
	for _, t := range f.Tools {
		schema := t.InputSchema
		if len(schema) == 0 {
			schema = json.RawMessage(`{"type":"object"}`)
		}
		out = append(out, mcp.Tool{Name: t.Name, Description: t.Description, RawInputSchema: schema, Annotations: t.Annotations})
	}
	return out, nil
}
