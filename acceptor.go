package mcpfleet

import (
	"math"
	"slices"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// acceptor proves arguments valid, without the general validator, for the
// schema shape most tools have: an object of typed, possibly enumerated
// properties, some required, extra keys allowed or not. In place it costs
// a few map lookups where the validator cost about 7% of a whole in-process
// call (18 allocations, and a big.Rat per integer).
//
// It only ever says yes for arguments the validator accepts: it is built
// only from schemas whose every keyword it understands, and any doubt
// (a key it was not told about under a closed schema, a Go type that is not
// JSON's, a failed check) sends the call to the validator, which then
// writes the same problems it always did.
type acceptor struct {
	props    map[string]valueCheck
	required []string
	closed   bool // additionalProperties: false
}

// valueCheck is one property's check.
type valueCheck struct {
	types jsonTypes // 0: any type
	enum  []string  // non-nil: one of these strings
}

type jsonTypes uint8

const (
	typeNull jsonTypes = 1 << iota
	typeBoolean
	typeInteger
	typeNumber
	typeString
	typeArray
	typeObject
)

var typeNames = map[string]jsonTypes{
	"null": typeNull, "boolean": typeBoolean, "integer": typeInteger, "number": typeNumber,
	"string": typeString, "array": typeArray, "object": typeObject,
}

// annotations are keywords that never make a value invalid.
var annotations = map[string]bool{
	"title": true, "description": true, "default": true, "examples": true, "$comment": true,
	"deprecated": true, "readOnly": true, "writeOnly": true,
}

// compileAcceptor returns the acceptor of a decoded tool schema, or nil when
// the schema uses anything it does not understand.
func compileAcceptor(schema map[string]any) *acceptor {
	if schema == nil {
		return nil
	}
	// Under drafts before 2019-09 format is an assertion; under the
	// default draft (2020-12, which compileSchema falls back to) it is an
	// annotation.
	formatIsAnnotation := true
	if s, ok := schema["$schema"]; ok {
		str, _ := s.(string)
		formatIsAnnotation = strings.Contains(str, "draft/2020-12")
	}
	a := &acceptor{props: map[string]valueCheck{}}
	for k, v := range schema {
		switch {
		case k == "type":
			t, ok := parseTypes(v)
			if !ok || (t != 0 && t&typeObject == 0) {
				return nil
			}
		case k == "properties":
			props, ok := v.(map[string]any)
			if !ok {
				return nil
			}
			for name, p := range props {
				c, ok := compileValue(p, formatIsAnnotation)
				if !ok {
					return nil
				}
				a.props[name] = c
			}
		case k == "required":
			list, ok := v.([]any)
			if !ok {
				return nil
			}
			for _, r := range list {
				s, ok := r.(string)
				if !ok {
					return nil
				}
				a.required = append(a.required, s)
			}
		case k == "additionalProperties":
			b, ok := v.(bool)
			if !ok {
				return nil
			}
			a.closed = !b
		// No keyword the acceptor allows can hold a $ref, so definitions
		// are never reached; they compiled, which is all that matters.
		case k == "$schema", k == "$defs", k == "definitions", annotations[k]:
		default:
			return nil
		}
	}
	return a
}

func compileValue(v any, formatIsAnnotation bool) (valueCheck, bool) {
	if b, ok := v.(bool); ok {
		return valueCheck{}, b // true allows anything; false nothing, which the validator says best
	}
	node, ok := v.(map[string]any)
	if !ok {
		return valueCheck{}, false
	}
	var c valueCheck
	for k, x := range node {
		switch {
		case k == "type":
			if c.types, ok = parseTypes(x); !ok {
				return valueCheck{}, false
			}
		case k == "enum":
			list, ok := x.([]any)
			if !ok {
				return valueCheck{}, false
			}
			c.enum = make([]string, 0, len(list))
			for _, e := range list {
				s, ok := e.(string)
				if !ok {
					return valueCheck{}, false
				}
				c.enum = append(c.enum, s)
			}
		case k == "format" && formatIsAnnotation, annotations[k]:
		default:
			return valueCheck{}, false
		}
	}
	return c, true
}

func parseTypes(v any) (jsonTypes, bool) {
	var names []any
	switch x := v.(type) {
	case string:
		names = []any{x}
	case []any:
		names = x
	default:
		return 0, false
	}
	var t jsonTypes
	for _, n := range names {
		s, _ := n.(string)
		bit, ok := typeNames[s]
		if !ok {
			return 0, false
		}
		t |= bit
	}
	return t, t != 0
}

// accepts reports whether args are certainly valid. False means only "ask
// the validator".
func (a *acceptor) accepts(args map[string]any) bool {
	for _, r := range a.required {
		if _, ok := args[r]; !ok {
			return false
		}
	}
	for k, v := range args {
		c, ok := a.props[k]
		if !ok {
			if a.closed {
				return false
			}
			continue
		}
		if !c.accepts(v) {
			return false
		}
	}
	return true
}

func (c valueCheck) accepts(v any) bool {
	var t jsonTypes
	switch x := v.(type) {
	case nil:
		t = typeNull
	case bool:
		t = typeBoolean
	case string:
		t = typeString
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return false
		}
		// The validator's integer test (the decimal text is a whole
		// number) agrees with this for every finite float64.
		t = typeNumber
		if x == math.Trunc(x) {
			t |= typeInteger
		}
	case int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64:
		t = typeNumber | typeInteger
	case []any:
		t = typeArray
	case map[string]any:
		t = typeObject
	default:
		return false // json.Number, or a Go type a transformer made: the validator decides
	}
	if c.types != 0 && t&c.types == 0 {
		return false
	}
	if c.enum != nil {
		s, ok := v.(string)
		return ok && slices.Contains(c.enum, s)
	}
	return true
}

// acceptors holds one server's acceptors by tool name, each with the
// compiled schema it was built for: a tool list refresh that changes a
// schema compiles a new one, and names bound the map's size.
type acceptors struct{ m sync.Map } // tool name -> *acceptorEntry

type acceptorEntry struct {
	schema *jsonschema.Schema
	acc    *acceptor // nil: the schema is outside the acceptor's subset
}

func (as *acceptors) get(tool string, schema *jsonschema.Schema, decoded map[string]any) *acceptor {
	if as == nil {
		return nil
	}
	if e, ok := as.m.Load(tool); ok && e.(*acceptorEntry).schema == schema {
		return e.(*acceptorEntry).acc
	}
	e := &acceptorEntry{schema: schema, acc: compileAcceptor(decoded)}
	as.m.Store(tool, e)
	return e.acc
}
