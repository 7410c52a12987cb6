package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/mcpfleet/mcpfleet"

	"github.com/mcpfleet/mcpfleet/internal/textdist"
)

// runFunc is the shape of every subcommand: I/O and environment are passed
// in, so tests run the CLI in-process with buffers.
type runFunc func(ctx context.Context, env []string, stdin io.Reader, stdout, stderr io.Writer, args []string) error

// command is one row of the dispatch table.
type command struct {
	name    string
	summary string
	run     runFunc
}

// commands is the dispatch table. Adding a subcommand is one line here; it
// is a function, not a package variable, so nothing can mutate it.
func commands() []command {
	return []command{
		{"overview", "print the orchestrator's view of the fleet: one line per kind", runOverview},
		{"tools", "list tools per kind or per server (--json: full definitions)", runTools},
		{"call", "call SERVER TOOL 'JSON' through the gates and print the result", runCall},
		{"tokens", "measure the fleet's tool definitions in o200k tokens", runTokens},
		{"search", "search the fleet's tools like the searchTools meta-tool", runSearch},
		{"eval-search", "score search on labelled queries: recall@1/3/5, nDCG@5", runEvalSearch},
		{"fit-search", "refit search's reranker weights on labelled queries", runFitSearch},
		{"mine-aliases", "propose kind aliases from labelled queries, as a fleet-file fragment", runMineAliases},
		{"search-report", "read a search telemetry log: false negatives, empty queries, never found", runSearchReport},
		{"catalog", "print the deferred catalog block, or --lint its lines", runCatalog},
		{"presets", "list which built-in server preset each kind gets, and why", runPresets},
		{"status", "print each server's connection state", runStatus},
		{"lock", "pin every tool definition in fleet.lock; --diff shows changes, --approve accepts them, --judge asks a model", runLock},
		{"serve", "serve the fleet as one MCP server (stdio or streamable HTTP)", runServe},
	}
}

// Run runs the mcpfleet command line args (without the program name).
// Model-facing and human output goes to stdout, diagnostics to stderr; Run
// writes every diagnostic itself, so the returned error only carries the
// exit code (see ExitError): nil is 0, a usage error 2, anything else 1.
func Run(ctx context.Context, env []string, stdin io.Reader, stdout, stderr io.Writer, args []string) error {
	cmds := commands()
	if len(args) == 0 {
		usage(stderr, cmds)
		return &ExitError{Code: ExitUsage, Err: errors.New("no subcommand")}
	}
	name, rest := args[0], args[1:]
	switch name {
	case "help", "-h", "-help", "--help":
		if len(rest) > 0 && name == "help" {
			// Asked-for help goes to stdout, so it can be paged.
			return Run(ctx, env, stdin, stdout, stdout, []string{rest[0], "-h"})
		}
		usage(stdout, cmds)
		return nil
	}
	for _, c := range cmds {
		if c.name == name {
			return report(stderr, name, c.run(ctx, env, stdin, stdout, stderr, rest))
		}
	}
	names := make([]string, len(cmds))
	for i, c := range cmds {
		names[i] = c.name
	}
	msg := fmt.Sprintf("unknown command %q", name)
	if n := textdist.NearestPart(name, names); n != "" {
		msg += fmt.Sprintf("; did you mean %q?", n)
	}
	fmt.Fprintf(stderr, "mcpfleet: %s\nrun 'mcpfleet help' for the list of commands\n", msg)
	return &ExitError{Code: ExitUsage, Err: errors.New(msg)}
}

// report prints err for a person (or, for a rejection, for a model) and
// turns it into an ExitError.
func report(stderr io.Writer, name string, err error) error {
	if err == nil || errors.Is(err, flag.ErrHelp) {
		return nil
	}
	var rej *mcpfleet.RejectError
	if errors.As(err, &rej) {
		// The rejection text is written for a model: print it as is.
		fmt.Fprintln(stderr, rej.ModelText())
		return &ExitError{Code: ExitFailure, Err: err}
	}
	var ee *ExitError
	if !errors.As(err, &ee) {
		ee = &ExitError{Code: ExitFailure, Err: err}
	}
	if ee.Err != nil {
		fmt.Fprintf(stderr, "mcpfleet %s: %v\n", name, ee.Err)
	}
	if ee.Code == ExitUsage {
		fmt.Fprintf(stderr, "run 'mcpfleet %s -h' for usage\n", name)
	}
	return ee
}

func usage(w io.Writer, cmds []command) {
	fmt.Fprint(w, "mcpfleet multiplexes a fleet of MCP servers.\n\nusage: mcpfleet <command> [flags] [args]\n\ncommands:\n")
	width := 0
	for _, c := range cmds {
		width = max(width, len(c.name))
	}
	for _, c := range cmds {
		fmt.Fprintf(w, "  %-*s %s\n", width, c.name, c.summary)
	}
	fmt.Fprint(w, "\nEvery command takes --config FILE (default $MCPFLEET_CONFIG) and --strict.\nRun 'mcpfleet help <command>' for its flags.\n")
}
