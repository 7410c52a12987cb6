package cli

import (
	"io"
	"slices"
	"strings"
	"testing"
)

// FuzzParse: any argument list parses or fails as a usage error, never
// panics, and reordering keeps the positional arguments in their order.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"--config\x00F\x00S\x00T\x00{}",
		"S\x00T\x00{}\x00--config\x00F\x00--json",
		"--\x00--json\x00-",
		"-\x00--config=F\x00-json=false\x00--config",
		"---x\x00=\x00--=\x00-h",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, joined string) {
		args := strings.Split(joined, "\x00")
		fs, _ := newFlagSet("call", "", nil, io.Discard)
		fs.Bool("json", false, "")
		err := parse(fs, args)
		if err != nil {
			return
		}
		// Every positional argument the caller gave appears, in order.
		var want []string
		for i := 0; i < len(args); i++ {
			a := args[i]
			if a == "--" {
				want = append(want, args[i+1:]...)
				break
			}
			if len(a) < 2 || a[0] != '-' {
				want = append(want, a)
				continue
			}
			name := strings.TrimLeft(a, "-")
			if fl := fs.Lookup(name); fl != nil && !strings.Contains(name, "=") {
				if b, ok := fl.Value.(interface{ IsBoolFlag() bool }); !ok || !b.IsBoolFlag() {
					i++
				}
			}
		}
		if !slices.Equal(want, fs.Args()) {
			t.Errorf("args %q: positional %q, want %q", args, fs.Args(), want)
		}
	})
}
