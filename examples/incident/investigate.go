package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"
)

// investigate brings the fleet up, runs the bot and prints the transcript
// (or, with --json, the trace).
func investigate(ctx context.Context, f flags, stdout, stderr io.Writer) error {
	st := styleFor(stdout)
	if f.json {
		st = style{}
	}
	out := stdout
	if f.json {
		out = io.Discard
	}
	cfg, err := loadFleet(f.config)
	if err != nil {
		return err
	}
	how := "stdio, one child process each"
	if f.inprocess {
		how = "in-process"
	}
	start := time.Now()
	sp := startSpinner(out, st, fmt.Sprintf("starting %d MCP servers (%s)", len(cfg.Servers), how))
	mx, err := startFleet(ctx, cfg, f.inprocess)
	sp.Stop()
	if err != nil {
		return err
	}
	defer mx.Close()
	fmt.Fprintf(out, "%s %d servers up in %s (%s)\n", st.green("✓"), len(cfg.Servers)-len(downServers(mx)), time.Since(start).Round(time.Millisecond), how)
	for _, d := range downServers(mx) {
		fmt.Fprintf(out, "  %s %s\n", st.red("down"), d)
	}
	cat := newCatalog(mx)
	table := measureFleet(mx, cat)
	groups := mx.KindGroups()
	fmt.Fprintf(out, "%s %d servers fold into %d kinds. The orchestrator sees only this (%d tokens):\n",
		st.green("✓"), table.Servers, len(groups), table.OrchestratorTokens)
	for _, l := range strings.Split(strings.TrimRight(mx.Overview(), "\n"), "\n") {
		fmt.Fprintf(out, "    %s\n", st.dim(l))
	}
	fmt.Fprintln(out)
	writeTokenTable(out, table, st)
	return nil
}
