package search

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

func TestLoginPhrase(t *testing.T) {
	for in, want := range map[string]string{
		"who am I logged in as":             "who am I  login as",
		"logging into the console":          " login the console",
		"log out of azure":                  " logout of azure",
		"log in to vault":                   " login to vault",
		"logs in the last hour":             "logs in the last hour",
		"search the logs for errors":        "search the logs for errors",
		"log in the last hour of the shift": "log in the last hour of the shift",
	} {
		if got := loginPhrase(in); got != want {
			t.Errorf("loginPhrase(%q) = %q, want %q", in, got, want)
		}
	}
	if ts := terms("which account am I logged in as"); slices.Contains(ts, "log") {
		t.Errorf("terms of a login question say log: %v", ts)
	}
}
