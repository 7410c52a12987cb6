package search

// A change verb's spelling is often a noun ("a run", "the mount"), and
// a preposition before it says which: a verb's base form does not follow
// "of", "on" or "under", a noun does. "the status of run run-42", "a
// cert on mount pki_int", "list the issuers under mount pki_root" ask
// for no run and no mount. "to" is no such preposition ("I need to
// restart it"), nor is "in" ("log in" is a login, read apart).
//
// Measured and left out: reading the words inside kebab-case names as
// names too ("new-payment-provider" asks for nothing new). English
// writes hyphenated verbs that kebabName takes for names ("force-push",
// "squash-merge"), and gitlab lost three requests at rank 1.

// prepositions are those after which a verb's base form is a noun.
var prepositions = map[string]bool{
	"of": true, "on": true, "at": true, "from": true, "under": true,
	"with": true, "for": true, "by": true, "about": true, "per": true,
	"into": true, "onto": true, "via": true, "without": true,
}
