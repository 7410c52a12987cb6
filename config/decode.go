package config

import (
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"
)

// decoder turns the parsed file (maps, lists and scalars) into a Fleet.
// It is written by hand rather than using koanf's mapstructure unmarshal for
// three reasons: an unknown key must be a problem, not silently dropped; a
// wrong type must name the field and go on, so every problem is listed; and a
// type error must never quote the value, which may be a secret.
type decoder struct {
	problems []Problem
}

func (d *decoder) add(p Problem) { d.problems = append(d.problems, p) }

var durationType = reflect.TypeFor[time.Duration]()

// keysOf lists the koanf keys of a struct type, in field order.
func keysOf(t reflect.Type) []string {
	var keys []string
	for f := range t.Fields() {
		if k := f.Tag.Get("koanf"); k != "" && k != "-" {
			keys = append(keys, k)
		}
	}
	return keys
}

// fieldByKey finds the struct field whose koanf tag is key.
func fieldByKey(v reflect.Value, key string) (reflect.Value, bool) {
	t := v.Type()
	for i := range t.NumField() {
		if t.Field(i).Tag.Get("koanf") == key {
			return v.Field(i), true
		}
	}
	return reflect.Value{}, false
}

// asMap accepts both map shapes a YAML decoder produces.
func asMap(raw any) (map[string]any, bool) {
	switch m := raw.(type) {
	case map[string]any:
		return m, true
	case map[any]any:
		out := make(map[string]any, len(m))
		for k, v := range m {
			out[fmt.Sprint(k)] = v
		}
		return out, true
	}
	return nil, false
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// decodeStruct fills dst (a struct) from raw, reporting unknown keys.
func (d *decoder) decodeStruct(loc string, raw map[string]any, dst reflect.Value) {
	known := keysOf(dst.Type())
	for _, key := range sortedKeys(raw) {
		field, ok := fieldByKey(dst, key)
		if !ok {
			d.add(Problem{Server: loc, Field: "key", Value: key,
				Want: "one of " + strings.Join(sortedCopy(known), ", "), Hint: suggest(key, known)})
			continue
		}
		d.decodeValue(loc, key, raw[key], field)
	}
}

func sortedCopy(s []string) []string {
	s = slices.Clone(s)
	slices.Sort(s)
	return s
}

// typeName describes a parsed value's shape for an error, never its content.
func typeName(raw any) string {
	switch raw.(type) {
	case string:
		return "a string"
	case bool:
		return "a boolean"
	case int, int64, uint64, float64:
		return "a number"
	case []any:
		return "a list"
	}
	if _, ok := asMap(raw); ok {
		return "a map"
	}
	return fmt.Sprintf("%T", raw)
}

// scalar converts a YAML/JSON scalar to text, so `PORT: 8080` is the string
// "8080" rather than an error.
func scalar(raw any) (string, bool) {
	switch v := raw.(type) {
	case string:
		return v, true
	case bool:
		return strconv.FormatBool(v), true
	case int:
		return strconv.Itoa(v), true
	case int64:
		return strconv.FormatInt(v, 10), true
	case uint64:
		return strconv.FormatUint(v, 10), true
	case float64:
		return strconv.FormatFloat(v, 'f', -1, 64), true
	case nil:
		return "", true
	}
	return "", false
}

func (d *decoder) decodeValue(loc, field string, raw any, dst reflect.Value) {
	if raw == nil {
		return // `key:` with no value leaves the zero value, like an absent key
	}
	wrongType := func(want string) {
		d.add(Problem{Server: loc, Field: field, Want: want + ", got " + typeName(raw)})
	}
	// badValue reports a value of the right shape but wrong content: a
	// scalar is quoted, anything else is named by its type.
	badValue := func(want string) {
		if s, isScalar := scalar(raw); isScalar {
			d.add(Problem{Server: loc, Field: field, Value: s, Want: want})
			return
		}
		wrongType(want)
	}
	switch {
	case dst.Type() == durationType:
		dur, ok := toDuration(raw)
		if !ok {
			badValue("a duration with a unit, like 30s or 2m")
			return
		}
		dst.SetInt(int64(dur))
	case dst.Kind() == reflect.String:
		s, ok := scalar(raw)
		if !ok {
			wrongType("a string")
			return
		}
		dst.SetString(s)
	case dst.Kind() == reflect.Pointer && dst.Type().Elem().Kind() == reflect.Bool:
		b, ok := toBool(raw)
		if !ok {
			badValue("true or false")
			return
		}
		dst.Set(reflect.ValueOf(&b))
	case dst.Kind() == reflect.Struct:
		m, ok := asMap(raw)
		if !ok {
			wrongType("a map")
			return
		}
		sub := field
		if loc != "" {
			sub = loc + "." + field
		}
		d.decodeStruct(sub, m, dst)
	case dst.Kind() == reflect.Int || dst.Kind() == reflect.Int64:
		n, ok := toInt(raw)
		if !ok {
			badValue("a whole number")
			return
		}
		dst.SetInt(int64(n))
	case dst.Kind() == reflect.Slice && dst.Type().Elem().Kind() == reflect.String:
		list, ok := d.stringList(loc, field, raw)
		if ok {
			dst.Set(reflect.ValueOf(list))
		}
	case dst.Kind() == reflect.Slice && dst.Type().Elem().Kind() == reflect.Struct:
		items, ok := raw.([]any)
		if !ok {
			wrongType("a list of servers")
			return
		}
		out := reflect.MakeSlice(dst.Type(), len(items), len(items))
		for i, item := range items {
			m, ok := asMap(item)
			if !ok {
				d.add(Problem{Field: fmt.Sprintf("%s[%d]", field, i), Want: "a map, got " + typeName(item)})
				continue
			}
			d.decodeStruct(serverLoc(i, m["name"]), m, out.Index(i))
		}
		dst.Set(out)
	case dst.Kind() == reflect.Map:
		d.decodeMap(loc, field, raw, dst)
	default:
		panic("config: no decoder for " + dst.Type().String()) // programmer error: a new field type
	}
}

func (d *decoder) stringList(loc, field string, raw any) ([]string, bool) {
	items, ok := raw.([]any)
	if !ok {
		d.add(Problem{Server: loc, Field: field, Want: "a list of strings, got " + typeName(raw)})
		return nil, false
	}
	out := make([]string, 0, len(items))
	for i, item := range items {
		s, ok := scalar(item)
		if !ok {
			d.add(Problem{Server: loc, Field: fmt.Sprintf("%s[%d]", field, i), Want: "a string, got " + typeName(item)})
			continue
		}
		out = append(out, s)
	}
	return out, true
}

func (d *decoder) decodeMap(loc, field string, raw any, dst reflect.Value) {
	m, ok := asMap(raw)
	if !ok {
		d.add(Problem{Server: loc, Field: field, Want: "a map, got " + typeName(raw)})
		return
	}
	t := dst.Type()
	out := reflect.MakeMapWithSize(t, len(m))
	for _, k := range sortedKeys(m) {
		elem := reflect.New(t.Elem()).Elem()
		sub := field + "." + k
		switch t.Elem().Kind() {
		case reflect.String:
			s, ok := scalar(m[k])
			if !ok {
				d.add(Problem{Server: loc, Field: sub, Want: "a string, got " + typeName(m[k])})
				continue
			}
			elem.SetString(s)
		case reflect.Slice:
			if m[k] == nil {
				break
			}
			list, ok := d.stringList(loc, sub, m[k])
			if !ok {
				continue
			}
			elem.Set(reflect.ValueOf(list))
		case reflect.Struct:
			// kind_settings.<kind>, cache.kinds.<kind>, …
			eloc := field + "." + k
			if loc != "" {
				eloc = loc + "." + eloc
			}
			km, ok := asMap(m[k])
			if m[k] != nil && !ok {
				d.add(Problem{Server: eloc, Field: field, Want: "a map, got " + typeName(m[k])})
				continue
			}
			d.decodeStruct(eloc, km, elem)
		default:
			panic("config: no decoder for " + t.String())
		}
		out.SetMapIndex(reflect.ValueOf(k), elem)
	}
	dst.Set(out)
}

// serverLoc names a server by index and, when it has one, name.
func serverLoc(i int, name any) string {
	if s, ok := scalar(name); ok && s != "" {
		return fmt.Sprintf("servers[%d] (%s)", i, s)
	}
	return fmt.Sprintf("servers[%d]", i)
}

// toDuration reads "30s", or a bare integer of nanoseconds as encoding/json
// writes a time.Duration. A bare integer under a millisecond is refused: it
// is far more likely `call_timeout: 30` missing its unit than 30ns.
func toDuration(raw any) (time.Duration, bool) {
	if s, ok := raw.(string); ok {
		dur, err := time.ParseDuration(strings.TrimSpace(s))
		return dur, err == nil
	}
	n, ok := toInt(raw)
	if !ok || (n != 0 && n > -int(time.Millisecond) && n < int(time.Millisecond)) {
		return 0, false
	}
	return time.Duration(n), true
}

// toBool reads a boolean, or its text as an environment override gives it
// ("false", "0", "true").
func toBool(raw any) (bool, bool) {
	switch v := raw.(type) {
	case bool:
		return v, true
	case string:
		b, err := strconv.ParseBool(strings.TrimSpace(v))
		return b, err == nil
	}
	return false, false
}

func toInt(raw any) (int, bool) {
	switch v := raw.(type) {
	case int:
		return v, true
	case int64:
		return int(v), true
	case uint64:
		if v > math.MaxInt64 {
			return 0, false
		}
		return int(v), true
	case float64:
		if v != math.Trunc(v) || v >= math.MaxInt64 || v < math.MinInt64 {
			return 0, false
		}
		return int(v), true
	case string:
		n, err := strconv.Atoi(strings.TrimSpace(v))
		return n, err == nil
	}
	return 0, false
}
