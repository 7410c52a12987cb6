package normalizers

import "strings"

// maxDepth bounds recursion into arguments and schemas. Real tool arguments
// are a few levels deep; the bound keeps hostile or cyclic input ($ref
// loops) from exhausting the stack.
const maxDepth = 64

// schemaView answers the questions the transformers ask of a decoded JSON
// schema. It follows only local references ("#/..."), never remote ones,
// and looks through anyOf/oneOf/allOf branches so that the common
// `{"anyOf":[{"type":"string"},{"type":"null"}]}` shape still reads as
// "wants a string".
type schemaView struct {
	root map[string]any
}

// resolve follows local $ref chains. A remote or broken $ref yields nil:
// the transformers then know nothing about that location and leave it alone.
func (s schemaView) resolve(node map[string]any) map[string]any {
	for range maxDepth {
		if node == nil {
			return nil
		}
		ref, ok := node["$ref"].(string)
		if !ok {
			return node
		}
		node = s.pointer(ref)
	}
	return nil
}

// pointer resolves a same-document JSON pointer reference such as
// "#/$defs/Foo" or "#/definitions/Foo".
func (s schemaView) pointer(ref string) map[string]any {
	if ref == "#" {
		return s.root
	}
	if !strings.HasPrefix(ref, "#/") {
		return nil
	}
	var cur any = s.root
	for _, tok := range strings.Split(ref[2:], "/") {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		m, ok := cur.(map[string]any)
		if !ok {
			return nil
		}
		cur = m[tok]
	}
	m, _ := cur.(map[string]any)
	return m
}

// branches returns the resolved anyOf/oneOf/allOf sub-schemas of node.
func (s schemaView) branches(node map[string]any) []map[string]any {
	var out []map[string]any
	for _, k := range [...]string{"allOf", "anyOf", "oneOf"} {
		list, _ := node[k].([]any)
		for _, b := range list {
			if m, ok := b.(map[string]any); ok {
				if r := s.resolve(m); r != nil {
					out = append(out, r)
				}
			}
		}
	}
	return out
}

// prop returns the schema of property name under node, searching
// composition branches; nil when the schema does not declare it. A property
// that is declared only through additionalProperties (a free-form map with a
// value schema) returns that schema.
func (s schemaView) prop(node map[string]any, name string) map[string]any {
	return s.propDepth(node, name, 0)
}

func (s schemaView) propDepth(node map[string]any, name string, depth int) map[string]any {
	node = s.resolve(node)
	if node == nil || depth > maxDepth {
		return nil
	}
	if props, ok := node["properties"].(map[string]any); ok {
		if p, ok := props[name].(map[string]any); ok {
			return s.resolve(p)
		}
		if _, ok := props[name].(bool); ok {
			// `"name": true` declares the property with no constraints.
			return map[string]any{}
		}
	}
	for _, b := range s.branches(node) {
		if p := s.propDepth(b, name, depth+1); p != nil {
			return p
		}
	}
	if ap, ok := node["additionalProperties"].(map[string]any); ok {
		return s.resolve(ap)
	}
	return nil
}

// declared reports every property name node declares, branches included.
func (s schemaView) declared(node map[string]any) map[string]bool {
	out := map[string]bool{}
	s.collect(node, out, 0)
	return out
}

func (s schemaView) collect(node map[string]any, out map[string]bool, depth int) {
	node = s.resolve(node)
	if node == nil || depth > maxDepth {
		return
	}
	if props, ok := node["properties"].(map[string]any); ok {
		for k := range props {
			out[k] = true
		}
	}
	for _, b := range s.branches(node) {
		s.collect(b, out, depth+1)
	}
}

// types returns the JSON types node allows, from "type" (string or list)
// and the composition branches. An empty set means "unknown": transformers
// then change nothing.
func (s schemaView) types(node map[string]any) map[string]bool {
	out := map[string]bool{}
	s.typesInto(node, out, 0)
	return out
}

func (s schemaView) typesInto(node map[string]any, out map[string]bool, depth int) {
	node = s.resolve(node)
	if node == nil || depth > maxDepth {
		return
	}
	switch t := node["type"].(type) {
	case string:
		out[t] = true
	case []any:
		for _, e := range t {
			if str, ok := e.(string); ok {
				out[str] = true
			}
		}
	}
	for _, b := range s.branches(node) {
		s.typesInto(b, out, depth+1)
	}
}

// items returns the schema of array elements, if declared.
func (s schemaView) items(node map[string]any) map[string]any {
	return s.itemsDepth(node, 0)
}

func (s schemaView) itemsDepth(node map[string]any, depth int) map[string]any {
	node = s.resolve(node)
	if node == nil || depth > maxDepth {
		return nil
	}
	if it, ok := node["items"].(map[string]any); ok {
		return s.resolve(it)
	}
	for _, b := range s.branches(node) {
		if it := s.itemsDepth(b, depth+1); it != nil {
			return it
		}
	}
	return nil
}

// closed reports whether node itself says additionalProperties: false.
func (s schemaView) closed(node map[string]any) bool {
	node = s.resolve(node)
	if node == nil {
		return false
	}
	ap, ok := node["additionalProperties"].(bool)
	return ok && !ap
}

// enumStrings returns the string members of node's enum (or its const).
func (s schemaView) enumStrings(node map[string]any) []string {
	node = s.resolve(node)
	if node == nil {
		return nil
	}
	var out []string
	list, _ := node["enum"].([]any)
	for _, e := range list {
		if str, ok := e.(string); ok {
			out = append(out, str)
		}
	}
	if c, ok := node["const"].(string); ok {
		out = append(out, c)
	}
	for _, b := range s.branches(node) {
		out = append(out, s.enumStrings(b)...)
	}
	return out
}

// hasProperties reports whether a top-level schema declares any property.
// A schema without properties (nil, `{"type":"object"}`, or a broken one
// such as gitlab_reference ships) puts the call in schema-less mode.
func hasProperties(schema map[string]any) bool {
	if schema == nil {
		return false
	}
	return schemaView{root: schema}.anyProperty(schema, 0)
}

func (s schemaView) anyProperty(node map[string]any, depth int) bool {
	node = s.resolve(node)
	if node == nil || depth > maxDepth {
		return false
	}
	if props, ok := node["properties"].(map[string]any); ok && len(props) > 0 {
		return true
	}
	for _, b := range s.branches(node) {
		if s.anyProperty(b, depth+1) {
			return true
		}
	}
	return false
}

// description returns node's description, or "".
func (s schemaView) description(node map[string]any) string {
	node = s.resolve(node)
	if node == nil {
		return ""
	}
	d, _ := node["description"].(string)
	return d
}
