package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/mcpfleet/mcpfleet"
	"github.com/mcpfleet/mcpfleet/catalog"
	"github.com/mcpfleet/mcpfleet/orchestrator"
	"github.com/mcpfleet/mcpfleet/subagent"
	"github.com/mcpfleet/mcpfleet/telemetry"
)

// Output is the whole run, as --json writes it.
type Output struct {
	Model    string `json:"model"`
	Question string `json:"question"`
	Fleet    struct {
		Servers   int      `json:"servers"`
		Down      []string `json:"down,omitempty"`
		Kinds     int      `json:"kinds"`
		Overview  string   `json:"overview"`
		Transport string   `json:"transport"`
		StartupNS int64    `json:"startup_ns"`
	} `json:"fleet"`
	// Orchestrator is every model call of the orchestrator: the tools it
	// was offered and the messages it was sent.
	Orchestrator []modelCall         `json:"orchestrator"`
	Subagents    []subagentView      `json:"subagents"`
	Trace        *orchestrator.Trace `json:"trace"`
	Report       string              `json:"report"`
	Tokens       TokenTable          `json:"tokens"`
	Error        string              `json:"error,omitempty"`
}

// investigate brings the fleet up, runs the bot and prints the transcript
// (or, with --json, the trace).
func investigate(ctx context.Context, f flags, stdout, stderr io.Writer) error {
	st := styleFor(stdout)
	out := stdout
	if f.json {
		st, out = style{}, io.Discard
	}
	var res Output
	res.Question = f.question
	cfg, err := loadFleet(f.config)
	if err != nil {
		return err
	}
	res.Fleet.Transport = "stdio, one child process each"
	if f.inprocess {
		res.Fleet.Transport = "in-process"
	}
	// Telemetry: the fleet file's telemetry section and OTEL_* choose
	// exporters; --trace keeps the spans to print the tree.
	var tree *telemetry.Tree
	topts := telemetry.Options{File: cfg.Telemetry, ServiceName: "incident"}
	if f.trace {
		tree = &telemetry.Tree{}
		topts.SpanExporters = append(topts.SpanExporters, tree)
	}
	tel, err := telemetry.Start(ctx, topts)
	if err != nil {
		return err
	}
	defer tel.Shutdown(context.WithoutCancel(ctx))
	start := time.Now()
	sp := startSpinner(out, st, fmt.Sprintf("starting %d MCP servers (%s)", len(cfg.Servers), res.Fleet.Transport))
	mx, err := startFleet(ctx, cfg, f.inprocess, tel.TracerProvider(), tel.MuxOptions()...)
	sp.Stop()
	if err != nil {
		return err
	}
	defer mx.Close()
	res.Fleet.StartupNS = int64(time.Since(start))
	res.Fleet.Down = downServers(mx)
	res.Fleet.Overview = mx.Overview()
	res.Fleet.Kinds = len(mx.KindGroups())
	res.Fleet.Servers = len(cfg.Servers)
	fmt.Fprintf(out, "%s %d of %d servers up in %s (%s)\n", st.green("✓"), res.Fleet.Servers-len(res.Fleet.Down), res.Fleet.Servers,
		time.Since(start).Round(time.Millisecond), res.Fleet.Transport)
	for _, d := range res.Fleet.Down {
		fmt.Fprintf(out, "  %s %s\n", st.red("down"), d)
	}
	// The catalog every subagent shares.
	cat, err := catalog.BuildFleet(mx.Servers(), mx.Config())
	if err != nil {
		return err
	}
	if res.Tokens, err = measureFleet(ctx, mx, cat); err != nil {
		return err
	}
	fmt.Fprintf(out, "%s they fold into %d kinds; the orchestrator is shown only this overview (%d tokens):\n",
		st.green("✓"), res.Fleet.Kinds, res.Tokens.OrchestratorTokens)
	for _, l := range strings.Split(strings.TrimRight(res.Fleet.Overview, "\n"), "\n") {
		fmt.Fprintf(out, "    %s\n", st.dim(l))
	}
	fmt.Fprintln(out)

	m, name, err := chooseModel(ctx)
	if err != nil {
		return err
	}
	res.Model = name
	b, err := newBot(mx, cat, m)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "%s %s\n\n", st.bold("question:"), f.question)
	sp = startSpinner(out, st, "investigating with "+name)
	tr, runErr := b.run(ctx, f.question)
	sp.Stop()
	res.Trace = tr
	res.Orchestrator = b.orch.Calls()
	res.Subagents = b.subagentViews(tr)
	if tr != nil {
		res.Report = tr.Answer
	}
	res.Tokens.Subagents = sliceRows(ctx, mx, cat, res.Subagents)
	res.Tokens.OrchestratorCall = promptTokens(b.orch.firstCall())
	if runErr != nil {
		res.Error = runErr.Error()
	}
	if f.json {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(res); err != nil {
			return err
		}
		if tree != nil { // stdout holds the JSON document
			fmt.Fprintln(stderr, "trace:")
			_ = tree.Write(stderr)
		}
		return runErr
	}
	writeTranscript(out, st, name, res.Orchestrator, res.Subagents)
	fmt.Fprintln(out)
	if res.Report != "" {
		fmt.Fprintln(out, st.bold(strings.Repeat("─", 72)))
		fmt.Fprintln(out, res.Report)
		fmt.Fprintln(out, st.bold(strings.Repeat("─", 72)))
		fmt.Fprintln(out)
	}
	writeTokenTable(out, res.Tokens, st)
	if tree != nil {
		fmt.Fprintln(out)
		fmt.Fprintln(out, st.bold("trace:"))
		if err := tree.Write(out); err != nil {
			return err
		}
	}
	return runErr
}

// sliceRows measures what each subagent's first model call carried.
func sliceRows(ctx context.Context, mx *mcpfleet.Mux, cat *catalog.Catalog, subs []subagentView) []SubagentRow {
	var rows []SubagentRow
	for _, s := range subs {
		c, err := subagent.SliceTokens(ctx, mx, subagent.Config{Servers: s.Servers, Catalog: cat, Scopes: []string{catalog.ScopeRead}})
		if err != nil {
			continue
		}
		rows = append(rows, SubagentRow{Name: s.Name, SliceCost: c})
	}
	return rows
}
