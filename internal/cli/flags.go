package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
)

// envConfig names the variable that supplies --config when the flag is absent.
const envConfig = "MCPFLEET_CONFIG"

// common are the flags every fleet subcommand takes.
type common struct {
	config string
	strict bool
	// env is the subcommand's environment, which the fleet file's ${VAR}
	// and MCPFLEET_* overrides read instead of the process's.
	env []string
}

// newFlagSet returns a ContinueOnError flag set whose usage goes to w, with
// --config and --strict registered.
func newFlagSet(name, synopsis string, env []string, w io.Writer) (*flag.FlagSet, *common) {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(w)
	fs.Usage = func() {
		fmt.Fprintf(w, "usage: mcpfleet %s %s\n\nflags:\n", name, synopsis)
		fs.PrintDefaults()
	}
	if env == nil {
		// config.LoadOptions reads a nil Environ as the process's; Run's
		// env is the whole environment, so nil means none.
		env = []string{}
	}
	c := &common{env: env}
	fs.StringVar(&c.config, "config", lookupEnv(env, envConfig), "fleet `file` (.yaml, .yml or .json); default $"+envConfig)
	fs.BoolVar(&c.strict, "strict", false, "fail if any server is down (and, for catalog --lint, on any finding)")
	return fs, c
}

// parse parses args with flags allowed before or after positional
// arguments, so `call --config F S T '{}'` and `call S T '{}' --config F`
// both work. "--" ends flag parsing. -h returns flag.ErrHelp unchanged;
// every other failure is a usage error.
func parse(fs *flag.FlagSet, args []string) error {
	// The flag package prints the error and the usage on any failure; keep
	// the usage for -h only, and let report print errors once, its way.
	usage, out := fs.Usage, fs.Output()
	fs.Usage = func() {}
	fs.SetOutput(io.Discard)
	err := fs.Parse(reorder(fs, args))
	fs.Usage = usage
	fs.SetOutput(out)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			usage()
			return err
		}
		return &ExitError{Code: ExitUsage, Err: err}
	}
	return nil
}

// reorder moves flags (and the values of non-boolean flags) ahead of the
// positional arguments. A lone "-" and anything after "--" are positional.
func reorder(fs *flag.FlagSet, args []string) []string {
	var flags, pos []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			pos = append(pos, args[i+1:]...)
			break
		}
		if len(a) < 2 || a[0] != '-' {
			pos = append(pos, a)
			continue
		}
		flags = append(flags, a)
		name := strings.TrimLeft(a, "-")
		if strings.Contains(name, "=") {
			continue
		}
		f := fs.Lookup(name)
		if f == nil {
			continue // fs.Parse reports it
		}
		if b, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && b.IsBoolFlag() {
			continue
		}
		if i+1 == len(args) {
			// The value is missing: leave the flag last so that Parse
			// reports it rather than taking "--" as its value.
			return flags
		}
		i++
		flags = append(flags, args[i])
	}
	out := append(flags, "--")
	return append(out, pos...)
}

// splitList splits a comma-separated flag value, dropping empty items.
func splitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// lookupEnv finds key in an os.Environ-shaped slice; the last entry wins,
// as in the os package.
func lookupEnv(env []string, key string) string {
	v := ""
	for _, kv := range env {
		if k, val, ok := strings.Cut(kv, "="); ok && k == key {
			v = val
		}
	}
	return v
}
