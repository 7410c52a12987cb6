package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/mcpfleet/mcpfleet/examples/incident/fleet"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "fleetserver:", err)
		os.Exit(2)
	}
}

func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("fleetserver", flag.ContinueOnError)
	fs.SetOutput(stderr)
	kind := fs.String("kind", "", "kind of simulated server: "+strings.Join(fleet.Kinds(), ", "))
	name := fs.String("name", "", "instance name, e.g. k8s-3 (defaults to the kind)")
	readonly := fs.Bool("readonly", false, "expose only read-only tools")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *kind == "" {
		return fmt.Errorf("--kind is required (one of %s)", strings.Join(fleet.Kinds(), ", "))
	}
	if *name == "" {
		*name = *kind
	}
	return fleet.ServeStdio(ctx, fleet.Instance{Kind: *kind, Name: *name, ReadOnly: *readonly}, stdin, stdout)
}
