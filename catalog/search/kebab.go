package search

import "strings"

// Kebab-case names. Operators name services, repositories, config maps
// and flags in kebab case: checkout-api, redis-cli, feature-flags,
// helm-charts. Such a word names one thing; its parts say whose it is,
// not what is asked ("the feature-flags configmap" asks for a config
// map, not for feature flags; "run redis-cli" for a shell, not for a
// cache service). English writes hyphenated words too, but they are
// built differently: around a particle or preposition (on-call,
// follow-up, read-only, out-of-memory), on a prefix (non-prod, re-run,
// self-hosted) or with a participle (long-running is an adjective,
// auto-scaled a past participle). kebabName tells the two apart by
// those parts alone, knowing no name.

// compoundParts are the parts that make a hyphenated word English:
// particles and prepositions, word-forming prefixes, and the adjectives
// of degree and time that compound freely ("high-priority", "real-time").
var compoundParts = map[string]bool{
	// Particles and prepositions.
	"on": true, "off": true, "in": true, "out": true, "up": true, "down": true,
	"over": true, "under": true, "back": true, "by": true, "to": true, "of": true,
	"for": true, "at": true, "with": true, "away": true, "through": true, "only": true,
	"the": true, "a": true, "and": true, "or": true, "not": true, "as": true,
	// Word-forming prefixes written apart.
	"non": true, "self": true, "re": true, "pre": true, "post": true, "co": true,
	"multi": true, "cross": true, "semi": true, "sub": true, "anti": true, "auto": true,
	"de": true, "un": true, "mid": true, "ex": true, "e": true, "x": true,
	// Adjectives of degree, number and time.
	"high": true, "low": true, "long": true, "short": true, "real": true, "full": true,
	"half": true, "well": true, "first": true, "last": true, "third": true, "top": true,
	"end": true, "all": true, "one": true, "two": true, "same": true, "next": true,
	"left": true, "right": true, "day": true, "time": true,
}

// kebabName reports whether w is a kebab-case name: two or more parts of
// lower-case letters joined by single hyphens, none of them a part that
// makes English compounds (compoundParts), and not ending in a
// participle (-ed, -ing).
func kebabName(w string) bool {
	if !strings.Contains(w, "-") {
		return false
	}
	parts := strings.Split(w, "-")
	for _, p := range parts {
		if p == "" || !isAlpha(p) || compoundParts[p] {
			return false
		}
	}
	last := parts[len(parts)-1]
	return !strings.HasSuffix(last, "ed") && !strings.HasSuffix(last, "ing")
}
