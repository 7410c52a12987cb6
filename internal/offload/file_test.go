package offload

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// spillTexts are texts whose pages and greps a File must answer exactly
// as the text in memory does: marks deep in the text, lines longer than
// the scanner's buffer and than a search block, cuts inside a rune, no
// final newline, empty lines.
func spillTexts() map[string]string {
	var log strings.Builder
	for i := 0; log.Len() < 3*indexBytes+1000; i++ {
		fmt.Fprintf(&log, "2026-11-30T02:15:%02d line %d: request handled\n", i%60, i)
	}
	long := strings.Repeat("é", 3*searchBlock/4) // 1.5 blocks // 2-byte runes: cuts fall inside one
	return map[string]string{
		"empty":          "",
		"one line":       "just one line",
		"newlines":       strings.Repeat("\n", indexBytes+17),
		"log":            log.String(),
		"log unfinished": strings.TrimSuffix(log.String(), "\n"),
		"long lines":     "start\n" + long + "\nmiddle " + strings.Repeat("x", 40<<10) + "\n\n" + long + "x\nend",
		"one long line":  "a" + long,
		"json":           strings.Repeat("{\"key\": \"value ü\", \"n\": 12345678}\n", 5000),
	}
}

func spill(t *testing.T, text string) *File {
	t.Helper()
	f, err := Spill(t.TempDir(), text)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

func TestFileReadsAsText(t *testing.T) {
	for name, text := range spillTexts() {
		t.Run(name, func(t *testing.T) {
			f := spill(t, text)
			total := Lines(text)
			if f.Lines() != total || f.Size() != int64(len(text)) {
				t.Errorf("Lines, Size = %d, %d; want %d, %d", f.Lines(), f.Size(), total, len(text))
			}
			for _, off := range []int{-1, 0, 1, 399, 400, total / 3, total/2 + 1, total - 1, total, total + 5} {
				for _, limit := range []int{0, 7, 1000} {
					got, err := f.Read(off, limit)
					if err != nil {
						t.Fatal(err)
					}
					if diff := cmp.Diff(Read(text, off, limit), got); diff != "" {
						t.Fatalf("Read(%d, %d) (-text +file):\n%.2000s", off, limit, diff)
					}
				}
			}
			for _, pat := range []string{"line 1[0-9]*5:|^$|value", "éx|end|start|middle"} {
				for _, c := range []int{0, 2} { // 0: no context lines kept between blocks
					want, err := Search(text, pat, c)
					if err != nil {
						t.Fatal(err)
					}
					got, err := f.Search(pat, c)
					if err != nil {
						t.Fatal(err)
					}
					if diff := cmp.Diff(want, got); diff != "" {
						t.Fatalf("Search(%q, %d) (-text +file):\n%.2000s", pat, c, diff)
					}
				}
			}
			all, err := f.Text()
			if err != nil || all != text {
				t.Errorf("Text: %d bytes, err %v; want the %d bytes written", len(all), err, len(text))
			}
		})
	}
}

// The file has no name from the moment Spill returns, and a read after
// Close says the file is closed.
func TestFileUnlinkedAndClosed(t *testing.T) {
	dir := t.TempDir()
	f, err := Spill(dir, "a\nb\n")
	if err != nil {
		t.Fatal(err)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Errorf("dir holds %v; want nothing", ents)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := f.Read(0, 1); !errors.Is(err, os.ErrClosed) {
		t.Errorf("Read after Close: err = %v, want os.ErrClosed", err)
	}
	if _, err := f.Search("a", 0); !errors.Is(err, os.ErrClosed) {
		t.Errorf("Search after Close: err = %v, want os.ErrClosed", err)
	}
	if _, err := Spill(dir+"/missing", "x"); err == nil {
		t.Error("Spill into a missing folder: no error")
	}
}

func FuzzFileRead(f *testing.F) {
	f.Add("a\nbb\n\nccc", 1, 2)
	f.Add(strings.Repeat("é", 300)+"\nx", 0, 0)
	f.Fuzz(func(t *testing.T, text string, off, limit int) {
		sf, err := Spill(t.TempDir(), text)
		if err != nil {
			t.Fatal(err)
		}
		defer sf.Close()
		got, err := sf.Read(off%1000, limit)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(Read(text, off%1000, limit), got); diff != "" {
			t.Fatalf("(-text +file):\n%s", diff)
		}
	})
}
