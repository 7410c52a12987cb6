package eino_test

import (
	"testing"

	"github.com/mcpfleet/mcpfleet/adapters/eino"
	"github.com/mcpfleet/mcpfleet/config"
)

func TestCatalogConfigSearch(t *testing.T) {
	off := false
	tests := []struct {
		name        string
		search      config.Search
		wantNoLex   bool
		wantNoRe    bool
		wantSynonym string
	}{
		{"default", config.Search{}, false, false, ""},
		{"synonyms", config.Search{Synonyms: map[string]string{"blast radius": "dependencies"}}, false, false, "dependencies"},
		{"lexicon off", config.Search{Lexicon: &off}, true, false, ""},
		{"rerank off", config.Search{Rerank: &off}, false, true, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := eino.CatalogConfig(&config.Fleet{Search: tc.search})
			if c.NoLexicon != tc.wantNoLex || c.NoRerank != tc.wantNoRe || c.Synonyms["blast radius"] != tc.wantSynonym {
				t.Errorf("got NoLexicon=%v NoRerank=%v Synonyms=%v", c.NoLexicon, c.NoRerank, c.Synonyms)
			}
		})
	}
}
