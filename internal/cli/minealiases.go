package cli

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode"

	"github.com/mcpfleet/mcpfleet/catalog/tuning"
)

func runMineAliases(ctx context.Context, env []string, stdin io.Reader, stdout, stderr io.Writer, args []string) error {
	fs, c := newFlagSet("mine-aliases", "--config FILE --queries FILE [--json] [--min-queries N] [--min-splits N] [--min-precision P] [--min-kind-share P] [--max-per-tool N]", env, stderr)
	asJSON := fs.Bool("json", false, "print the mined aliases as a JSON array instead of a fleet-file fragment")
	queries := fs.String("queries", "", "JSON Lines `file` of {\"q\", \"expect\": [\"kind:tool\"], \"split\"} to mine (- reads stdin)")
	// Zero leaves each knob to tuning.MineOptions' default. The help
	// repeats those numbers because catalog exports no constants for
	// them, as it does for fit-search's DefaultFitSteps.
	var opt tuning.MineOptions
	fs.IntVar(&opt.MinQueries, "min-queries", 0, "requests that must say a phrase and expect the tool (default 3)")
	fs.IntVar(&opt.MinSplits, "min-splits", 0, "distinct splits those requests must come from (default 2)")
	fs.Float64Var(&opt.MinPrecision, "min-precision", 0, "least share of the requests saying a phrase that expect the tool (default 0.5)")
	fs.Float64Var(&opt.MinKindShare, "min-kind-share", 0, "least share of the requests saying each word that expect a tool of the kind (default 0.6)")
	fs.IntVar(&opt.MaxPerTool, "max-per-tool", 0, "phrases kept per tool, best first (default 6)")
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageErrorf("mine-aliases takes no arguments, got %q", fs.Args())
	}
	if *queries == "" {
		return usageErrorf("mine-aliases needs --queries FILE")
	}
	if err := checkMineFlags(fs, opt); err != nil {
		return err
	}
	qs, mx, err := labelledFleet(ctx, c, *queries, stdin, stderr)
	if err != nil {
		return err
	}
	defer mx.Close()
	// The fleet file's own catalog lines and aliases count as what a
	// tool already says, so a second run after pasting proposes only
	// what is new.
	mined := tuning.MineAliases(buildCatalog(mx), qs, opt)
	if mined == nil {
		mined = []tuning.MinedAlias{} // [] in JSON, not null
	}
	source := *queries
	if source == "-" {
		source = "stdin"
	}
	// The path goes into a YAML comment, which a line break in it
	// would end: quote any path with a character that is not printable.
	if strings.ContainsFunc(source, func(r rune) bool { return !unicode.IsPrint(r) }) {
		source = strconv.Quote(source)
	}
	return emit(stdout, *asJSON, mined, func(w io.Writer) { writeMinedYAML(w, mined, len(qs), source) })
}

// checkMineFlags refuses values MineOptions would silently replace with
// its default (zero, negative) or that no share can meet. Only flags
// given are checked: unset ones are zero on purpose.
func checkMineFlags(fs *flag.FlagSet, opt tuning.MineOptions) error {
	var problems []string
	fs.Visit(func(f *flag.Flag) {
		switch f.Name {
		case "min-queries", "min-splits", "max-per-tool":
			if n := f.Value.(flag.Getter).Get().(int); n < 1 {
				problems = append(problems, fmt.Sprintf("--%s must be at least 1, got %d", f.Name, n))
			}
		case "min-precision", "min-kind-share":
			if p := f.Value.(flag.Getter).Get().(float64); !(p > 0 && p <= 1) {
				problems = append(problems, fmt.Sprintf("--%s must be above 0 and at most 1, got %g", f.Name, p))
			}
		}
	})
	if len(problems) > 0 {
		return usageErrorf("%s", strings.Join(problems, "; "))
	}
	return nil
}

// writeMinedYAML renders mined as a fragment of a fleet file, in its key
// names, for an operator to review and paste. Phrases are JSON strings,
// which YAML reads as double-quoted scalars, so no phrase needs a
// quoting rule of its own.
func writeMinedYAML(w io.Writer, mined []tuning.MinedAlias, queries int, source string) {
	if len(mined) == 0 {
		fmt.Fprintf(w, "# No aliases mined from %s in %s.\n", plural(queries, "labelled request"), source)
		return
	}
	fmt.Fprintf(w, "# Mined from %s in %s. Review before use:\n", plural(queries, "labelled request"), source)
	fmt.Fprint(w, "# drop phrases that name your own systems, people or incidents.\n")
	fmt.Fprint(w, "# Merge into the fleet file's kind_settings if it has one already.\n")
	fmt.Fprint(w, "kind_settings:\n")
	var kind, tool string
	for i, m := range mined {
		if i == 0 || m.Kind != kind {
			fmt.Fprintf(w, "  %s:\n    aliases:\n", yamlKey(m.Kind))
			kind, tool = m.Kind, ""
		}
		if m.Tool != tool {
			fmt.Fprintf(w, "      %s:\n", yamlKey(m.Tool))
			tool = m.Tool
		}
		fmt.Fprintf(w, "        - %s  # %s, %s, precision %.2f\n",
			jsonString(m.Phrase), plural(m.Queries, "request"), plural(m.Splits, "split"), m.Precision)
	}
}

// yamlKey writes a kind or tool name bare when YAML reads it back as the
// same string, and as a JSON string otherwise.
func yamlKey(s string) string {
	switch strings.ToLower(s) {
	case "", "~", "null", "true", "false", "yes", "no", "on", "off", "y", "n":
		return jsonString(s)
	}
	for i, r := range s {
		plain := r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' ||
			i > 0 && (r == '-' || r >= '0' && r <= '9')
		if !plain {
			return jsonString(s)
		}
	}
	return s
}

func jsonString(s string) string {
	b, _ := json.Marshal(s) // a string always marshals
	return string(b)
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
