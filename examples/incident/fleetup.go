package main

import (
	"context"
	"fmt"
	"os"
	"slices"

	"go.opentelemetry.io/otel/trace"

	"github.com/mcpfleet/mcpfleet"
	"github.com/mcpfleet/mcpfleet/config"
	"github.com/mcpfleet/mcpfleet/examples/incident/fleet"
)

// envFleetBin is the variable fleet.yaml reads for the server command.
const envFleetBin = "MCPFLEET_FLEET_BIN"

// loadFleet reads the fleet file. Unless the caller already chose a server
// binary, every stdio server is this same binary re-exec'd with --kind: no
// extra build, and it starts in milliseconds.
func loadFleet(path string) (*config.Fleet, error) {
	env := os.Environ()
	if os.Getenv(envFleetBin) == "" {
		exe, err := selfPath()
		if err != nil {
			return nil, err
		}
		// The file reads the server command from ${MCPFLEET_FLEET_BIN};
		// it is given to the loader, not set on the process.
		env = append(env, envFleetBin+"="+exe)
	}
	o := config.LoadOptions{Environ: env}
	if path != "" {
		return config.LoadWith(path, o)
	}
	wd, err := os.Getwd()
	if err != nil {
		return nil, err
	}
	return config.LoadBytesWith(fleetYAML, "yaml", wd, o)
}

// startFleet connects the fleet. With inprocess, every configured server is
// served by fleet.NewServer in this process instead of its command.
// tp, if set, traces the in-process servers too.
func startFleet(ctx context.Context, cfg *config.Fleet, inprocess bool, tp trace.TracerProvider, extra ...mcpfleet.Option) (*mcpfleet.Mux, error) {
	opts := []mcpfleet.Option{mcpfleet.WithHealthInterval(-1)}
	if inprocess {
		for _, s := range cfg.Servers {
			in := fleet.Instance{Kind: s.KindName(), Name: s.Name, ReadOnly: slices.Contains(s.Args, "--readonly"), Tracer: tp}
			srv, err := fleet.NewServer(in)
			if err != nil {
				return nil, fmt.Errorf("in-process server %s: %w", s.Name, err)
			}
			opts = append(opts, mcpfleet.WithInProcess(s.Name, s.KindName(), srv))
		}
	}
	opts = append(opts, extra...)
	mx, err := mcpfleet.New(ctx, cfg, opts...)
	if err != nil {
		return nil, err
	}
	return mx, nil
}

// downServers lists servers that are not up, as "name: reason".
func downServers(mx *mcpfleet.Mux) []string {
	var out []string
	for _, s := range mx.Status() {
		if s.State != mcpfleet.StateUp {
			out = append(out, fmt.Sprintf("%s (%s): %s", s.Name, s.State, s.LastError))
		}
	}
	return out
}
