package config_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpfleet/mcpfleet/config"
)

func TestSearchSettings(t *testing.T) {
	const head = "servers:\n  - name: a\n    command: /bin/true\n"
	f := false
	tests := []struct {
		name    string
		yaml    string
		want    config.Search
		wantErr string
	}{
		{"absent", head, config.Search{}, ""},
		{"synonyms", head + "search:\n  synonyms:\n    blast radius: dependencies\n",
			config.Search{Synonyms: map[string]string{"blast radius": "dependencies"}}, ""},
		{"lexicon off", head + "search:\n  lexicon: false\n", config.Search{Lexicon: &f}, ""},
		{"rerank off", head + "search:\n  rerank: false\n", config.Search{Rerank: &f}, ""},
		{"rerank typo", head + "search:\n  rerankk: false\n", config.Search{}, `did you mean "rerank"`},
		{"empty expansion", head + "search:\n  synonyms:\n    blast radius: \"\"\n", config.Search{},
			`search.synonyms: blast radius: want the words tools use for it`},
		{"unknown key", head + "search:\n  synonym: {}\n", config.Search{},
			`did you mean "synonyms"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fl, err := config.LoadBytes([]byte(tc.yaml), "yaml", "")
			checkSearch(t, fl, err, tc.want, tc.wantErr)
		})
	}
}

// TestSearchEnv: MCPFLEET_SEARCH__* overrides reach the search keys, a
// map entry keeps its key's case and spaces, and a bare SEARCH is a
// problem naming an example.
func TestSearchEnv(t *testing.T) {
	const file = "servers:\n  - name: a\n    command: /bin/true\nsearch:\n  lexicon: true\n"
	f, err := config.LoadBytesWith([]byte(file), "yaml", "", config.LoadOptions{Environ: []string{
		"MCPFLEET_SEARCH__LEXICON=false",
		"MCPFLEET_SEARCH__SYNONYMS__Blast radius=dependencies",
	}})
	if err != nil {
		t.Fatal(err)
	}
	off := false
	want := config.Search{Lexicon: &off, Synonyms: map[string]string{"Blast radius": "dependencies"}}
	if diff := cmp.Diff(want, f.Search); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
	_, err = config.LoadBytesWith([]byte(file), "yaml", "", config.LoadOptions{Environ: []string{"MCPFLEET_SEARCH=x"}})
	if err == nil || !strings.Contains(err.Error(), "MCPFLEET_SEARCH__LEXICON") {
		t.Errorf("bare MCPFLEET_SEARCH: err = %v, want a hint naming MCPFLEET_SEARCH__LEXICON", err)
	}
}

// checkSearch checks a load's outcome: an error containing wantErr when
// it is set, else the search settings want.
func checkSearch(t *testing.T, f *config.Fleet, err error, want config.Search, wantErr string) {
	t.Helper()
	if wantErr != "" {
		if err == nil || !strings.Contains(err.Error(), wantErr) {
			t.Fatalf("err = %v, want it to contain %q", err, wantErr)
		}
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, f.Search); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
}
