package normalizers

import "fmt"

// Model-facing messages. Their text is API (a model reads it and resends the
// call), so they live together here and are pinned by tests.

// msgBothGiven: two keys mean the same parameter after renaming.
func msgBothGiven(a, b, target string) string {
	return fmt.Sprintf("both %q and %q given; send only %q", a, b, target)
}

// msgFieldMapCollision: a field-map rename would overwrite a key the caller
// also sent.
func msgFieldMapCollision(from, to string) string {
	return fmt.Sprintf("both %q (which means %q) and %q given; send only %q", from, to, to, to)
}

// msgFieldMapBadTarget: a configured field map moves a key to another
// object, which a rename cannot do.
func msgFieldMapBadTarget(from, to string) string {
	return fmt.Sprintf("field map entry %q -> %q must keep the key in the same object", from, to)
}
