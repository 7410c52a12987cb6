package search

import "strings"

// Typed identifiers. Many APIs give their objects identifiers that say
// their type in a prefix: "run-4GhJkL9mNbVc", "apply-8fKxQw2LmZ3t",
// "cus_Nf3kQ9x2Lp". A request carrying one names an object of that type,
// and the tools whose parameter is named for that type's id ("run_id",
// "applyId") are the ones that take it, whatever other words the
// request says ("did apply apply-8fK… add or destroy anything" asks no
// change). Only the parameter's name is read; the prefix must be the
// whole first word of the name, so "run-" says nothing of a
// "workflow_run_id".
//
// An identifier counts when its prefix is two to twelve lower-case
// letters and its tail, after one '-' or '_', is six characters or more
// of letters and digits with both: a generated key, not a name
// ("checkout-prod", "redis-0", "ops-412").

// idPrefixHit multiplies the lexical score of a tool taking the type of
// identifier a request carries. It is stronger than idShapeHit: a shape
// may be shared by several types of key, a type's name is one type.
const idPrefixHit = 2.0

// idPrefixIndex maps a word to the tools with a top-level parameter
// named that word and "id"; params are each tool's top-level parameter
// names (schemaFacts.params).
func idPrefixIndex(params [][]string) map[string][]int32 {
	out := map[string][]int32{}
	for i, names := range params {
		seen := map[string]bool{}
		for _, name := range names {
			ws := nameWords(name)
			if len(ws) != 2 || !strings.EqualFold(ws[1], "id") {
				continue
			}
			p := strings.ToLower(ws[0])
			if len(p) >= 2 && isAlpha(p) && !seen[p] {
				seen[p] = true
				out[p] = append(out[p], int32(i))
			}
		}
	}
	return out
}

// idPrefix returns the type prefix of a generated identifier, or "".
func idPrefix(w string) string {
	i := strings.IndexAny(w, "-_")
	if i < 2 || i > 12 || !isAlpha(w[:i]) {
		return ""
	}
	tail := w[i+1:]
	if len(tail) < 6 {
		return ""
	}
	letter, digit := false, false
	for _, c := range tail {
		switch {
		case c >= '0' && c <= '9':
			digit = true
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z':
			letter = true
		default:
			return ""
		}
	}
	if !letter || !digit {
		return ""
	}
	return w[:i]
}

// typedIDKind returns the kind position whose tools alone take a typed
// identifier the request carries, or -1: such an identifier names its
// kind as an identifier pattern does (Options.IDPatterns).
func (ix *index) typedIDKind(query string) int32 {
	if len(ix.idPrefixes) == 0 || !strings.ContainsAny(query, "-_") {
		return -1
	}
	for f := range strings.FieldsSeq(query) {
		ds := ix.idPrefixes[idPrefix(strings.Trim(f, ",;!?()[]\"'`."))]
		if len(ds) == 0 {
			continue
		}
		k := ix.docKind[ds[0]]
		one := true
		for _, d := range ds[1:] {
			one = one && ix.docKind[d] == k
		}
		if one {
			return k
		}
	}
	return -1
}
