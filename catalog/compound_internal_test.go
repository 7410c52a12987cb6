package catalog

import (
	"slices"
	"testing"
)

func TestSplitCompound(t *testing.T) {
	vocab := map[string]bool{"key": true, "vault": true, "best": true, "practic": true, "list": true, "project": true, "app": true}
	for _, tc := range []struct {
		w    string
		want []string
	}{
		{"keyvault", []string{"key", "vault"}},
		{"bestpractices", []string{"best", "practices"}},
		{"listprojects", []string{"list", "projects"}},
		{"vault", nil},     // one word is not a compound
		{"keyvaultx", nil}, // a rest that is no word
		{"appkeyvault", []string{"app", "key", "vault"}},
	} {
		if got := splitCompound(tc.w, vocab); !slices.Equal(got, tc.want) {
			t.Errorf("splitCompound(%q) = %v, want %v", tc.w, got, tc.want)
		}
	}
}
