package mcpfleet

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/message"

	"github.com/mcpfleet/mcpfleet/internal/textdist"
)

// maxSchemaBytes bounds what a server may send as one tool's schema; deeper
// or larger schemas mark the tool unusable rather than costing memory.
const (
	maxSchemaBytes = 1 << 20
	maxSchemaDepth = 64
)

// refusingLoader is the only loader the compiler gets: tool schemas are
// untrusted, and a $ref to a URL or file must never be fetched.
type refusingLoader struct{}

func (refusingLoader) Load(url string) (any, error) {
	return nil, fmt.Errorf("refusing to load external schema %q: only local $refs are followed", url)
}

// compileSchema compiles one tool schema. It returns the decoded schema too,
// which the normalizers and placeholder walk read.
func compileSchema(id string, raw json.RawMessage) (*jsonschema.Schema, map[string]any, error) {
	if len(raw) > maxSchemaBytes {
		return nil, nil, fmt.Errorf("schema is %d bytes, over the %d limit", len(raw), maxSchemaBytes)
	}
	doc, err := jsonschema.UnmarshalJSON(strings.NewReader(string(raw)))
	if err != nil {
		return nil, nil, fmt.Errorf("schema is not JSON: %w", err)
	}
	obj, ok := doc.(map[string]any)
	if !ok {
		return nil, nil, fmt.Errorf("schema is not an object")
	}
	if depth(obj, 0) > maxSchemaDepth {
		return nil, nil, fmt.Errorf("schema nests deeper than %d levels", maxSchemaDepth)
	}
	// A $schema naming an unknown meta-schema would need a fetch; the
	// default draft (2020-12) reads every tool schema seen in practice.
	if s, ok := obj["$schema"].(string); ok && !knownDraft(s) {
		delete(obj, "$schema")
	}
	// The MCP spec requires an object schema; servers that omit "type"
	// (gitlab_reference ships such schemas) still mean an object.
	c := jsonschema.NewCompiler()
	c.UseLoader(refusingLoader{})
	url := "mem:///" + id + ".json"
	if err := c.AddResource(url, obj); err != nil {
		return nil, nil, err
	}
	sch, err := c.Compile(url)
	if err != nil {
		return nil, nil, err
	}
	// The validator reads doc through its own numbers; decode once more
	// with encoding/json so transformers see float64s, as they do for args.
	var plain map[string]any
	_ = json.Unmarshal(raw, &plain)
	if s, ok := plain["$schema"].(string); ok && !knownDraft(s) {
		delete(plain, "$schema")
	}
	return sch, plain, nil
}

func knownDraft(s string) bool {
	for _, d := range []string{"draft-04", "draft-06", "draft-07", "draft/2019-09", "draft/2020-12"} {
		if strings.Contains(s, d) {
			return true
		}
	}
	return false
}

func depth(v any, d int) int {
	if d > maxSchemaDepth {
		return d
	}
	max := d
	switch x := v.(type) {
	case map[string]any:
		for _, e := range x {
			if n := depth(e, d+1); n > max {
				max = n
			}
		}
	case []any:
		for _, e := range x {
			if n := depth(e, d+1); n > max {
				max = n
			}
		}
	}
	return max
}

var printer = message.NewPrinter(message.MatchLanguage("en"))

// validationProblems turns a validator error into model-readable problems,
// one per failing leaf, each with the nearest valid choice where one exists.
func validationProblems(err error, schema map[string]any) []Problem {
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return []Problem{{Want: "arguments that match the schema", Hint: err.Error()}}
	}
	var out []Problem
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(e.Causes) > 0 {
			for _, c := range e.Causes {
				walk(c)
			}
			return
		}
		out = append(out, leafProblem(e, schema))
	}
	walk(ve)
	sort.SliceStable(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return dedupeProblems(out)
}

func dedupeProblems(ps []Problem) []Problem {
	var out []Problem
	for _, p := range ps {
		if !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return out
}

func leafProblem(e *jsonschema.ValidationError, schema map[string]any) Problem {
	path := pointer(e.InstanceLocation)
	sub := schemaAt(schema, e.InstanceLocation)
	switch k := e.ErrorKind.(type) {
	case *kind.Required:
		missing := k.Missing[0]
		p := Problem{Path: path + "/" + escapePointer(missing), Got: "nothing", Want: "a value" + describeWant(propSchema(sub, missing)),
			Hint: fmt.Sprintf("%q is required.", missing)}
		if len(k.Missing) > 1 {
			p.Hint = fmt.Sprintf("Required: %s.", quoteJoin(k.Missing))
		}
		return p
	case *kind.Type:
		return Problem{Path: path, Got: k.Got, Want: strings.Join(k.Want, " or ") + describeDesc(sub)}
	case *kind.Enum:
		var want []string
		for _, w := range k.Want {
			want = append(want, fmt.Sprint(w))
		}
		p := Problem{Path: path, Got: fmt.Sprintf("%q", brief(fmt.Sprint(k.Got))), Want: "one of " + strings.Join(want, ", ")}
		if n := textdist.NearestPart(fmt.Sprint(k.Got), want); n != "" {
			p.Hint = fmt.Sprintf("Did you mean %q?", n)
		}
		return p
	case *kind.AdditionalProperties:
		declared := propNames(sub)
		p := Problem{Path: path + "/" + escapePointer(k.Properties[0]), Got: "unknown field " + quoteJoin(k.Properties),
			Want: "only declared fields: " + strings.Join(declared, ", ")}
		if n := textdist.NearestPart(k.Properties[0], declared); n != "" {
			p.Hint = fmt.Sprintf("Did you mean %q?", n)
		}
		return p
	default:
		return Problem{Path: path, Want: e.ErrorKind.LocalizedString(printer)}
	}
}

func describeDesc(schema map[string]any) string {
	if d, ok := schema["description"].(string); ok && d != "" {
		return " (" + brief(d) + ")"
	}
	return ""
}

func quoteJoin(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = strconv.Quote(s)
	}
	return strings.Join(q, ", ")
}

func pointer(loc []string) string {
	var b strings.Builder
	for _, s := range loc {
		b.WriteByte('/')
		b.WriteString(escapePointer(s))
	}
	return b.String()
}

// schemaAt follows properties/items along an instance location. It does not
// follow $ref or combinators: the result only decorates messages.
func schemaAt(schema map[string]any, loc []string) map[string]any {
	cur := schema
	for _, seg := range loc {
		if cur == nil {
			return nil
		}
		if props, ok := cur["properties"].(map[string]any); ok {
			if s, ok := props[seg].(map[string]any); ok {
				cur = s
				continue
			}
		}
		if items, ok := cur["items"].(map[string]any); ok {
			if _, err := strconv.Atoi(seg); err == nil {
				cur = items
				continue
			}
		}
		return nil
	}
	return cur
}

func propSchema(schema map[string]any, name string) map[string]any {
	props, _ := schema["properties"].(map[string]any)
	s, _ := props[name].(map[string]any)
	return s
}

func propNames(schema map[string]any) []string {
	props, _ := schema["properties"].(map[string]any)
	names := make([]string, 0, len(props))
	for k := range props {
		names = append(names, k)
	}
	sort.Strings(names)
	return names
}
