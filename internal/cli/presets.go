package cli

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/mcpfleet/mcpfleet/presets"
)

// PresetsReport is what `presets` prints: the preset each kind got.
type PresetsReport struct {
	// Enabled is false when the fleet file says presets: false.
	Enabled bool                 `json:"enabled"`
	Kinds   []presets.Assignment `json:"kinds"`
}

func runPresets(ctx context.Context, env []string, stdin io.Reader, stdout, stderr io.Writer, args []string) error {
	fs, c := newFlagSet("presets", "--config FILE [--json]", env, stderr)
	asJSON := fs.Bool("json", false, "print JSON")
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageErrorf("presets takes no arguments, got %q", fs.Args())
	}
	mx, err := connect(ctx, c, stderr)
	if err != nil {
		return err
	}
	defer mx.Close()
	f := mx.Config()
	// What the Mux matched and merged when it started: the one place
	// presets are applied.
	rep := PresetsReport{Enabled: f.Presets == nil || *f.Presets, Kinds: mx.Presets()}
	return emit(stdout, *asJSON, rep, func(w io.Writer) { writePresets(w, rep) })
}

func writePresets(w io.Writer, r PresetsReport) {
	if !r.Enabled {
		fmt.Fprintln(w, "presets are off (presets: false in the fleet file)")
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "KIND\tPRESET\tWHY")
	for _, a := range r.Kinds {
		why := a.Reason
		switch {
		case a.Reason == presets.ReasonFingerprint || a.Reason == presets.ReasonName:
			why = fmt.Sprintf("%s, tool-name overlap %.2f", a.Reason, a.Score)
		case a.Reason == presets.ReasonOff && a.Preset != "":
			why = fmt.Sprintf("off; would match by %s, tool-name overlap %.2f", a.Match, a.Score)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\n", a.Kind, cmp.Or(a.Preset, "-"), why)
	}
	tw.Flush()
}
