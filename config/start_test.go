package config

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestStartProblems(t *testing.T) {
	doc := "start: lasy\nservers:\n  - {name: a, command: a, start: backgrund}\n  - {name: b, command: b, start: eager}\n"
	got := problemLines(t, doc)
	want := []string{
		`start: got "lasy", want one of eager, lazy, background (did you mean "lazy"?)`,
		`servers[0] (a): start: got "backgrund", want one of eager, lazy, background (did you mean "background"?)`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("problems (-want +got):\n%s", diff)
	}
}

func TestStartMode(t *testing.T) {
	f, err := loadYAML(t, "start: lazy\nservers:\n  - {name: a, command: a}\n  - {name: b, command: b, start: background}\n  - {name: c, command: c, start: eager}\n")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range f.Servers {
		got = append(got, f.StartMode(s))
	}
	if diff := cmp.Diff([]string{StartLazy, StartBackground, StartEager}, got); diff != "" {
		t.Errorf("modes (-want +got):\n%s", diff)
	}
	if m := (&Fleet{}).StartMode(Server{Name: "x"}); m != StartEager {
		t.Errorf("default: got %q, want %q", m, StartEager)
	}
}

func TestLoadSetsPath(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "fleet.yaml")
	if err := os.WriteFile(path, []byte("servers:\n  - {name: a, command: a}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := LoadWith(path, LoadOptions{Environ: []string{}})
	if err != nil {
		t.Fatal(err)
	}
	if f.Path != path {
		t.Errorf("Path: got %q, want %q", f.Path, path)
	}
}
