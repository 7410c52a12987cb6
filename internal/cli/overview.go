package cli

import (
	"context"
	"fmt"
	"io"
)

// Overview is what `overview` prints: the orchestrator's view.
type Overview struct {
	// Text is exactly mx.Overview(), the text the orchestrator model sees.
	Text  string         `json:"text"`
	Kinds []OverviewKind `json:"kinds"`
	// Down lists servers that are not up; they are also warned about on stderr.
	Down []string `json:"down"`
}

// OverviewKind is one kind and its servers.
type OverviewKind struct {
	Kind    string   `json:"kind"`
	Servers []string `json:"servers"`
}

func runOverview(ctx context.Context, env []string, stdin io.Reader, stdout, stderr io.Writer, args []string) error {
	fs, c := newFlagSet("overview", "--config FILE [--json]", env, stderr)
	asJSON := fs.Bool("json", false, "print JSON")
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageErrorf("overview takes no arguments, got %q", fs.Args())
	}
	mx, err := connect(ctx, c, stderr)
	if err != nil {
		return err
	}
	defer mx.Close()
	ov := Overview{Text: mx.Overview(), Kinds: []OverviewKind{}, Down: []string{}}
	for _, g := range mx.KindGroups() {
		ov.Kinds = append(ov.Kinds, OverviewKind{Kind: g.Kind, Servers: g.Servers})
	}
	for _, s := range mx.Status() {
		if !s.State.Serving() && !s.FromCache {
			ov.Down = append(ov.Down, s.Name)
		}
	}
	return emit(stdout, *asJSON, ov, func(w io.Writer) { fmt.Fprint(w, ov.Text) })
}
