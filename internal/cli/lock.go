package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/mcpfleet/mcpfleet"
	"github.com/mcpfleet/mcpfleet/config"
)

// LockReport is what `mcpfleet lock` did or found.
type LockReport struct {
	// Path is the lock file.
	Path string `json:"path"`
	// Wrote is true when the lock file was written.
	Wrote bool `json:"wrote"`
	Kinds int  `json:"kinds"`
	Tools int  `json:"tools"`
	// Approved are the kind/tool names --approve pinned anew.
	Approved []string `json:"approved,omitempty"`
	// Drift lists tools two servers of one kind define differently.
	Drift []mcpfleet.LockDrift `json:"drift,omitempty"`
	// Issues are the differences --diff found.
	Issues []mcpfleet.PinIssue `json:"issues,omitempty"`
	// Software lists kinds whose server software differs from the lock's.
	Software []mcpfleet.SoftwareChange `json:"software,omitempty"`
}

func runLock(ctx context.Context, env []string, stdin io.Reader, stdout, stderr io.Writer, args []string) error {
	fs, c := newFlagSet("lock", "--config FILE [--diff | --approve KIND/TOOL...] [--json]", env, stderr)
	diff := fs.Bool("diff", false, "show what differs from the lock file, field by field, and write nothing")
	approve := fs.Bool("approve", false, "pin the named tools (kind/tool, or tool for every kind) to their current definitions")
	asJSON := fs.Bool("json", false, "print JSON")
	if err := parse(fs, args); err != nil {
		return err
	}
	switch {
	case *diff && *approve:
		return usageErrorf("--diff and --approve cannot be combined")
	case *approve && fs.NArg() == 0:
		return usageErrorf("--approve needs the tools to approve, e.g. github/create_issue")
	case !*approve && fs.NArg() > 0:
		return usageErrorf("lock takes no arguments without --approve, got %q", fs.Args())
	}
	differs, err := runLockWith(ctx, c, stdout, stderr, *diff, *approve, *asJSON, fs.Args())
	switch {
	case err != nil && *diff:
		// Like diff(1): 2 is trouble, 1 is differences.
		var ee *ExitError
		if errors.As(err, &ee) {
			return &ExitError{Code: ExitTrouble, Err: ee.Err}
		}
		return &ExitError{Code: ExitTrouble, Err: err}
	case err != nil:
		return err
	case differs:
		return &ExitError{Code: ExitFailure} // the differences are the output
	}
	return nil
}

// runLockWith does what runLock's flags ask and reports whether --diff
// found differences.
func runLockWith(ctx context.Context, c *common, stdout, stderr io.Writer, diff, approve, asJSON bool, names []string) (bool, error) {
	if c.config == "" {
		return false, errNoConfig
	}
	cfg, err := loadFleet(c)
	if err != nil {
		return false, err
	}
	prev := cfg.Lock
	if (diff || approve) && prev == nil {
		return false, fmt.Errorf("no lock file at %s: run mcpfleet lock --config %s first", cfg.LockPath(), c.config)
	}
	// Every tool must be seen, the quarantined ones above all.
	cfg.Pinning = config.PinningOff
	mx, err := connectFleet(ctx, c, cfg, stderr)
	if err != nil {
		return false, err
	}
	defer mx.Close()
	rep := LockReport{Path: cfg.LockPath()}
	var lock *config.Lock
	switch {
	case diff:
		rep.Issues = mx.CheckLock(prev)
		rep.Software = mx.SoftwareChanges(prev)
	case approve:
		lock, err = mx.Approve(prev, names)
		if err != nil {
			return false, err
		}
		rep.Approved = names
	default:
		lock, rep.Drift = mx.Lock(prev)
	}
	if lock != nil {
		if err := writeFileAtomic(rep.Path, lock.Marshal()); err != nil {
			return false, err
		}
		rep.Wrote = true
		rep.Kinds = len(lock.Kinds)
		for _, lk := range lock.Kinds {
			rep.Tools += len(lk.Tools)
		}
	}
	if err := emit(stdout, asJSON, rep, func(w io.Writer) { writeLock(w, rep) }); err != nil {
		return false, err
	}
	return diff && (len(rep.Issues) > 0 || len(rep.Software) > 0), nil
}

func writeLock(w io.Writer, r LockReport) {
	name := filepath.Base(r.Path)
	switch {
	case r.Approved != nil:
		fmt.Fprintf(w, "approved %s; wrote %s: %d kinds, %d tools\n", strings.Join(r.Approved, ", "), name, r.Kinds, r.Tools)
	case r.Wrote:
		fmt.Fprintf(w, "wrote %s: %d kinds, %d tools\n", name, r.Kinds, r.Tools)
		for _, d := range r.Drift {
			fmt.Fprintf(w, "drift: %s/%s on %s differs from %s, whose definition was locked\n", d.Kind, d.Tool, d.Server, d.Locked)
		}
	default:
		if len(r.Issues) == 0 && len(r.Software) == 0 {
			fmt.Fprintf(w, "no differences from %s\n", name)
			return
		}
		for _, s := range r.Software {
			fmt.Fprintf(w, "%s on %s: server software %q, locked %q\n", s.Kind, s.Server, s.Now, s.Locked)
		}
		writeIssues(w, r.Issues)
	}
}

// writeIssues renders pin issues, one block per tool: what failed, then
// each changed field and each finding. Spans are quoted, so that hidden
// characters and escapes show instead of acting on the terminal.
func writeIssues(w io.Writer, issues []mcpfleet.PinIssue) {
	sort.SliceStable(issues, func(i, j int) bool {
		a, b := issues[i], issues[j]
		if a.Kind != b.Kind {
			return a.Kind < b.Kind
		}
		return a.Tool < b.Tool
	})
	for _, is := range issues {
		where := ""
		if is.Server != "" {
			where = " on " + is.Server
		}
		state := ""
		if is.Quarantined {
			state = ", quarantined"
		}
		fmt.Fprintf(w, "%s/%s%s: %s%s", is.Kind, is.Tool, where, strings.Join(is.Problems, ", "), state)
		if is.SHA256 != "" {
			fmt.Fprintf(w, " (sha256 %s)", is.SHA256)
		}
		fmt.Fprintln(w)
		if slices.Contains(is.Problems, mcpfleet.PinChanged) && len(is.Changes) == 0 {
			fmt.Fprintf(w, "  no field differs from the definition the lock records: its sha256 (%s) was edited, or the lock holds no definition\n", is.Locked)
		}
		for _, c := range is.Changes {
			fmt.Fprintf(w, "  %s: %s -> %s\n", c.Path, orAbsent(c.Old), orAbsent(c.New))
		}
		for _, f := range is.Findings {
			fmt.Fprintf(w, "  %s: %s %q\n", f.Field, f.Rule, f.Span)
		}
	}
}

func orAbsent(s string) string {
	if s == "" {
		return "(absent)"
	}
	return s
}
