package main

import (
	"context"
	_ "embed"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/mcpfleet/mcpfleet/examples/incident/fleet"
	"github.com/mcpfleet/mcpfleet/telemetry"
)

// fleetYAML is the fleet file, embedded so that the binary runs from any
// folder; --config reads another one.
//
//go:embed fleet.yaml
var fleetYAML []byte

// DefaultQuestion is what the bot investigates when --question is not given.
const DefaultQuestion = "Payments are failing in production: customers see errors when paying by card. What is the root cause, and what should we do?"

// usageError is a bad command line; main exits 2 for it.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

// flags are the command line of the example.
type flags struct {
	// Server mode: the binary re-exec'd as one simulated fleet server.
	kind, name string
	readonly   bool

	config    string
	inprocess bool
	json      bool
	question  string
	timeout   time.Duration
	trace     bool
}

func parseFlags(args []string, stderr io.Writer) (flags, error) {
	var f flags
	fs := flag.NewFlagSet("incident", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&f.kind, "kind", "", "serve one simulated fleet server of this `kind` over stdio (used by the fleet file)")
	fs.StringVar(&f.name, "name", "", "with --kind: the server `name`")
	fs.BoolVar(&f.readonly, "readonly", false, "with --kind: expose only read-only tools")
	fs.StringVar(&f.config, "config", "", "fleet `file` (default: the embedded examples/incident/fleet.yaml)")
	fs.BoolVar(&f.inprocess, "inprocess", false, "host the simulated servers in this process instead of 23 stdio children")
	fs.BoolVar(&f.json, "json", false, "write the full trace as JSON to stdout instead of the transcript")
	fs.StringVar(&f.question, "question", DefaultQuestion, "what to investigate")
	fs.DurationVar(&f.timeout, "timeout", 2*time.Minute, "give up after this long")
	fs.BoolVar(&f.trace, "trace", false, "print the run's trace as an indented tree (OTEL_EXPORTER_OTLP_ENDPOINT also sends it over OTLP)")
	if err := fs.Parse(args); err != nil {
		return f, &usageError{err.Error()}
	}
	if fs.NArg() > 0 {
		return f, &usageError{fmt.Sprintf("unexpected arguments %q", fs.Args())}
	}
	if f.kind != "" && f.name == "" {
		f.name = f.kind
	}
	return f, nil
}

// run is the whole program with its I/O passed in.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	f, err := parseFlags(args, stderr)
	if err != nil {
		return err
	}
	if f.kind != "" {
		// Re-exec'd by the fleet file: stdout belongs to MCP. With
		// OTEL_EXPORTER_OTLP_ENDPOINT (inherited) the server joins the trace.
		tel, err := telemetry.Start(ctx, telemetry.Options{ServiceName: "incident-" + f.name})
		if err != nil {
			return err
		}
		defer tel.Shutdown(context.WithoutCancel(ctx))
		return fleet.ServeStdio(ctx, fleet.Instance{Kind: f.kind, Name: f.name, ReadOnly: f.readonly, Tracer: tel.TracerProvider()}, stdin, stdout)
	}
	ctx, cancel := context.WithTimeout(ctx, f.timeout)
	defer cancel()
	return investigate(ctx, f, stdout, stderr)
}

// selfPath is the binary the fleet file re-execs for every server.
func selfPath() (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", fmt.Errorf("finding this binary to serve the fleet: %w", err)
	}
	return exe, nil
}
