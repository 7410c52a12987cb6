package cli

import (
	"context"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/mcpfleet/mcpfleet"
)

func runStatus(ctx context.Context, env []string, stdin io.Reader, stdout, stderr io.Writer, args []string) error {
	fs, c := newFlagSet("status", "--config FILE [--json]", env, stderr)
	asJSON := fs.Bool("json", false, "print JSON (includes the time of the last state change)")
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageErrorf("status takes no arguments, got %q", fs.Args())
	}
	mx, err := connect(ctx, c, stderr)
	if err != nil {
		return err
	}
	defer mx.Close()
	st := mx.Status()
	if st == nil {
		st = []mcpfleet.ServerStatus{}
	}
	// Text leaves out the change time so that transcripts are reproducible.
	return emit(stdout, *asJSON, st, func(w io.Writer) {
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "SERVER\tKIND\tSTATE\tTOOLS\tRECONNECTS\tLAST ERROR")
		for _, s := range st {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%d\t%s\n", s.Name, s.Kind, s.State, s.Tools, s.Reconnects, s.LastError)
		}
		tw.Flush()
		for _, s := range st {
			if s.LockedSoftware != "" {
				fmt.Fprintf(w, "\n%s: server software %q, locked %q (reported; it quarantines nothing)\n", s.Name, s.Software, s.LockedSoftware)
			}
		}
		var pins []mcpfleet.PinIssue
		quarantined := 0
		for _, s := range st {
			for _, is := range s.Pins {
				pins = append(pins, is)
				if is.Quarantined {
					quarantined++
				}
			}
		}
		if len(pins) > 0 {
			fmt.Fprintf(w, "\npinning %s: %d quarantined, %d flagged\n", mx.PinningMode(), quarantined, len(pins)-quarantined)
			writeIssues(w, pins)
		}
	})
}
