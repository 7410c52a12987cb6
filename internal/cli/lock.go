package cli

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/mcpfleet/mcpfleet"
	"github.com/mcpfleet/mcpfleet/adapters/eino/judge"
	"github.com/mcpfleet/mcpfleet/adapters/eino/openai"
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
	// Judged counts the definitions --judge judged on this run;
	// Poisoned are the lock's definitions a model judged poisoned (on
	// this run or before), and NotJudged those this run could not judge
	// (they keep no verdict).
	Judged    int          `json:"judged,omitempty"`
	Poisoned  []JudgedTool `json:"poisoned,omitempty"`
	NotJudged []string     `json:"not_judged,omitempty"`
}

// JudgedTool is one definition a model judged poisoned.
type JudgedTool struct {
	Kind string `json:"kind"`
	Tool string `json:"tool"`
	config.Judgement
}

func runLock(ctx context.Context, env []string, stdin io.Reader, stdout, stderr io.Writer, args []string) error {
	fs, c := newFlagSet("lock", "--config FILE [--diff | --approve KIND/TOOL...] [--judge] [--json]", env, stderr)
	diff := fs.Bool("diff", false, "show what differs from the lock file, field by field, and write nothing")
	approve := fs.Bool("approve", false, "pin the named tools (kind/tool, or tool for every kind) to their current definitions")
	judged := fs.Bool("judge", false, "ask the chat model of $"+openai.EnvModel+" and $"+openai.EnvBaseURL+" to judge each definition the lock has no verdict for, and record the verdicts")
	asJSON := fs.Bool("json", false, "print JSON")
	if err := parse(fs, args); err != nil {
		return err
	}
	switch {
	case *diff && *judged:
		return usageErrorf("--judge records verdicts in the lock file and --diff writes nothing; run mcpfleet lock --judge")
	case *diff && *approve:
		return usageErrorf("--diff and --approve cannot be combined")
	case *approve && fs.NArg() == 0:
		return usageErrorf("--approve needs the tools to approve, e.g. github/create_issue")
	case !*approve && fs.NArg() > 0:
		return usageErrorf("lock takes no arguments without --approve, got %q", fs.Args())
	}
	var jd *judge.Judge
	if *judged {
		mc, err := openai.ModelConfigFromEnv(func(k string) string { return lookupEnv(env, k) })
		if err != nil {
			return fmt.Errorf("lock --judge: %w", err)
		}
		m, err := openai.NewModel(ctx, mc)
		if err != nil {
			return fmt.Errorf("lock --judge: %w", err)
		}
		jd = judge.New(m, mc.Model)
	}
	differs, err := runLockWith(ctx, c, stdout, stderr, *diff, *approve, *asJSON, fs.Args(), jd)
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
// found differences. With a judge, the lock written is judged first.
func runLockWith(ctx context.Context, c *common, stdout, stderr io.Writer, diff, approve, asJSON bool, names []string, jd *judge.Judge) (bool, error) {
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
	var notJudged error
	if lock != nil && jd != nil {
		notJudged = judgeLock(ctx, jd, lock, &rep)
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
	if notJudged != nil {
		return false, notJudged
	}
	return diff && (len(rep.Issues) > 0 || len(rep.Software) > 0), nil
}

// judgeLock judges lock's unjudged definitions into it and fills rep. A
// definition that could not be judged keeps no verdict; the error says
// how many, and the lock is written all the same so that a second run
// judges only those.
func judgeLock(ctx context.Context, jd *judge.Judge, lock *config.Lock, rep *LockReport) error {
	n, errs := jd.JudgeLock(ctx, lock, judge.DefaultParallel)
	rep.Judged = n
	for _, err := range errs {
		rep.NotJudged = append(rep.NotJudged, err.Error())
	}
	for _, kind := range slices.Sorted(maps.Keys(lock.Kinds)) {
		for _, tool := range slices.Sorted(maps.Keys(lock.Kinds[kind].Tools)) {
			if j := lock.Kinds[kind].Tools[tool].Judged; j != nil && j.Verdict == config.VerdictPoisoned {
				rep.Poisoned = append(rep.Poisoned, JudgedTool{Kind: kind, Tool: tool, Judgement: *j})
			}
		}
	}
	if len(errs) > 0 {
		return fmt.Errorf("lock --judge: %d definitions not judged (listed with the output); they keep no verdict, and mcpfleet lock --judge asks again for them alone", len(errs))
	}
	return nil
}

func writeLock(w io.Writer, r LockReport) {
	name := filepath.Base(r.Path)
	switch {
	case r.Approved != nil:
		fmt.Fprintf(w, "approved %s; wrote %s: %d kinds, %d tools\n", strings.Join(r.Approved, ", "), name, r.Kinds, r.Tools)
		writeJudged(w, r)
	case r.Wrote:
		fmt.Fprintf(w, "wrote %s: %d kinds, %d tools\n", name, r.Kinds, r.Tools)
		for _, d := range r.Drift {
			fmt.Fprintf(w, "drift: %s/%s on %s differs from %s, whose definition was locked\n", d.Kind, d.Tool, d.Server, d.Locked)
		}
		writeJudged(w, r)
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

// writeJudged renders what --judge found: the count, then each poisoned
// definition in the lock with the model's class, field and quoted
// evidence, then each definition left unjudged.
func writeJudged(w io.Writer, r LockReport) {
	if r.Judged == 0 && len(r.Poisoned) == 0 && len(r.NotJudged) == 0 {
		return
	}
	fmt.Fprintf(w, "judged %d definitions; %d in the lock judged poisoned\n", r.Judged, len(r.Poisoned))
	for _, p := range r.Poisoned {
		fmt.Fprintf(w, "poisoned: %s/%s (%s, by %s) in %s: %q\n", p.Kind, p.Tool, p.Class, p.By, cmp.Or(p.Field, "the definition"), p.Evidence)
	}
	for _, e := range r.NotJudged {
		fmt.Fprintf(w, "not judged: %s\n", e)
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
