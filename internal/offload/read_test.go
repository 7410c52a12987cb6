package offload

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestReadAndTail(t *testing.T) {
	text := "a\nb\nc\nd\ne\n"
	tests := []struct {
		name string
		got  Page
		want Page
	}{
		{"first two", Read(text, 0, 2), Page{Text: "a\nb\n", From: 1, To: 2, TotalLines: 5}},
		{"middle", Read(text, 2, 2), Page{Text: "c\nd\n", From: 3, To: 4, TotalLines: 5}},
		{"past the end", Read(text, 9, 2), Page{From: 10, To: 9, TotalLines: 5}},
		{"no trailing newline", Read("a\nb", 1, 5), Page{Text: "b\n", From: 2, To: 2, TotalLines: 2}},
		{"tail 2", Tail(text, 2), Page{Text: "d\ne\n", From: 4, To: 5, TotalLines: 5}},
		{"tail all", Tail(text, 9), Page{Text: text, From: 1, To: 5, TotalLines: 5}},
		{"tail no trailing newline", Tail("a\nb\nc", 2), Page{Text: "b\nc\n", From: 2, To: 3, TotalLines: 3}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, tc.got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestReadBounded(t *testing.T) {
	text := strings.Repeat(strings.Repeat("x", 1000)+"\n", 5000)
	p := Read(text, 0, 100000)
	if len(p.Text) > MaxReadBytes+MaxLineBytes+64 || !p.Truncated {
		t.Errorf("read %d bytes (truncated=%v); want at most about %d", len(p.Text), p.Truncated, MaxReadBytes)
	}
}

func TestSearch(t *testing.T) {
	text := "one\ntwo\nthree\nfour\nfive\n"
	g, err := Search(text, `^t`, 1)
	if err != nil {
		t.Fatal(err)
	}
	want := Grep{Total: 2, Matches: []Match{
		{Line: 2, Before: []string{"one"}, Text: "two"},
		{Line: 3, Text: "three", After: []string{"four"}},
	}}
	if diff := cmp.Diff(want, g); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if _, err := Search(text, `(?=x)`, 0); err == nil {
		t.Error("lookahead accepted; RE2 has none")
	}
	many, _ := Search(strings.Repeat("hit\n", 1000), `hit`, 0)
	if len(many.Matches) != MaxGrepMatches || !many.Truncated || many.Total != 1000 {
		t.Errorf("1000 hits: %d returned, truncated=%v, total=%d", len(many.Matches), many.Truncated, many.Total)
	}
}
