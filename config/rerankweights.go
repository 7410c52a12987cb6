package config

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// loadRerankWeights reads the search.rerank_weights file into
// RerankWeightValues. The path expands ${VAR} and, when relative, is the
// fleet file's folder's, like every path in the file; it is always a path,
// so unlike args it needs no "./". A problem names the key and the path.
func (s *Search) loadRerankWeights(dir string, lookup func(string) (string, bool)) (Problem, bool) {
	if s.RerankWeights == "" {
		return Problem{}, true
	}
	s.RerankWeights = expand(s.RerankWeights, lookup)
	if dir != "" && !filepath.IsAbs(s.RerankWeights) {
		s.RerankWeights = filepath.Join(dir, s.RerankWeights)
	}
	bad := func(want string) (Problem, bool) {
		return Problem{Server: "search", Field: "rerank_weights", Value: s.RerankWeights, Want: want}, false
	}
	data, err := os.ReadFile(s.RerankWeights)
	if err != nil {
		return bad(fmt.Sprintf("a readable JSON file of reranker weights (%v)", err))
	}
	// encoding/json refuses NaN, infinities and overflowing numbers, so
	// what decodes is finite.
	var w map[string]float64
	dec := json.NewDecoder(bytes.NewReader(data))
	// More misses a stray ']' or '}' after the object: look at what is
	// left instead.
	if err := dec.Decode(&w); err != nil || w == nil || len(bytes.TrimSpace(data[dec.InputOffset():])) > 0 {
		why := "not one object"
		if err != nil {
			why = err.Error()
		}
		return bad(fmt.Sprintf(`a JSON object of feature name to number, as mcpfleet fit-search writes ({"base": 2.785, ...}): %s`, why))
	}
	// Decode keeps the last of a repeated key without a word; fit-search
	// never repeats one, so a repeat is a hand edit whose other value
	// someone meant.
	dups, nulls := keyProblems(data)
	if len(dups) > 0 {
		return bad(fmt.Sprintf("each feature name once in the JSON object, as mcpfleet fit-search writes: repeated %s", strings.Join(dups, ", ")))
	}
	// Decode turns null into 0, a weight nobody wrote.
	if len(nulls) > 0 {
		return bad(fmt.Sprintf("a number for each feature, as mcpfleet fit-search writes: null for %s", strings.Join(nulls, ", ")))
	}
	s.RerankWeightValues = w
	return Problem{}, true
}

// keyProblems returns, quoted and in order of first repeat, each key that
// the top-level object in data holds more than once, and each key whose
// value is null. It walks the token stream because Decode into a map sees
// neither; data must already have decoded as one object, so a token error
// only ends the walk.
func keyProblems(data []byte) (dups, nulls []string) {
	dec := json.NewDecoder(bytes.NewReader(data))
	if _, err := dec.Token(); err != nil { // the opening '{'
		return nil, nil
	}
	seen := make(map[string]int)
	for dec.More() {
		tok, err := dec.Token()
		key, ok := tok.(string)
		if err != nil || !ok {
			return dups, nulls
		}
		if seen[key]++; seen[key] == 2 {
			dups = append(dups, fmt.Sprintf("%q", key))
		}
		// RawMessage skips whatever the value is without parsing it as
		// a number: Decode above already judged the values.
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return dups, nulls
		}
		if string(skip) == "null" {
			nulls = append(nulls, fmt.Sprintf("%q", key))
		}
	}
	return dups, nulls
}
