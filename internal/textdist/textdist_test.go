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

func TestNearestPart(t *testing.T) {
	choices := []string{"overview", "tools", "call", "pods_list", "pods_log", "camelCase"}
	tests := []struct{ got, want string }{
		{"overveiw", "overview"},   // a typo
		{"ov", "overview"},         // a prefix
		{"pods", "pods_list"},      // contained; ties go to the first sorted
		{"camelcase", "camelCase"}, // case
		{"call", ""},               // already a choice
		{"zzzzzz", ""},             // nothing close
		{"", "call"},               // everything contains "": the shortest
	}
	for _, tc := range tests {
		if got := NearestPart(tc.got, choices); got != tc.want {
			t.Errorf("NearestPart(%q) = %q, want %q", tc.got, got, tc.want)
		}
	}
}
