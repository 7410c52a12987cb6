package textdist

import "testing"

func TestLevenshtein(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"", "", 0},
		{"htp", "http", 1},
		{"kubernets", "kubernetes", 1},
		{"pods", "pod", 1},
		{"abc", "", 3},
		{"", "abc", 3},
		{"flaw", "lawn", 2},
		{"naïve", "naive", 1}, // runes, not bytes
	}
	for _, tc := range tests {
		if got := Levenshtein(tc.a, tc.b); got != tc.want {
			t.Errorf("Levenshtein(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
		if got := Levenshtein(tc.b, tc.a); got != tc.want {
			t.Errorf("Levenshtein(%q, %q) = %d, want %d (symmetry)", tc.b, tc.a, got, tc.want)
		}
	}
}
