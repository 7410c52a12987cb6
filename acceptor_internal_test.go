package mcpfleet

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/mcpfleet/mcpfleet/internal/fixtures"
	"github.com/mcpfleet/mcpfleet/kindgroups"
)

func TestCompileAcceptor(t *testing.T) {
	for _, tc := range []struct {
		name   string
		schema string
		subset bool // an acceptor is built
		accept map[string]bool
	}{
		{"typed, required, closed", `{"type":"object","required":["name"],"additionalProperties":false,"properties":{
			"name":{"type":"string","description":"d"},"tailLines":{"type":"integer"},"ratio":{"type":"number"},
			"kind":{"type":"string","enum":["pod","deployment"]},"opt":{"type":["string","null"]},"any":true}}`, true,
			map[string]bool{
				`{"name":"a"}`:                      true,
				`{"name":"a","tailLines":100}`:      true,
				`{"name":"a","tailLines":1e3}`:      true,
				`{"name":"a","tailLines":1.5}`:      false,
				`{"name":"a","ratio":1.5}`:          true,
				`{"name":"a","kind":"pod"}`:         true,
				`{"name":"a","kind":"pods"}`:        false,
				`{"name":"a","opt":null}`:           true,
				`{"name":"a","any":[1,{"b":null}]}`: true,
				`{"name":null}`:                     false,
				`{}`:                                false,
				`{"name":"a","extra":1}`:            false,
				`{"name":5}`:                        false,
			}},
		{"open", `{"type":"object","properties":{"q":{"type":"string"}}}`, true,
			map[string]bool{`{"q":"x","extra":[1]}`: true, `{"q":1}`: false}},
		{"no type", `{"properties":{"q":{"type":"array"},"o":{"type":"object"}}}`, true,
			map[string]bool{`{"q":[],"o":{}}`: true, `{"q":{}}`: false, `{"o":[]}`: false}},
		{"format under 2020-12", `{"type":"object","properties":{"at":{"type":"string","format":"date-time"}}}`, true,
			map[string]bool{`{"at":"not a date"}`: true}},
		{"format under draft-07", `{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{"at":{"type":"string","format":"date-time"}}}`, false, nil},
		{"draft-07 without format", `{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{"n":{"type":"integer"}}}`, true,
			map[string]bool{`{"n":3}`: true}},
		{"nested properties", `{"type":"object","properties":{"o":{"type":"object","properties":{"a":{"type":"string"}}}}}`, false, nil},
		{"minimum", `{"type":"object","properties":{"n":{"type":"integer","minimum":1}}}`, false, nil},
		{"items", `{"type":"object","properties":{"l":{"type":"array","items":{"type":"string"}}}}`, false, nil},
		{"ref", `{"type":"object","properties":{"a":{"$ref":"#/$defs/A"}},"$defs":{"A":{"type":"string"}}}`, false, nil},
		{"anyOf", `{"type":"object","anyOf":[{"required":["a"]},{"required":["b"]}]}`, false, nil},
		{"additionalProperties schema", `{"type":"object","additionalProperties":{"type":"string"}}`, false, nil},
		{"number enum", `{"type":"object","properties":{"n":{"enum":[1,2]}}}`, false, nil},
		{"false property", `{"type":"object","properties":{"n":false}}`, false, nil},
		{"vendor keyword", `{"type":"object","x-order":["a"],"properties":{"a":{"type":"string"}}}`, false, nil},
		{"not an object", `{"type":"string"}`, false, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sch, decoded, err := compileSchema("t", json.RawMessage(tc.schema))
			if err != nil {
				t.Fatal(err)
			}
			acc := compileAcceptor(decoded)
			if (acc != nil) != tc.subset {
				t.Fatalf("compileAcceptor = %v, want an acceptor: %v", acc, tc.subset)
			}
			for args, want := range tc.accept {
				var a map[string]any
				if err := json.Unmarshal([]byte(args), &a); err != nil {
					t.Fatal(err)
				}
				if got := acc.accepts(a); got != want {
					t.Errorf("accepts(%s) = %v, want %v", args, got, want)
				}
				if want {
					if err := sch.Validate(a); err != nil {
						t.Errorf("accepted %s, which the validator refuses: %v", args, err)
					}
				}
			}
		})
	}
}

