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

// idShapeIndex maps each identifier shape that at most idShapeKinds
// kinds' parameters quote to the tools quoting it.
func idShapeIndex(entries []Doc) map[string][]int32 {
	out := map[string][]int32{}
	kinds := map[string]map[string]bool{}
	for i, e := range entries {
		seen := map[string]bool{}
		for _, v := range schemaValues(e.Schema) {
			sh := idShape(v)
			if sh == "" || seen[sh] {
				continue
			}
			seen[sh] = true
			out[sh] = append(out[sh], int32(i))
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

// idShapeDocs returns the tools whose parameters quote the shape of an
// identifier the request carries, or nil.
func (ix *index) idShapeDocs(query string) map[int32]bool {
	if len(ix.idShapes) == 0 {
		return nil
	}
	var out map[int32]bool
	for f := range strings.FieldsSeq(query) {
		sh := idShape(strings.Trim(f, ",;!?()[]\"'`."))
		for _, d := range ix.idShapes[sh] {
			if out == nil {
				out = map[int32]bool{}
			}
			out[d] = true
		}
	}
	return out
}
