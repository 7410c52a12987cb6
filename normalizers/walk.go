package normalizers

import (
	"maps"
	"slices"
	"strconv"
	"strings"
)

// The callbacks take the walker's schema view as an argument rather than
// capturing the walker: a transformer can then build them once, not on every
// call (a captured walker and its closure were two allocations per
// transformer per call).
//
// levelFunc rewrites the keys of one object level. node is the level's
// schema, nil in schema-less mode. It returns changed=true only with a fresh
// map; it never writes to obj.
type levelFunc func(s schemaView, node, obj map[string]any, path string) (out map[string]any, changed bool, err error)

// valueFunc rewrites one value whose schema node is known (never nil). key
// is the property name, "" for array elements. It never writes into v. It
// gets no path: none of the value rewrites can fail, and building a path
// for every leaf cost an allocation per argument.
type valueFunc func(s schemaView, node map[string]any, key string, v any) (out any, act action, err error)

type action int

const (
	keep action = iota
	replace
	remove // delete the property; ignored for array elements
)

// walker visits an argument tree alongside its schema, copy-on-write: the
// input is never mutated and unchanged subtrees are shared with the output.
type walker struct {
	s     schemaView
	free  bool // schema-less mode: the top level declares no properties
	level levelFunc
	value valueFunc
}

func newWalker(schema map[string]any, level levelFunc, value valueFunc) walker {
	return walker{s: schemaView{root: schema}, free: !hasProperties(schema), level: level, value: value}
}

func (w walker) run(args map[string]any) (map[string]any, error) {
	if args == nil {
		return nil, nil
	}
	var node map[string]any
	if !w.free {
		node = w.s.root
	}
	out, _, err := w.object(node, args, "", 0)
	return out, err
}

func (w walker) object(node, obj map[string]any, path string, depth int) (map[string]any, bool, error) {
	if depth > maxDepth {
		return obj, false, nil
	}
	res, changed := obj, false
	if w.level != nil {
		var err error
		res, changed, err = w.level(w.s, node, obj, path)
		if err != nil {
			return nil, false, err
		}
	}
	// Map order is fine: only level funcs fail, and they sort their keys.
	// Ranging over the pre-clone map while writing to the clone is safe.
	for k, v := range res {
		var child map[string]any
		if !w.free {
			if child = w.s.prop(node, k); child == nil {
				continue // undeclared: we know nothing, so we change nothing
			}
		}
		nv, ch, del, err := w.walkValue(child, k, v, at{parent: path, key: k}, depth+1)
		if err != nil {
			return nil, false, err
		}
		if !ch && !del {
			continue
		}
		if !changed {
			res, changed = maps.Clone(res), true
		}
		if del {
			delete(res, k)
		} else {
			res[k] = nv
		}
	}
	return res, changed, nil
}

// at is a value's JSON pointer, kept as its parent's pointer and its own
// token until something needs the string: only containers do.
type at struct {
	parent string
	key    string
	index  int
	elem   bool // an array element: index, not key
}

func (a at) String() string {
	if a.elem {
		return a.parent + "/" + strconv.Itoa(a.index)
	}
	return a.parent + "/" + escape(a.key)
}

func (w walker) walkValue(node map[string]any, key string, v any, pos at, depth int) (out any, changed, deleted bool, err error) {
	if depth > maxDepth {
		return v, false, false, nil
	}
	if node != nil && w.value != nil {
		nv, act, err := w.value(w.s, node, key, v)
		if err != nil {
			return nil, false, false, err
		}
		switch act {
		case remove:
			if key != "" {
				return nil, false, true, nil
			}
		case replace:
			v, changed = nv, true
		}
	}
	switch x := v.(type) {
	case map[string]any:
		m, ch, err := w.object(node, x, pos.String(), depth)
		if err != nil {
			return nil, false, false, err
		}
		if ch {
			return m, true, false, nil
		}
	case []any:
		var item map[string]any
		if !w.free {
			if item = w.s.items(node); item == nil {
				break
			}
		}
		var res []any
		path := pos.String()
		for i, e := range x {
			ne, ch, _, err := w.walkValue(item, "", e, at{parent: path, index: i, elem: true}, depth+1)
			if err != nil {
				return nil, false, false, err
			}
			if ch {
				if res == nil {
					res = slices.Clone(x)
				}
				res[i] = ne
			}
		}
		if res != nil {
			return res, true, false, nil
		}
	}
	return v, changed, false, nil
}

// escape encodes one JSON pointer reference token (RFC 6901).
func escape(tok string) string {
	if !strings.ContainsAny(tok, "~/") {
		return tok
	}
	return strings.ReplaceAll(strings.ReplaceAll(tok, "~", "~0"), "/", "~1")
}
