package search

import (
	"regexp"
	"slices"
	"testing"
)

func TestNeeds(t *testing.T) {
	for _, tc := range []struct {
		pat  string
		want []string
	}{
		{`(?:^|[\s(])[!#][0-9]+\b`, []string{"!#", "0123456789"}},
		{`\bINC-[0-9]+\b`, []string{"I", "N", "C", "-", "0123456789"}},
		{`(?i)inc-[0-9]+`, []string{"Ii", "Nn", "Cc", "-", "0123456789"}},
		{`(?i)k8s`, []string{"Kk\u212a", "8", "Ss\u017f"}},
		{`[a-z]+/[a-z]+`, []string{"/"}},
		{`(?:OPS|PLAT)-[0-9]+`, []string{"OP", "-", "0123456789"}},
		{`(?:OPS|x*)-1`, []string{"-", "1"}},
		{`a?b*`, nil},
		{`.+`, nil},
		{`x{2,3}`, []string{"x", "x"}},
	} {
		re := regexp.MustCompile(tc.pat)
		if got := newIDPattern(re).need; !slices.Equal(got, tc.want) {
			t.Errorf("needs(%q) = %q, want %q", tc.pat, got, tc.want)
		}
	}
}

// FuzzIDPattern: the filter in front of a pattern never refuses a request
// the pattern matches, nor lets through one it does not.
func FuzzIDPattern(f *testing.F) {
	for _, s := range []struct{ pat, q string }{
		{`(?:^|[\s(])[!#][0-9]+\b`, "is CI green on !3310?"},
		{`(?:^|[\s(])[a-z][a-z0-9_.-]*/[a-z][a-z0-9_.-]*`, "open an issue in infra/terraform"},
		{`(?i)\bINC-[0-9]+\b`, "postmortem for inc-2291"},
		{`(?:OPS|PLAT)-[0-9]+`, "close PLAT-88"},
		{`\x{FFFD}`, "\xff"},
		{`[é]x`, "éx"},
	} {
		f.Add(s.pat, s.q)
	}
	f.Fuzz(func(t *testing.T, pat, q string) {
		re, err := regexp.Compile(pat)
		if err != nil {
			return
		}
		if got, want := newIDPattern(re).match(q), re.MatchString(q); got != want {
			t.Errorf("pattern %q on %q: filtered match %v, regexp %v", pat, q, got, want)
		}
	})
}

// BenchmarkIDPattern: the test fleet's two GitLab patterns on a long
// request that carries neither, as most requests do: the regexp alone,
// then behind the filter (BENCHMARKS.md).
func BenchmarkIDPattern(b *testing.B) {
	q := "the search-indexer pods in the data namespace look like they're eating way more memory than their requests since last night's release, can you show per-pod cpu and memory usage"
	for name, pat := range map[string]string{
		"mr":   `(?:^|[\s(])[!#][0-9]+\b`,
		"path": `(?:^|[\s(])[a-z][a-z0-9_.-]*/[a-z][a-z0-9_.-]*(?:/[a-z0-9_.-]+)*(?:$|[\s),.;:?])`,
	} {
		p := newIDPattern(regexp.MustCompile(pat))
		b.Run("regexp/"+name, func(b *testing.B) {
			for b.Loop() {
				p.re.MatchString(q)
			}
		})
		b.Run("filtered/"+name, func(b *testing.B) {
			for b.Loop() {
				p.match(q)
			}
		})
	}
}
