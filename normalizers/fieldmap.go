package normalizers

import (
	"maps"
	"slices"
	"strconv"
	"strings"
)

// ApplyFieldMap renames argument keys: each entry maps a source key to a
// target key. A source may be a dotted path ("spec.podName") that walks
// into nested objects, and through arrays of objects, to rename at any
// depth; the target is a bare name ("name") or a dotted path with the same
// parent ("spec.name"). Entries are applied at once, so {a: b, b: a} swaps.
//
// The pipeline applies the field map AFTER the transformers, so sources are
// written in the form the transformers produce: with camelCase in the chain,
// a model's "resource_type" reaches the field map as "resourceType", and the
// entry must read {resourceType: kind}.
//
// A rename onto a key that is also present is an *Error, as is a target in
// another object. A source that is absent is not an error. args is not
// mutated.
func ApplyFieldMap(args map[string]any, fieldMap map[string]string) (map[string]any, error) {
	if len(fieldMap) == 0 || args == nil {
		return args, nil
	}
	root := &fmNode{}
	for _, src := range slices.Sorted(maps.Keys(fieldMap)) {
		dst := fieldMap[src]
		segs := strings.Split(src, ".")
		if i := strings.LastIndexByte(dst, '.'); i >= 0 {
			if dst[:i] != strings.Join(segs[:len(segs)-1], ".") {
				return nil, &Error{Transformer: "fieldMap", Path: "", Msg: msgFieldMapBadTarget(src, dst)}
			}
			dst = dst[i+1:]
		}
		n := root
		for _, s := range segs[:len(segs)-1] {
			if n.children == nil {
				n.children = map[string]*fmNode{}
			}
			if n.children[s] == nil {
				n.children[s] = &fmNode{}
			}
			n = n.children[s]
		}
		if n.renames == nil {
			n.renames = map[string]string{}
		}
		n.renames[segs[len(segs)-1]] = dst
	}
	out, _, err := root.apply(args, "")
	return out, err
}

// fmNode holds the renames for one object level and the levels below it,
// keyed by the (pre-rename) key that leads there.
type fmNode struct {
	renames  map[string]string
	children map[string]*fmNode
}

func (n *fmNode) apply(obj map[string]any, path string) (map[string]any, bool, error) {
	res, changed := obj, false
	for _, k := range slices.Sorted(maps.Keys(n.children)) {
		v, ok := obj[k]
		if !ok {
			continue
		}
		nv, ch, err := n.children[k].applyValue(v, path+"/"+escape(k))
		if err != nil {
			return nil, false, err
		}
		if ch {
			if !changed {
				res, changed = maps.Clone(obj), true
			}
			res[k] = nv
		}
	}
	hit := false
	for k := range n.renames {
		if _, ok := res[k]; ok && n.renames[k] != k {
			hit = true
		}
	}
	if !hit {
		return res, changed, nil
	}
	out := make(map[string]any, len(res))
	from := map[string]string{}
	for _, k := range slices.Sorted(maps.Keys(res)) {
		if _, ok := n.renames[k]; !ok {
			out[k], from[k] = res[k], k
		}
	}
	for _, k := range slices.Sorted(maps.Keys(res)) {
		t, ok := n.renames[k]
		if !ok {
			continue
		}
		if prev, ok := from[t]; ok {
			if prev == t {
				return nil, false, &Error{Transformer: "fieldMap", Path: path + "/" + escape(k), Msg: msgFieldMapCollision(k, t)}
			}
			return nil, false, &Error{Transformer: "fieldMap", Path: path + "/" + escape(k), Msg: msgBothGiven(k, prev, t)}
		}
		out[t], from[t] = res[k], k
	}
	return out, true, nil
}

func (n *fmNode) applyValue(v any, path string) (any, bool, error) {
	switch x := v.(type) {
	case map[string]any:
		return n.apply(x, path)
	case []any:
		var res []any
		for i, e := range x {
			ne, ch, err := n.applyValue(e, path+"/"+strconv.Itoa(i))
			if err != nil {
				return nil, false, err
			}
			if ch {
				if res == nil {
					res = slices.Clone(x)
				}
				res[i] = ne
			}
		}
		if res != nil {
			return res, true, nil
		}
	}
	return v, false, nil
}
