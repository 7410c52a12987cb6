package search

import (
	"strings"
)

// Identifier shapes. A schema shows the identifiers a parameter takes
// by example ("issue key, e.g. 'PROJ-123'"), and a request that carries
// one of that shape ("close OPS-412") gives that parameter a value: the
// tools quoting the shape are the ones that can take it. Only the shape
// counts (letters, digits, separators), never the example's words, and
// only a shape few kinds quote: one every kind uses says nothing.

// idShapeHit multiplies the lexical score of a tool whose parameters
// quote an identifier of the shape a request carries.
const idShapeHit = 1.3

// idShapePair multiplies it again for a tool two of whose parameters
// quote a shape of which the request carries two identifiers: "mark
// OPS-4 as blocked by PLAT-2" relates two objects, and a tool taking
// two keys (a link's two ends) is the one that can.
const idShapePair = 1.3

// idShapeKinds is the most kinds that may quote a shape for it to
// count.
const idShapeKinds = 2

// idShape returns the shape of an identifier: runs of upper-case
// letters as "A", of lower-case as "a", of digits as "9", separators
// kept ("PROJ-123": "A-9"); "" for a word that is no identifier: one
// without both a letter and a digit and a separator, or with other
// characters.
func idShape(s string) string {
	if len(s) < 4 || len(s) > 40 {
		return ""
	}
	var b strings.Builder
	var last byte
	letter, digit, sep := false, false, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		var k byte
		switch {
		case c >= 'A' && c <= 'Z':
			k, letter = 'A', true
		case c >= 'a' && c <= 'z':
			k, letter = 'a', true
		case c >= '0' && c <= '9':
			k, digit = '9', true
		case c == '-' || c == '_' || c == '.' || c == ':' || c == '/':
			k, sep = c, true
		default:
			return ""
		}
		if k != last || !(k == 'A' || k == 'a' || k == '9') {
			b.WriteByte(k)
		}
		last = k
	}
	if !letter || !digit || !sep {
		return ""
	}
	return b.String()
}

// shapeTool is a tool quoting an identifier shape, and how many of its
// parameters quote it.
type shapeTool struct {
	doc    int32
	params int
}

// idShapeIndex maps each identifier shape that at most idShapeKinds
// kinds' parameters quote to the tools quoting it.
func idShapeIndex(entries []Doc) map[string][]shapeTool {
	out := map[string][]shapeTool{}
	kinds := map[string]map[string]bool{}
	for i, e := range entries {
		count := map[string]int{}
		var order []string
		for _, vs := range paramValues(e.Schema) {
			seen := map[string]bool{}
			for _, v := range vs {
				sh := idShape(v)
				if sh == "" || seen[sh] {
					continue
				}
				seen[sh] = true
				if count[sh] == 0 {
					order = append(order, sh)
				}
				count[sh]++
			}
		}
		for _, sh := range order {
			out[sh] = append(out[sh], shapeTool{int32(i), count[sh]})
			if kinds[sh] == nil {
				kinds[sh] = map[string]bool{}
			}
			kinds[sh][e.Kind] = true
		}
	}
	for sh, ks := range kinds {
		if len(ks) > idShapeKinds {
			delete(out, sh)
		}
	}
	return out
}

// idShapeFactors returns the multiplier of each tool whose parameters
// quote the shape of an identifier the request carries, or nil.
func (ix *index) idShapeFactors(query string) map[int32]float64 {
	if len(ix.idShapes) == 0 && len(ix.idPrefixes) == 0 {
		return nil
	}
	var ids map[string]map[string]bool // shape -> identifiers
	var typed map[int32]bool           // tools taking a typed identifier (idprefix.go)
	for f := range strings.FieldsSeq(query) {
		w := strings.Trim(f, ",;!?()[]\"'`.")
		if p := idPrefix(w); p != "" {
			for _, d := range ix.idPrefixes[p] {
				if typed == nil {
					typed = map[int32]bool{}
				}
				typed[d] = true
			}
		}
		if sh := idShape(w); ix.idShapes[sh] != nil {
			if ids == nil {
				ids = map[string]map[string]bool{}
			}
			if ids[sh] == nil {
				ids[sh] = map[string]bool{}
			}
			ids[sh][w] = true
		}
	}
	if ids == nil && typed == nil {
		return nil
	}
	out := map[int32]float64{}
	for d := range typed {
		out[d] = idPrefixHit
	}
	for sh, ws := range ids {
		for _, t := range ix.idShapes[sh] {
			f := idShapeHit
			if len(ws) > 1 && t.params > 1 {
				f *= idShapePair
			}
			out[t.doc] = max(out[t.doc], f)
		}
	}
	return out
}
