package goldenfile

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The flag is registered once per test binary, by whichever test package
// imports this one.
var update = flag.Bool("update", false, "rewrite golden files from the current output")

// Updating reports whether the test binary runs with -update.
func Updating() bool { return *update }

// Check compares got with the file at path, or writes it under -update.
// A mismatch is reported as a (-want +got) diff.
func Check(t testing.TB, path, got string) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if diff := cmp.Diff(string(want), got); diff != "" {
		t.Errorf("%s mismatch; run go test -update and review the diff (-want +got):\n%s", path, diff)
	}
}

// CheckNamed checks testdata/<name>.golden.
func CheckNamed(t testing.TB, name, got string) {
	t.Helper()
	Check(t, filepath.Join("testdata", name+".golden"), got)
}
