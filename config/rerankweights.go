package config

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
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
	s.RerankWeightValues = w
	return Problem{}, true
}
