package pinning_test

import (
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpfleet/mcpfleet/internal/pinning"
)

// shuffled re-encodes a JSON value with every object's keys in a random
// order, by writing objects by hand.
func shuffled(v any, r *rand.Rand) string {
	switch x := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		r.Shuffle(len(keys), func(i, j int) { keys[i], keys[j] = keys[j], keys[i] })
		s := "{ "
		for i, k := range keys {
			if i > 0 {
				s += " ,\n"
			}
			kb, _ := json.Marshal(k)
			s += string(kb) + ": " + shuffled(x[k], r)
		}
		return s + "}"
	case []any:
		s := "["
		for i, e := range x {
			if i > 0 {
				s += ", "
			}
			s += shuffled(e, r)
		}
		return s + "]"
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// FuzzCanonicalHash: a schema and its key-shuffled, re-spaced copy hash
// equal, and nothing panics on any input.
func FuzzCanonicalHash(f *testing.F) {
	f.Add(`{"type":"object","properties":{"q":{"type":"string"},"n":{"type":"integer","enum":[1,2]}}}`, "desc", uint64(1))
	f.Add(`{"a":{"b":{"c":[{"y":1,"x":2}]}},"z":null}`, "", uint64(7))
	f.Add(`not json`, "x", uint64(3))
	f.Fuzz(func(t *testing.T, schema, desc string, seed uint64) {
		a := mcp.Tool{Name: "t", Description: desc, RawInputSchema: json.RawMessage(schema)}
		h := pinning.Hash(a)
		if _, err := pinning.HashJSON(pinning.Canonical(a)); err != nil {
			t.Fatalf("Canonical is not JSON: %v\n%s", err, pinning.Canonical(a))
		}
		var v any
		d := json.NewDecoder(strings.NewReader(schema))
		d.UseNumber()
		if d.Decode(&v) != nil || d.More() {
			return
		}
		b := a
		b.RawInputSchema = json.RawMessage(shuffled(v, rand.New(rand.NewPCG(seed, seed))))
		if pinning.Hash(b) != h {
			t.Fatalf("key order changed the hash:\n%s\n%s", schema, b.RawInputSchema)
		}
		if d := pinning.Diff(pinning.Canonical(a), pinning.Canonical(b)); len(d) != 0 {
			t.Fatalf("Diff of equal definitions: %v", d)
		}
	})
}
