package neutralize

import (
	"unicode"
	"unicode/utf8"
)

// The scorer's features are hashed: each is a 64-bit hash folded into the
// model's slots, so the model needs no vocabulary and reads any script.
// A sentence yields
//   - its words (letters, digits, "_"), lower-cased, alone and with the
//     sentence's role, and each pair of adjacent words;
//   - its character 3-, 4- and 5-grams, lower-cased with runs of spaces
//     as one, which carry words the model never saw whole, inflections,
//     and scripts written without spaces;
//   - a bias, one per role, and a flag for an identifier (a word with
//     "_") that is neither the tool's name, nor the parameter's, nor a
//     name of a tool its server lists beside it: the name of another
//     tool or field.
// The flags and biases weigh 1 each; the rest weigh 1/√n for a sentence
// of n of them, so that a long sentence does not outscore a short one by
// length alone.

const (
	seedWord     = 0x9e3779b97f4a7c15
	seedRoleWord = 0xc2b2ae3d27d4eb4f
	seedPair     = 0x165667b19e3779f9
	seedGram     = 0x27d4eb2f165667c5
	seedBias     = 0x85ebca77c2b2ae63
	seedIdent    = 0xff51afd7ed558ccd
	// Concepts (concepts.go): a concept, a pair of concepts, and two
	// words in a row of the concept lists.
	seedConcept        = 0x4cf5ad432745937f
	seedConceptPair    = 0x2545f4914f6cdd1d
	seedConceptWords   = 0x9fb21c651e98df25
	seedConceptForeign = 0xd6e8feb86659fd93
)

func mix(h, x uint64) uint64 { return (h ^ x) * 0x100000001b3 }

// slot turns a feature hash into a slot index before masking.
func slot(h uint64) uint32 {
	h ^= h >> 33
	h *= 0xff51afd7ed558ccd
	h ^= h >> 33
	return uint32(h)
}

// wordHash hashes s lower-cased, as a word of a sentence hashes.
func wordHash(s string) uint64 {
	h := uint64(14695981039346656037)
	for _, r := range s {
		h = mix(h, uint64(unicode.ToLower(r)))
	}
	return h
}

// unitFeatures calls fn with the slot hash of each feature of one
// sentence, and whether it is a flag or bias (weight 1) or a normalized
// one.
func unitFeatures(s string, sc sentenceAt, fn func(h uint32, fixed bool)) {
	role, name, param := sc.role, sc.name, sc.param
	fn(slot(mix(seedBias, 0)), true)
	fn(slot(mix(seedBias, uint64(role))), true)
	ident := false
	// Words.
	prev := uint64(0)
	for i := 0; i < len(s); {
		r, w := utf8.DecodeRuneInString(s[i:])
		if !wordRune(r) {
			i += w
			continue
		}
		h := uint64(14695981039346656037)
		under := false
		for i < len(s) {
			r, w = utf8.DecodeRuneInString(s[i:])
			if !wordRune(r) {
				break
			}
			under = under || r == '_'
			h = mix(h, uint64(unicode.ToLower(r)))
			i += w
		}
		if under && h != name && h != param && !sc.siblings[h] {
			ident = true
		}
		fn(slot(mix(seedWord, h)), false)
		fn(slot(mix(mix(seedRoleWord, uint64(role)), h)), false)
		if prev != 0 {
			fn(slot(mix(mix(seedPair, prev), h)), false)
		}
		prev = h
	}
	if ident {
		fn(slot(mix(seedIdent, uint64(role))), true)
	}
	conceptFeatures(conceptMask(s, ident), sc.subject, role, fn)
	// Character n-grams over the lower-cased text, spaces collapsed, with
	// a space at each end.
	var ring [5]rune
	n := 0
	push := func(r rune) {
		ring[n%5] = r
		n++
		for k := 3; k <= 5 && k <= n; k++ {
			h := uint64(seedGram) + uint64(k)
			for j := n - k; j < n; j++ {
				h = mix(h, uint64(ring[j%5]))
			}
			fn(slot(h), false)
		}
	}
	push(' ')
	space := true
	for _, r := range s {
		if unicode.IsSpace(r) {
			if !space {
				push(' ')
			}
			space = true
			continue
		}
		space = false
		push(unicode.ToLower(r))
	}
	if !space {
		push(' ')
	}
}
