package normalizers_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"

	"github.com/mcpfleet/mcpfleet/internal/fixtures"
	"github.com/mcpfleet/mcpfleet/normalizers"
)

// corpusCase is one line of testdata/corpus.jsonl: a bad call a model could
// make against a real tool schema, and what the pipeline should make of it.
type corpusCase struct {
	ID           string            `json:"id"`
	Fixture      string            `json:"fixture"`
	Tool         string            `json:"tool"`
	Transformers []string          `json:"transformers"`
	FieldMap     map[string]string `json:"field_map"`
	Args         map[string]any    `json:"args"`
	Expect       string            `json:"expect"` // "repaired" or "rejected"
	Want         map[string]any    `json:"want"`
	Reason       string            `json:"reason"` // placeholder | invalid_arguments | transform_failed
	Path         string            `json:"path"`
}

func loadCorpus(tb testing.TB) []corpusCase {
	tb.Helper()
	f, err := os.Open("testdata/corpus.jsonl")
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	var out []corpusCase
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for n := 1; sc.Scan(); n++ {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		var c corpusCase
		dec := json.NewDecoder(bytes.NewReader(sc.Bytes()))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&c); err != nil {
			tb.Fatalf("corpus line %d: %v", n, err)
		}
		out = append(out, c)
	}
	if err := sc.Err(); err != nil {
		tb.Fatal(err)
	}
	return out
}

// toolSet caches fixtures and compiled schemas across cases.
type toolSet struct {
	mu    sync.Mutex
	files map[string]*fixtures.File
}

func (ts *toolSet) tool(tb testing.TB, fixture, name string) (mcp.Tool, bool) {
	tb.Helper()
	ts.mu.Lock()
	defer ts.mu.Unlock()
	if ts.files == nil {
		ts.files = map[string]*fixtures.File{}
	}
	f := ts.files[fixture]
	if f == nil {
		f = fixtures.MustLoad(tb, fixture)
		ts.files[fixture] = f
	}
	i := slices.IndexFunc(f.Tools, func(t mcp.Tool) bool { return t.Name == name })
	if i < 0 {
		return mcp.Tool{}, false
	}
	return f.Tools[i], true
}

func decodeSchema(tb testing.TB, raw json.RawMessage) map[string]any {
	tb.Helper()
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		tb.Fatalf("decode schema: %v", err)
	}
	return m
}

// noRemote refuses every URL: tool schemas must be self-contained.
type noRemote struct{}

func (noRemote) Load(url string) (any, error) {
	return nil, fmt.Errorf("remote $ref %q refused", url)
}

func compile(tb testing.TB, raw json.RawMessage) *jsonschema.Schema {
	tb.Helper()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		tb.Fatalf("schema: %v", err)
	}
	c := jsonschema.NewCompiler()
	c.UseLoader(noRemote{})
	const url = "urn:mcpfleet:tool-input"
	if err := c.AddResource(url, doc); err != nil {
		tb.Fatalf("schema: %v", err)
	}
	s, err := c.Compile(url)
	if err != nil {
		tb.Fatalf("compile schema: %v", err)
	}
	return s
}

// problemPaths lists the JSON pointers the root pipeline reports for a
// validation failure: the instance location of each leaf error, with the
// missing (or unknown) property's name appended for required (or
// additionalProperties) errors.
func problemPaths(err error) []string {
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return nil
	}
	var out []string
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(e.Causes) > 0 {
			for _, c := range e.Causes {
				walk(c)
			}
			return
		}
		p := pointer(e.InstanceLocation)
		switch k := e.ErrorKind.(type) {
		case *kind.Required:
			for _, m := range k.Missing {
				out = append(out, p+"/"+m)
			}
		case *kind.AdditionalProperties:
			for _, m := range k.Properties {
				out = append(out, p+"/"+m)
			}
		default:
			out = append(out, p)
		}
	}
	walk(ve)
	return out
}

func pointer(loc []string) string {
	var b strings.Builder
	for _, s := range loc {
		b.WriteString("/" + strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1"))
	}
	return b.String()
}

// isPlaceholder mirrors the root pipeline's placeholder list.
func isPlaceholder(s string) bool {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "", "undefined", "null", "none", "<none>", "<unknown>", "nil", "n/a":
		return true
	}
	return false
}

// placeholders returns the pointers of placeholder strings and nulls in v.
func placeholders(v any, path string) []string {
	switch x := v.(type) {
	case nil:
		return []string{path}
	case string:
		if isPlaceholder(x) {
			return []string{path}
		}
	case []any:
		var out []string
		for i, e := range x {
			out = append(out, placeholders(e, path+"/"+strconv.Itoa(i))...)
		}
		return out
	case map[string]any:
		var out []string
		for k, e := range x {
			out = append(out, placeholders(e, path+"/"+k)...)
		}
		slices.Sort(out)
		return out
	}
	return nil
}

