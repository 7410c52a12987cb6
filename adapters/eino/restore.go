package eino

import (
	"encoding/json"

	"github.com/eino-contrib/jsonschema"
)

// restore puts back what decoding into jsonschema.Schema drops, so the schema
// the model sees equals the one the server sent: keywords the type has no
// field for, keywords whose value is the zero value ("default": null,
// "required": []), and empty schemas ({} would otherwise marshal as true).
// It walks raw and s in step.
func restore(raw json.RawMessage, s *jsonschema.Schema) {
	if s == nil {
		return
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil {
		return // a boolean schema round-trips by itself
	}
	one := func(key string, sub *jsonschema.Schema) {
		if r, ok := m[key]; ok {
			restore(r, sub)
		}
	}
	list := func(key string, subs []*jsonschema.Schema) {
		var rs []json.RawMessage
		if r, ok := m[key]; ok && json.Unmarshal(r, &rs) == nil && len(rs) == len(subs) {
			for i := range subs {
				restore(rs[i], subs[i])
			}
		}
	}
	dict := func(key string, get func(string) *jsonschema.Schema) {
		var rs map[string]json.RawMessage
		if r, ok := m[key]; ok && json.Unmarshal(r, &rs) == nil {
			for k, r := range rs {
				restore(r, get(k))
			}
		}
	}
	one("items", s.Items)
	one("not", s.Not)
	one("if", s.If)
	one("then", s.Then)
	one("else", s.Else)
	one("contains", s.Contains)
	one("additionalProperties", s.AdditionalProperties)
	one("propertyNames", s.PropertyNames)
	one("contentSchema", s.ContentSchema)
	list("allOf", s.AllOf)
	list("anyOf", s.AnyOf)
	list("oneOf", s.OneOf)
	list("prefixItems", s.PrefixItems)
	if s.Properties != nil {
		dict("properties", func(k string) *jsonschema.Schema { v, _ := s.Properties.Get(k); return v })
	}
	dict("patternProperties", func(k string) *jsonschema.Schema { return s.PatternProperties[k] })
	dict("dependentSchemas", func(k string) *jsonschema.Schema { return s.DependentSchemas[k] })
	dict("$defs", func(k string) *jsonschema.Schema { return s.Definitions[k] })

	out, err := json.Marshal(s)
	if err != nil {
		return
	}
	var got map[string]json.RawMessage
	if json.Unmarshal(out, &got) != nil {
		got = map[string]json.RawMessage{}
	}
	if s.Extras == nil {
		s.Extras = map[string]any{} // non-nil: an empty schema stays {} rather than true
	}
	for k, r := range m {
		if _, ok := got[k]; ok {
			continue
		}
		var v any
		if json.Unmarshal(r, &v) == nil {
			s.Extras[k] = v
		}
	}
}
