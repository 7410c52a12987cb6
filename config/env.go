package config

import (
	"os"
	"reflect"
	"slices"
	"strings"

	"github.com/knadh/koanf/providers/env/v2"
)

// EnvPrefix starts every environment override.
const EnvPrefix = "MCPFLEET_"

// envOverrides reads MCPFLEET_* variables into a nested map shaped like the
// file, using names from raw to address servers and kinds. Variables
// under SERVERS__ or KIND_SETTINGS__ that address nothing are problems; other
// MCPFLEET_ names are left alone, since the CLI may use that prefix too.
func envOverrides(raw map[string]any, environ func() []string) (map[string]any, []Problem) {
	servers := rawServerNames(raw)
	kinds := rawKindNames(raw)
	// kindOf names the kind an env segment stands for, as under
	// KIND_SETTINGS__: a map keyed by kind (cache.kinds, rate_limits.kinds)
	// takes it.
	kindOf := func(seg string) string {
		if kind, ok := matchName(seg, kinds); ok {
			return kind
		}
		return strings.ToLower(seg) // Validate names an unknown kind
	}
	sections := envSections()
	var problems []Problem
	transform := func(name, value string) (string, any) {
		segs := strings.Split(strings.TrimPrefix(name, EnvPrefix), "__")
		top := strings.ToLower(segs[0])
		bad := func(got, want, hint string) (string, any) {
			problems = append(problems, Problem{Field: name, Value: got, Want: want, Hint: hint})
			return "", nil
		}
		switch {
		case (top == "deferred_tools" || top == "neutralize") && len(segs) == 1:
			return top, value
		case sections[top] != nil && len(segs) == 1:
			return bad("", "a key after "+segs[0]+"__, e.g. "+name+"__"+envSectionExamples()[top], "")
		case sections[top] != nil:
			return envField(sections[top], []string{top}, segs[1:], value, kindOf, bad)
		case (top == "servers" || top == "kind_settings") && len(segs) == 2:
			example := map[string]string{"servers": "URL", "kind_settings": "JOIN_SEPARATOR"}[top]
			return bad("", "a key after "+segs[1]+"__, e.g. "+name+"__"+example, "")
		case top == "servers" && len(segs) >= 3:
			server, ok := matchName(segs[1], servers)
			if !ok {
				return bad(segs[1], "the name of a server in the file: "+strings.Join(servers, ", "), suggest(segs[1], servers))
			}
			return envField(reflect.TypeFor[Server](), []string{"servers", server}, segs[2:], value, kindOf, bad)
		case top == "kind_settings" && len(segs) >= 3:
			// A new kind's settings are created; Validate checks some
			// server has the kind.
			return envField(reflect.TypeFor[KindSettings](), []string{"kind_settings", kindOf(segs[1])}, segs[2:], value, kindOf, bad)
		}
		return "", nil
	}
	if environ == nil {
		environ = os.Environ
	}
	m, _ := env.Provider(".", env.Opt{Prefix: EnvPrefix, TransformFunc: transform, EnvironFunc: environ}).Read()
	// The environment's order is arbitrary; sort so the error text is stable.
	slices.SortStableFunc(problems, func(a, b Problem) int { return strings.Compare(a.Field, b.Field) })
	return m, problems
}

// envSections returns the top-level sections an override addresses by
// their own keys, and envSectionExamples a key of each for error text.
func envSections() map[string]reflect.Type {
	return map[string]reflect.Type{
		"reliability":    reflect.TypeFor[Reliability](),
		"result_store":   reflect.TypeFor[ResultStore](),
		"search":         reflect.TypeFor[Search](),
		"store":          reflect.TypeFor[Store](),
		"telemetry":      reflect.TypeFor[Telemetry](),
		"audit":          reflect.TypeFor[Audit](),
		"cache":          reflect.TypeFor[Cache](),
		"rate_limits":    reflect.TypeFor[RateLimits](),
		"request_limits": reflect.TypeFor[RequestLimits](),
	}
}

func envSectionExamples() map[string]string {
	return map[string]string{
		"reliability": "QUEUE_TIMEOUT", "result_store": "TTL", "search": "LEXICON", "store": "BACKEND",
		"telemetry": "TRACES", "audit": "PATH", "cache": "KINDS__KUBERNETES__TTL",
		"rate_limits": "ON_STORE_ERROR", "request_limits": "BODY_BYTES",
	}
}

