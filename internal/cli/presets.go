package cli

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/mcpfleet/mcpfleet"
	"github.com/mcpfleet/mcpfleet/kindgroups"
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
	all, err := presets.All()
	if err != nil {
		return err
	}
	mx, err := connect(ctx, c, stderr)
	if err != nil {
		return err
	}
	defer mx.Close()
	f := *mx.Config() // Apply writes kind_settings: work on a copy
	f.KindSettings = nil
	rep := PresetsReport{Enabled: f.Presets == nil || *f.Presets}
	rep.Kinds = presets.Apply(&f, all, presetKinds(mx), presets.Options{})
	return emit(stdout, *asJSON, rep, func(w io.Writer) { writePresets(w, rep) })
}

// presetKinds gathers each kind's serverInfo names (as `status` shows
// them: name and version) and tool names.
func presetKinds(mx *mcpfleet.Mux) []presets.Kind {
	software := map[string]string{}
	for _, s := range mx.Status() {
		software[s.Name] = s.Software
	}
	var out []presets.Kind
	for _, g := range kindgroups.Fold(mx.Servers()) {
		k := presets.Kind{Name: g.Kind, Tools: g.Tools}
		for _, srv := range g.Servers {
			if sw := software[srv]; sw != "" {
				k.ServerInfo = append(k.ServerInfo, sw)
			}
		}
		out = append(out, k)
	}
	return out
}

func writePresets(w io.Writer, r PresetsReport) {
	if !r.Enabled {
		fmt.Fprintln(w, "presets are off (presets: false in the fleet file)")
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "KIND\tPRESET\tWHY")
	for _, a := range r.Kinds {
		why := a.Reason
		if a.Reason == presets.ReasonFingerprint || a.Reason == presets.ReasonName {
			why = fmt.Sprintf("%s, tool-name overlap %.2f", a.Reason, a.Score)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\n", a.Kind, cmp.Or(a.Preset, "-"), why)
	}
	tw.Flush()
}
