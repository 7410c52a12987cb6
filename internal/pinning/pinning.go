package pinning

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
)

// Fields are the parts of a tool that are pinned, in the order [Diff]
// reports them.
var fields = [...]string{"name", "title", "description", "inputSchema", "outputSchema", "annotations", "_meta"}

// Fields returns the names of the pinned parts of a tool definition.
func Fields() []string { return slices.Clone(fields[:]) }

// Canonical returns the pinned part of t as canonical JSON. The input
// schema is t.RawInputSchema when set, else t.InputSchema; the output
// schema likewise. An absent or empty output schema, empty annotations,
// an empty title and an empty _meta are left out, so a server that
// starts sending "annotations": {} does not change the hash, and a lock
// written before title and _meta were pinned still holds for every tool
// that has neither.
func Canonical(t mcp.Tool) []byte {
	m := map[string]any{"name": t.Name, "description": t.Description}
	if t.Title != "" {
		m["title"] = t.Title
	}
	if t.Meta != nil {
		if b, err := json.Marshal(t.Meta); err == nil {
			if v := decode(b); !empty(v) {
				m["_meta"] = v
			}
		}
	}
	in := t.RawInputSchema
	if len(in) == 0 {
		b, err := json.Marshal(t.InputSchema)
		if err == nil {
			in = b
		}
	}
	m["inputSchema"] = decode(in)
	out := t.RawOutputSchema
	if len(out) == 0 && t.OutputSchema.Type != "" {
		if b, err := json.Marshal(t.OutputSchema); err == nil {
			out = b
		}
	}
	if v := decode(out); !empty(v) {
		m["outputSchema"] = v
	}
	if b, err := json.Marshal(t.Annotations); err == nil {
		if v := decode(b); !empty(v) {
			m["annotations"] = v
		}
	}
	return encode(m)
}

// Hash is the hex SHA-256 of [Canonical].
func Hash(t mcp.Tool) string { return sum(Canonical(t)) }

// HashJSON canonicalizes a definition stored as JSON (as a lock file holds
// it) and returns its hash, or an error if def is not a JSON object.
func HashJSON(def json.RawMessage) (string, error) {
	c, err := CanonicalJSON(def)
	if err != nil {
		return "", err
	}
	return sum(c), nil
}

// CanonicalJSON rewrites a JSON document canonically: keys sorted at every
// depth, no insignificant whitespace, numbers as written.
func CanonicalJSON(raw []byte) ([]byte, error) {
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	if d.More() {
		return nil, fmt.Errorf("pinning: trailing data after the JSON value")
	}
	return encode(v), nil
}

func sum(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

// decode reads raw as JSON with numbers kept as written; text that is not
// JSON is kept as a string, so that it still hashes, and differently from
// any valid schema.
func decode(raw []byte) any {
	if len(bytes.TrimSpace(raw)) == 0 {
		return nil
	}
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil || d.More() {
		return string(raw)
	}
	return v
}

func empty(v any) bool {
	switch x := v.(type) {
	case nil:
		return true
	case map[string]any:
		return len(x) == 0
	}
	return false
}

// encode writes v as JSON: encoding/json sorts map keys, and HTML escaping
// is off so that a description reads as written in the lock file.
func encode(v any) []byte {
	var b bytes.Buffer
	e := json.NewEncoder(&b)
	e.SetEscapeHTML(false)
	if err := e.Encode(v); err != nil {
		// Only values decoded from JSON reach here, and those encode.
		return []byte(fmt.Sprintf("%q", fmt.Sprint(v)))
	}
	return bytes.TrimRight(b.Bytes(), "\n")
}

// Change is one difference between two definitions. Old or New is ""
// when the field is absent on that side; otherwise each is compact JSON.
type Change struct {
	// Path is the JSON pointer of the changed field, e.g.
	// "/description" or "/inputSchema/properties/q/enum".
	Path string `json:"path"`
	Old  string `json:"old,omitempty"`
	New  string `json:"new,omitempty"`
}

// String renders a change on one line: /description: "a" -> "b".
func (c Change) String() string {
	old, nw := c.Old, c.New
	if old == "" {
		old = "(absent)"
	}
	if nw == "" {
		nw = "(absent)"
	}
	return fmt.Sprintf("%s: %s -> %s", c.Path, old, nw)
}

// Diff compares two definitions written as JSON (canonical or not) and
// returns every changed leaf, objects compared key by key and arrays of
// equal length element by element. Text that is not JSON compares as a
// string.
func Diff(old, new []byte) []Change {
	var out []Change
	diff("", decode(old), decode(new), &out)
	return out
}

func diff(path string, a, b any, out *[]Change) {
	am, aok := a.(map[string]any)
	bm, bok := b.(map[string]any)
	if aok && bok {
		keys := make([]string, 0, len(am)+len(bm))
		for k := range am {
			keys = append(keys, k)
		}
		for k := range bm {
			if _, ok := am[k]; !ok {
				keys = append(keys, k)
			}
		}
		slices.SortFunc(keys, func(x, y string) int { return fieldOrder(path, x, y) })
		for _, k := range keys {
			av, ok := am[k]
			if !ok {
				av = absent{}
			}
			bv, ok := bm[k]
			if !ok {
				bv = absent{}
			}
			diff(path+"/"+escape(k), av, bv, out)
		}
		return
	}
	as, aok := a.([]any)
	bs, bok := b.([]any)
	if aok && bok && len(as) == len(bs) {
		for i := range as {
			diff(fmt.Sprintf("%s/%d", path, i), as[i], bs[i], out)
		}
		return
	}
	ea, eb := render(a), render(b)
	if ea != eb {
		*out = append(*out, Change{Path: path, Old: ea, New: eb})
	}
}

// fieldOrder sorts the top level in the order of fields, and every other
// level by name.
func fieldOrder(path, x, y string) int {
	if path == "" {
		ix, iy := slices.Index(fields[:], x), slices.Index(fields[:], y)
		if ix < 0 {
			ix = len(fields)
		}
		if iy < 0 {
			iy = len(fields)
		}
		if ix != iy {
			return ix - iy
		}
	}
	return strings.Compare(x, y)
}

// absent marks a key one side of a diff does not have, as against one
// whose value is null.
type absent struct{}

func render(v any) string {
	if _, ok := v.(absent); ok {
		return ""
	}
	return string(encode(v))
}

// escape writes a key as a JSON pointer token.
func escape(k string) string {
	return strings.ReplaceAll(strings.ReplaceAll(k, "~", "~0"), "/", "~1")
}

// HashJSONBytes is the hex SHA-256 of text already in canonical form, as
// [Canonical] returns it.
func HashJSONBytes(canonical []byte) string { return sum(canonical) }
