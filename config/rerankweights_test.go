package config_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/mcpfleet/mcpfleet/config"
)

// TestSearchRerankWeights: search.rerank_weights names a JSON file,
// relative to the fleet file's folder, which Load reads; the environment
// can point it elsewhere, and a file that is missing, not an object of
// numbers or repeats a key is a problem naming the key.
func TestSearchRerankWeights(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	good := write("w.json", `{"base": 2.5, "name": -1}`)
	other := write("other.json", `{"base": 1}`)
	write("list.json", `[1, 2]`)
	write("text.json", `{"base": "high"}`)
	write("two.json", `{"base": 1} {"base": 2}`)
	write("bracket.json", `{"base": 1}]`)
	write("dup.json", `{"base": 1, "name": -1, "base": 2}`)
	write("dup-escaped.json", `{"base": 1, "\u0062ase": 2}`)
	write("dups.json", `{"name": 1, "base": 1, "base": 2, "name": 2, "base": 3}`)
	write("null.json", `{"base": 1, "name": null}`)
	const head = "servers:\n  - name: a\n    command: /bin/true\nsearch:\n  rerank_weights: "
	tests := []struct {
		name    string
		path    string
		env     []string
		want    config.Search
		wantErr string
	}{
		{"relative", "w.json", nil, config.Search{RerankWeights: good,
			RerankWeightValues: map[string]float64{"base": 2.5, "name": -1}}, ""},
		{"absolute", good, nil, config.Search{RerankWeights: good,
			RerankWeightValues: map[string]float64{"base": 2.5, "name": -1}}, ""},
		{"env", "w.json", []string{"MCPFLEET_SEARCH__RERANK_WEIGHTS=other.json"},
			config.Search{RerankWeights: other, RerankWeightValues: map[string]float64{"base": 1}}, ""},
		{"missing", "nope.json", nil, config.Search{}, `search: rerank_weights: got "` + filepath.Join(dir, "nope.json") + `", want a readable JSON file`},
		{"list", "list.json", nil, config.Search{}, "search: rerank_weights: got"},
		{"text", "text.json", nil, config.Search{}, "want a JSON object of feature name to number"},
		{"two objects", "two.json", nil, config.Search{}, "not one object"},
		// A stray closing bracket from hand editing is not one object
		// either, though json.Decoder.More does not see it.
		{"trailing bracket", "bracket.json", nil, config.Search{}, "not one object"},
		// Decode into a map keeps the last of a repeated key, so a hand
		// edit that adds a line instead of changing one would go unseen.
		{"repeated key", "dup.json", nil, config.Search{},
			`search: rerank_weights: got "` + filepath.Join(dir, "dup.json") + `", want each feature name once in the JSON object, as mcpfleet fit-search writes: repeated "base"`},
		// The same key spelled with an escape is still the same key.
		{"repeated key escaped", "dup-escaped.json", nil, config.Search{}, `repeated "base"`},
		{"repeated keys", "dups.json", nil, config.Search{}, `repeated "base", "name"`},
		// Decode reads null as 0.
		{"null weight", "null.json", nil, config.Search{}, `want a number for each feature, as mcpfleet fit-search writes: null for "name"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f, err := config.LoadBytesWith([]byte(head+tc.path+"\n"), "yaml", dir, config.LoadOptions{Environ: tc.env})
			checkSearch(t, f, err, tc.want, tc.wantErr)
		})
	}
}
