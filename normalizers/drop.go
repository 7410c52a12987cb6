package normalizers

import (
	"context"
	"maps"
	"regexp"
)

// dropUnknown removes keys the schema does not declare, only at levels that
// say additionalProperties: false. Elsewhere an unknown key may be
// meaningful to the server, so it is kept (and left to validation).
// patternProperties count as declared; a pattern Go cannot compile keeps
// the whole level untouched rather than guess.
func dropUnknown(ctx context.Context, call Call) (map[string]any, error) {
	return newWalker(call.Schema, dropLevel, nil).run(call.Args)
}

func dropLevel(s schemaView, node, obj map[string]any, path string) (map[string]any, bool, error) {
	if node == nil || !s.closed(node) {
		return obj, false, nil
	}
	declared := s.declared(node)
	var patterns []*regexp.Regexp
	if pp, ok := s.resolve(node)["patternProperties"].(map[string]any); ok {
		for p := range pp {
			re, err := regexp.Compile(p)
			if err != nil {
				return obj, false, nil
			}
			patterns = append(patterns, re)
		}
	}
	var out map[string]any
	for k := range obj {
		if declared[k] || matchesAny(patterns, k) {
			continue
		}
		if out == nil {
			out = maps.Clone(obj)
		}
		delete(out, k)
	}
	if out == nil {
		return obj, false, nil
	}
	return out, true, nil
}

func matchesAny(res []*regexp.Regexp, k string) bool {
	for _, re := range res {
		if re.MatchString(k) {
			return true
		}
	}
	return false
}