// envField maps the segments after a section, server or kind to a key
// path. Keys are lowercased, but a map entry's key keeps its case
// (FIELD_MAP__podName). A map of structs is keyed by kind (cache.kinds,
// rate_limits.kinds): kindOf names the kind of its segment. Lists are
// comma-separated.
func envField(t reflect.Type, path, segs []string, value string, kindOf func(string) string,
	bad func(got, want, hint string) (string, any)) (string, any) {
	key := strings.ToLower(segs[0])
	known := keysOf(t)
	f, ok := fieldByKey(reflect.New(t).Elem(), key)
	if !ok {
		return bad(segs[0], "one of "+strings.Join(sortedCopy(known), ", "), suggest(key, known))
	}
	path = append(path, key)
	ft := f.Type()
	if ft.Kind() == reflect.Struct { // reliability's breaker: one more level
		if len(segs) < 2 {
			return bad("", "a key after "+strings.ToUpper(key)+"__, one of "+strings.Join(sortedCopy(keysOf(ft)), ", "), "")
		}
		return envField(ft, path, segs[1:], value, kindOf, bad)
	}
	if ft.Kind() == reflect.Map && ft.Elem().Kind() == reflect.Struct { // cache.kinds.<kind>.ttl
		if len(segs) < 3 || segs[1] == "" {
			return bad("", strings.ToUpper(key)+"__<KIND>__<KEY>, one of "+strings.Join(sortedCopy(keysOf(ft.Elem())), ", ")+" for a kind", "")
		}
		return envField(ft.Elem(), append(path, kindOf(segs[1])), segs[2:], value, kindOf, bad)
	}
	if ft.Kind() == reflect.Map {
		if len(segs) != 2 || segs[1] == "" {
			return bad("", key+"__<KEY> naming one entry of the map", "")
		}
		path = append(path, segs[1])
		ft = ft.Elem()
	} else if len(segs) != 1 {
		return bad("", "no __ after "+strings.ToUpper(key), "")
	}
	if ft.Kind() == reflect.Slice {
		items := []any{}
		for item := range strings.SplitSeq(value, ",") {
			if item = strings.TrimSpace(item); item != "" {
				items = append(items, item)
			}
		}
		return strings.Join(path, "."), items
	}
	return strings.Join(path, "."), value
}

// matchName finds the name an env segment stands for: case-insensitive,
// with '_' matching '-', because env names cannot hold '-'.
func matchName(seg string, names []string) (string, bool) {
	norm := func(s string) string { return strings.ReplaceAll(strings.ToLower(s), "-", "_") }
	for _, n := range names {
		if norm(n) == norm(seg) {
			return n, true
		}
	}
	return "", false
}

func rawServerNames(raw map[string]any) []string {
	var names []string
	list, _ := raw["servers"].([]any)
	for _, item := range list {
		m, _ := asMap(item)
		if s, ok := scalar(m["name"]); ok && s != "" && !slices.Contains(names, s) {
			names = append(names, s)
		}
	}
	return names
}

func rawKindNames(raw map[string]any) []string {
	ks, _ := asMap(raw["kind_settings"])
	names := sortedKeys(ks)
	list, _ := raw["servers"].([]any)
	for _, item := range list {
		m, _ := asMap(item)
		for _, key := range []string{"kind", "name"} {
			if s, ok := scalar(m[key]); ok && s != "" {
				names = append(names, s)
				break
			}
		}
	}
	return names
}

// mergeEnv lays the env overrides over the parsed file.
func mergeEnv(raw, over map[string]any) {
	for _, key := range []string{"deferred_tools", "neutralize"} {
		if v, ok := over[key]; ok {
			raw[key] = v
		}
	}
	for _, key := range append([]string{"kind_settings"}, sortedKeys(envSections())...) {
		o, ok := asMap(over[key])
		if !ok {
			continue
		}
		dst, isMap := asMap(raw[key])
		if raw[key] == nil {
			dst, isMap = map[string]any{}, true
		}
		if isMap { // a non-map is reported by the decoder
			deepMerge(dst, o)
			raw[key] = dst
		}
	}
	if srv, ok := asMap(over["servers"]); ok {
		list, _ := raw["servers"].([]any)
		for i, item := range list {
			m, ok := asMap(item)
			if !ok {
				continue
			}
			name, _ := scalar(m["name"])
			if o, ok := asMap(srv[name]); ok && name != "" {
				deepMerge(m, o)
				list[i] = m
			}
		}
	}
}

func deepMerge(dst, src map[string]any) {
	for k, v := range src {
		sm, srcIsMap := v.(map[string]any)
		dm, dstIsMap := asMap(dst[k])
		if srcIsMap && dstIsMap {
			deepMerge(dm, sm)
			dst[k] = dm
			continue
		}
		dst[k] = v
	}
}
