package cli

import (
	"os"
	"path/filepath"
	"testing"
)

// TestWriteFileAtomic: the file is replaced whole and no temporary file
// is left beside it; a folder that does not exist is an error naming the
// path, and leaves nothing behind.
func TestWriteFileAtomic(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "w.json")
	if err := os.WriteFile(path, []byte(`{"old": "and much longer than the new content"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := writeFileAtomic(path, []byte("{}\n")); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(path)
	if err != nil || string(got) != "{}\n" {
		t.Fatalf("file = %q, %v; want {}", got, err)
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o644 {
		t.Errorf("mode = %v, %v; want 0644", fi.Mode().Perm(), err)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Errorf("%d files in the folder, want 1", len(ents))
	}
	missing := filepath.Join(dir, "nope", "w.json")
	if err := writeFileAtomic(missing, []byte("{}")); err == nil {
		t.Error("no error writing into a missing folder")
	}
}