// fixtureSchemas are the input schemas of every fixture tool.
func fixtureSchemas(tb testing.TB) map[string]json.RawMessage {
	out := map[string]json.RawMessage{}
	paths, _ := filepath.Glob(filepath.Join(fixtures.Dir(), "*.json"))
	for _, p := range paths {
		if _, err := os.Stat(p); err != nil {
			continue
		}
		kind := strings.TrimSuffix(filepath.Base(p), ".json")
		for _, tool := range fixtures.MustLoad(tb, kind).Tools {
			out[kind+"/"+tool.Name] = kindgroups.SchemaOf(tool)
		}
	}
	if len(out) == 0 {
		tb.Skip("no fixture tools")
	}
	return out
}

// TestAcceptorOnFixtures builds arguments for every fixture tool the
// acceptor covers, right ones and wrong ones, and checks the one rule that
// matters: whatever the acceptor accepts, the validator accepts.
func TestAcceptorOnFixtures(t *testing.T) {
	schemas := fixtureSchemas(t)
	names := make([]string, 0, len(schemas))
	for n := range schemas {
		names = append(names, n)
	}
	sort.Strings(names)
	covered := 0
	for _, name := range names {
		sch, decoded, err := compileSchema(name, schemas[name])
		if err != nil {
			continue
		}
		acc := compileAcceptor(decoded)
		if acc == nil {
			continue
		}
		covered++
		for _, args := range argVariants(acc) {
			if acc.accepts(args) {
				if err := sch.Validate(args); err != nil {
					t.Errorf("%s: accepted %v, which the validator refuses: %v", name, args, err)
				}
			}
		}
	}
	t.Logf("the acceptor covers %d of %d fixture tools", covered, len(names))
	if covered == 0 {
		t.Error("the acceptor covers no fixture tool")
	}
}

// argVariants returns arguments that fill every property with a value of
// each JSON type (and each enum value), all required ones present.
func argVariants(acc *acceptor) []map[string]any {
	values := []any{nil, true, 3.0, 2.5, "x", []any{"a"}, map[string]any{"k": "v"}, int64(7)}
	base := map[string]any{}
	for _, r := range acc.required {
		base[r] = "x"
	}
	var out []map[string]any
	for name, c := range acc.props {
		vs := values
		for _, e := range c.enum {
			vs = append(vs, e)
		}
		for _, v := range vs {
			m := map[string]any{name: v}
			for k, bv := range base {
				if k != name {
					m[k] = bv
				}
			}
			out = append(out, m)
		}
	}
	return append(out, base, map[string]any{"undeclared_key": 1})
}

// FuzzAcceptor feeds arbitrary arguments to the acceptors of every fixture
// schema they cover: whatever an acceptor accepts, the validator must too.
func FuzzAcceptor(f *testing.F) {
	for _, s := range []string{`{"name":"a"}`, `{"namespace":"x","name":"y","tailLines":5}`, `{"project_id":"1","iid":2}`,
		`{"query":"up","time":1.5}`, `{"a":null}`, `{}`} {
		f.Add([]byte(s))
	}
	type compiled struct {
		name string
		sch  interface{ Validate(any) error }
		acc  *acceptor
	}
	var all []compiled
	for name, raw := range fixtureSchemas(f) {
		sch, decoded, err := compileSchema(name, raw)
		if err != nil {
			continue
		}
		if acc := compileAcceptor(decoded); acc != nil {
			all = append(all, compiled{name, sch, acc})
		}
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		args, err := decodeArgs(raw)
		if err != nil {
			return
		}
		for _, c := range all {
			if c.acc.accepts(args) {
				if err := c.sch.Validate(args); err != nil {
					t.Fatalf("%s: accepted %s, which the validator refuses: %v", c.name, raw, err)
				}
			}
		}
	})
}
