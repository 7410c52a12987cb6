package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/mcpfleet/mcpfleet/catalog/tuning"
)

// runSearchReport reads a telemetry log written by catalog.NewJSONLRecorder
// and prints what it says about search: likely false negatives, queries
// that found nothing, tools never found, and loads never used. It needs no
// fleet: the log names everything.
func runSearchReport(ctx context.Context, env []string, stdin io.Reader, stdout, stderr io.Writer, args []string) error {
	fs := flag.NewFlagSet("search-report", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: mcpfleet search-report [--json] LOG\n\nLOG is a JSON Lines telemetry log (catalog.NewJSONLRecorder); - reads stdin.\n\nflags:\n")
		fs.PrintDefaults()
	}
	asJSON := fs.Bool("json", false, "print the report as JSON")
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return usageErrorf("search-report needs exactly one LOG, got %d arguments", fs.NArg())
	}
	var r io.Reader = stdin
	if path := fs.Arg(0); path != "-" {
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		defer f.Close()
		r = f
	}
	events, err := tuning.ReadLog(r)
	if err != nil {
		return err
	}
	rep := tuning.AnalyzeLog(events)
	return emit(stdout, *asJSON, rep, func(w io.Writer) { searchReportText(w, rep) })
}

func searchReportText(w io.Writer, rep tuning.SearchReport) {
	fmt.Fprintf(w, "%d sessions, %d searches, %d loads, %d allowed calls\n", rep.Sessions, rep.Searches, rep.Loads, rep.Calls)

	fmt.Fprintf(w, "\nLikely false negatives (loaded by name after searches that missed it): %d\n", len(rep.FalseNegatives))
	for _, f := range rep.FalseNegatives {
		fmt.Fprintf(w, "  %s  %s (loaded as %s)\n", f.Session, f.Tool, f.Name)
		qs := make([]string, len(f.Queries))
		for i, q := range f.Queries {
			qs[i] = fmt.Sprintf("%q", q)
		}
		fmt.Fprintf(w, "      after searching %s\n", strings.Join(qs, ", "))
	}

	fmt.Fprintf(w, "\nQueries that returned nothing: %d\n", len(rep.EmptyQueries))
	for _, q := range rep.EmptyQueries {
		fmt.Fprintf(w, "  %3dx  %q\n", q.Count, q.Query)
	}

	fmt.Fprintf(w, "\nLoaded tools no search ever returned: %d\n", len(rep.NeverFound))
	for _, t := range rep.NeverFound {
		fmt.Fprintf(w, "  %s  (%d loads, %d calls)\n", t.Tool, t.Loads, t.Calls)
	}

	fmt.Fprintf(w, "\nLoaded but never called in the session: %d\n", len(rep.LoadedNotCalled))
	for _, t := range rep.LoadedNotCalled {
		fmt.Fprintf(w, "  %s  (%d sessions)\n", t.Tool, t.Loads)
	}
}