// roundTrip gives the output the shape a JSON decoder would: int64 and
// float64 compare equal when they encode the same.
func roundTrip(tb testing.TB, m map[string]any) map[string]any {
	tb.Helper()
	b, err := json.Marshal(m)
	if err != nil {
		tb.Fatal(err)
	}
	var out map[string]any
	if err := json.Unmarshal(b, &out); err != nil {
		tb.Fatal(err)
	}
	return out
}

func TestCorpus(t *testing.T) {
	cases := loadCorpus(t)
	if len(cases) < 150 {
		t.Errorf("corpus has %d cases, want at least 150", len(cases))
	}
	var ts toolSet
	seen := map[string]bool{}
	reasons := map[string]int{}
	for _, c := range cases {
		if seen[c.ID] {
			t.Errorf("duplicate corpus id %q", c.ID)
		}
		seen[c.ID] = true
		reasons[c.Expect+"/"+c.Reason]++
		t.Run(c.ID, func(t *testing.T) {
			tool, ok := ts.tool(t, c.Fixture, c.Tool)
			if !ok {
				t.Fatalf("fixture %s has no tool %q", c.Fixture, c.Tool)
			}
			schema := decodeSchema(t, tool.RawInputSchema)
			validator := compile(t, tool.RawInputSchema)
			chain, err := normalizers.Chain(c.Transformers, normalizers.Builtins(nil))
			if err != nil {
				t.Fatal(err)
			}
			before := roundTrip(t, c.Args)
			got, err := chain(t.Context(), normalizers.Call{Kind: c.Fixture, Tool: c.Tool, Schema: schema, Args: c.Args})
			if err == nil {
				got, err = normalizers.ApplyFieldMap(got, c.FieldMap)
			}
			if diff := cmp.Diff(before, roundTrip(t, c.Args)); diff != "" {
				t.Errorf("input args mutated (-before +after):\n%s", diff)
			}
			switch {
			case c.Expect == "repaired":
				if err != nil {
					t.Fatalf("chain failed: %v", err)
				}
				if diff := cmp.Diff(c.Want, roundTrip(t, got)); diff != "" {
					t.Errorf("repaired args (-want +got):\n%s", diff)
				}
				if ph := placeholders(c.Want, ""); len(ph) > 0 {
					t.Errorf("want holds placeholders at %v; the pipeline would reject it", ph)
				}
				if err := validator.Validate(roundTripValue(t, c.Want)); err != nil {
					t.Errorf("want does not validate against %s/%s: %v", c.Fixture, c.Tool, err)
				}
			case c.Expect == "rejected" && c.Reason == "transform_failed":
				var ne *normalizers.Error
				if !errors.As(err, &ne) {
					t.Fatalf("err = %v, want a *normalizers.Error", err)
				}
				if ne.Path != c.Path {
					t.Errorf("error path = %q, want %q (%v)", ne.Path, c.Path, err)
				}
			case c.Expect == "rejected" && c.Reason == "placeholder":
				if err != nil {
					t.Fatalf("chain failed: %v", err)
				}
				if ph := placeholders(got, ""); !slices.Contains(ph, c.Path) {
					t.Errorf("after the chain, placeholders are at %v, want one at %q; got %v", ph, c.Path, got)
				}
			case c.Expect == "rejected" && c.Reason == "invalid_arguments":
				if err != nil {
					t.Fatalf("chain failed: %v", err)
				}
				if ph := placeholders(got, ""); len(ph) > 0 {
					t.Fatalf("placeholders at %v would be rejected before validation", ph)
				}
				verr := validator.Validate(roundTripValue(t, got))
				if verr == nil {
					t.Fatalf("chain output %v validates; the case is not rejected", got)
				}
				if paths := problemPaths(verr); !slices.Contains(paths, c.Path) {
					t.Errorf("validation problems at %v, want one at %q", paths, c.Path)
				}
			default:
				t.Fatalf("bad expectation %q/%q", c.Expect, c.Reason)
			}
		})
	}
	t.Logf("corpus: %d cases %v", len(cases), reasons)
}

func roundTripValue(tb testing.TB, m map[string]any) any {
	tb.Helper()
	b, err := json.Marshal(m)
	if err != nil {
		tb.Fatal(err)
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		tb.Fatal(err)
	}
	return v
}
