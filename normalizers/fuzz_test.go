package normalizers

import (
	"bufio"
	"encoding/json"
	"errors"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpfleet/mcpfleet/internal/fixtures"
)

// fuzzSeeds adds (schema, args, separator) seeds: every corpus case with its
// real fixture schema when the fixtures are present, and a few schema-less
// and hand-shaped ones that need no fixtures (a local $ref cycle, a remote
// $ref, nonsense keyword types).
func fuzzSeeds(f *testing.F) {
	f.Add(``, `{"resource_type":"pods","a-b":["x","y"],"n":"5"}`, "")
	f.Add(`{"type":"object","properties":{"a":{"$ref":"#/$defs/a"}},"$defs":{"a":{"$ref":"#/$defs/a"}}}`, `{"a":{"b_c":1}}`, ",")
	f.Add(`{"properties":{"x":{"$ref":"https://example.com/s.json"}},"additionalProperties":false}`, `{"x":"1","y":2}`, "")
	f.Add(`{"properties":[],"type":5,"items":"no","required":{"a":1}}`, `{"a":[1,"2",{"c":null}]}`, "")
	b, err := os.ReadFile("testdata/corpus.jsonl")
	if err != nil {
		return
	}
	schemas := map[string]map[string]string{}
	sc := bufio.NewScanner(strings.NewReader(string(b)))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var c struct {
			Fixture, Tool string
			Args          json.RawMessage
		}
		if json.Unmarshal(sc.Bytes(), &c) != nil {
			continue
		}
		if schemas[c.Fixture] == nil {
			schemas[c.Fixture] = map[string]string{}
			if file, err := fixtures.Load(c.Fixture); err == nil {
				for _, t := range file.Tools {
					schemas[c.Fixture][t.Name] = string(t.RawInputSchema)
				}
			}
		}
		if s, ok := schemas[c.Fixture][c.Tool]; ok {
			f.Add(s, string(c.Args), "")
		}
	}
}

func fuzzTransformer(f *testing.F, name string) {
	fuzzSeeds(f)
	tr := Builtins(nil)[name]
	f.Fuzz(func(t *testing.T, schemaJSON, argsJSON, sep string) {
		var schema map[string]any
		_ = json.Unmarshal([]byte(schemaJSON), &schema) // anything that is not an object is "no schema"
		var args, before map[string]any
		if json.Unmarshal([]byte(argsJSON), &args) != nil || args == nil {
			return
		}
		_ = json.Unmarshal([]byte(argsJSON), &before)
		call := Call{Schema: schema, Args: args, Separator: sep}
		out, err := tr(t.Context(), call)
		if diff := cmp.Diff(before, args); diff != "" {
			t.Fatalf("input mutated (-before +after):\n%s", diff)
		}
		if err != nil {
			var ne *Error
			if !errors.As(err, &ne) {
				t.Fatalf("error %v is not a *Error", err)
			}
			return
		}
		call.Args = out
		again, err := tr(t.Context(), call)
		if err != nil {
			t.Fatalf("second run failed: %v (first output %v)", err, out)
		}
		if diff := cmp.Diff(out, again); diff != "" {
			t.Fatalf("not idempotent (-once +twice):\n%s", diff)
		}
		pool := leafPool(before)
		for _, l := range leaves(out) {
			if !derived(l, pool, sep) {
				t.Fatalf("output value %#v derives from no input value (inputs %v)", l, pool)
			}
		}
	})
}

func FuzzCamelCase(f *testing.F)            { fuzzTransformer(f, CamelCase) }
func FuzzSnakeCase(f *testing.F)            { fuzzTransformer(f, SnakeCase) }
func FuzzJoinArrays(f *testing.F)           { fuzzTransformer(f, JoinArrays) }
func FuzzSplitStrings(f *testing.F)         { fuzzTransformer(f, SplitStrings) }
func FuzzSingularResourceType(f *testing.F) { fuzzTransformer(f, SingularResourceType) }
func FuzzCoerceTypes(f *testing.F)          { fuzzTransformer(f, CoerceTypes) }
func FuzzDropUnknown(f *testing.F)          { fuzzTransformer(f, DropUnknown) }

// leaves returns every scalar in v (strings, numbers, bools, nulls).
func leaves(v any) []any {
	switch x := v.(type) {
	case map[string]any:
		var out []any
		for _, e := range x {
			out = append(out, leaves(e)...)
		}
		return out
	case []any:
		var out []any
		for _, e := range x {
			out = append(out, leaves(e)...)
		}
		return out
	}
	return []any{v}
}

// leafPool is the input's scalars, plus the scalars inside any string that
// is itself JSON (coerceTypes decodes those).
func leafPool(v any) []any {
	var out []any
	for _, l := range leaves(v) {
		out = append(out, l)
		if s, ok := l.(string); ok {
			var inner any
			if json.Unmarshal([]byte(s), &inner) == nil {
				out = append(out, leafPool(inner)...)
			}
		}
	}
	return out
}

// derived reports whether output scalar l can come from the input scalars:
// the same value, a converted one ("5" -> 5, 5 -> "5", "true" -> true), a
// piece of one (splitStrings), pieces joined (joinArrays), or a table
// singular of one (singularResourceType).
func derived(l any, pool []any, sep string) bool {
	table := resourceTable(nil)
	for _, p := range pool {
		if scalarEqual(l, p) {
			return true
		}
	}
	switch x := l.(type) {
	case string:
		if x == "" {
			return slices.ContainsFunc(pool, func(p any) bool { return p == "" })
		}
		text := poolText(pool)
		if strings.Contains(text, x) {
			return true
		}
		// Singulars and enum spellings: "Apps" -> "app", "virtualservices"
		// -> "VirtualService", "networkpolicies" -> "NetworkPolicy".
		lx := strings.ToLower(x)
		if strings.Contains(strings.ToLower(text), lx) {
			return true
		}
		for _, p := range pool {
			if s, ok := p.(string); ok && table[strings.ToLower(s)] == lx {
				return true
			}
		}
		// joinArrays: every piece between separators is an input string.
		if sep == "" {
			sep = " "
		}
		for _, piece := range strings.Split(x, sep) {
			if !strings.Contains(text, piece) {
				return false
			}
		}
		return true
	case float64, int64, bool:
		for _, p := range pool {
			if s, ok := p.(string); ok {
				if v, ok := fromString(map[string]bool{"number": true, "boolean": true}, s); ok && scalarEqual(l, v) {
					return true
				}
			}
		}
	}
	return false
}

// poolText concatenates the input scalars' text, separated by NUL so that
// no piece spans two inputs.
func poolText(pool []any) string {
	var b strings.Builder
	for _, p := range pool {
		switch x := p.(type) {
		case string:
			b.WriteString(x)
		case float64:
			b.WriteString(strconv.FormatFloat(x, 'f', -1, 64))
		case bool:
			b.WriteString(strconv.FormatBool(x))
		}
		b.WriteByte(0)
	}
	return b.String()
}

func scalarEqual(a, b any) bool {
	fa, aNum := asFloat(a)
	fb, bNum := asFloat(b)
	if aNum || bNum {
		return aNum && bNum && fa == fb
	}
	return a == b
}

func asFloat(v any) (float64, bool) {
	switch x := v.(type) {
	case float64:
		return x, true
	case int64:
		return float64(x), true
	}
	return 0, false
}
