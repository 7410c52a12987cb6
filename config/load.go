package config

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"

	"github.com/knadh/koanf/parsers/json"
	"github.com/knadh/koanf/parsers/yaml"
)

// LoadOptions are the inputs of [LoadWith] and [LoadBytesWith] besides the
// file itself. The zero value reads the process environment, as [Load] does.
type LoadOptions struct {
	// Environ is the environment in os.Environ's "KEY=value" form: it
	// supplies the MCPFLEET_* overrides and, unless LookupEnv is set, the
	// ${VAR} values. nil means the process environment; an empty non-nil
	// slice means no environment at all (as with os/exec's Cmd.Env). When a
	// key repeats, the last entry wins.
	Environ []string
	// LookupEnv resolves ${VAR}, e.g. from a secret store. nil means look
	// the name up in Environ.
	LookupEnv func(name string) (string, bool)
	// Transformers are accepted transformer names besides
	// [BuiltinTransformers]: those registered with the multiplexer.
	Transformers []string
}

// environ returns the override source and the ${VAR} lookup.
func (o LoadOptions) environ() (func() []string, func(string) (string, bool)) {
	if o.Environ == nil {
		lookup := o.LookupEnv
		if lookup == nil {
			lookup = os.LookupEnv
		}
		return os.Environ, lookup
	}
	env := slices.Clone(o.Environ) // the caller may change its slice later
	lookup := o.LookupEnv
	if lookup == nil {
		vars := make(map[string]string, len(env))
		for _, kv := range env {
			if k, v, ok := strings.Cut(kv, "="); ok {
				vars[k] = v
			}
		}
		lookup = func(name string) (string, bool) { v, ok := vars[name]; return v, ok }
	}
	return func() []string { return env }, lookup
}

// Load reads the fleet file at path (.yaml, .yml or .json), applies
// MCPFLEET_* overrides from the process environment, expands ${VAR},
// resolves relative paths against the file's folder, fills defaults and
// validates. A transformer name that is a misspelling of one of
// [BuiltinTransformers] or extraTransformers is refused with the nearest;
// any other name is taken as a custom transformer, which mcpfleet.New
// checks against the transformers registered with it. So a custom
// transformer is named once, in WithArgsTransformer; extraTransformers
// also accepts names that look like a built-in's misspelling. It is
// [LoadWith] with only Transformers set.
//
// The error is a *[ParseError] when the file is not valid YAML or JSON, a
// *[ValidationError] listing every problem, or an I/O error from reading.
func Load(path string, extraTransformers ...string) (*Fleet, error) {
	return LoadWith(path, LoadOptions{Transformers: extraTransformers})
}

// LoadWith is [Load] with the environment and the extra transformer names
// given by o, so a CLI, a test or an embedding program decides what the
// file may read.
func LoadWith(path string, o LoadOptions) (*Fleet, error) {
	var format string
	switch strings.ToLower(filepath.Ext(path)) {
	case ".yaml", ".yml":
		format = "yaml"
	case ".json":
		format = "json"
	default:
		return nil, &ParseError{Path: path, Format: filepath.Ext(path),
			Err: errors.New("unknown file extension, want .yaml, .yml or .json")}
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("config: %w", err)
	}
	dir, err := filepath.Abs(filepath.Dir(path))
	if err != nil {
		return nil, fmt.Errorf("config: %w", err)
	}
	environ, lookup := o.environ()
	f, err := load(data, format, dir, environ, lookup, o.Transformers)
	var pe *ParseError
	if errors.As(err, &pe) {
		pe.Path = path
	}
	if f != nil {
		f.Path, _ = filepath.Abs(path)
	}
	return f, err
}

// LoadBytes is [Load] for a file already in memory: format is "yaml" or
// "json", and dir is the folder relative paths resolve against ("" leaves
// them as written). Environment overrides and ${VAR} apply as in Load.
func LoadBytes(data []byte, format string, dir string, extraTransformers ...string) (*Fleet, error) {
	return LoadBytesWith(data, format, dir, LoadOptions{Transformers: extraTransformers})
}

// LoadBytesWith is [LoadBytes] with the environment and the extra
// transformer names given by o.
func LoadBytesWith(data []byte, format string, dir string, o LoadOptions) (*Fleet, error) {
	environ, lookup := o.environ()
	return load(data, format, dir, environ, lookup, o.Transformers)
}

func load(data []byte, format, dir string, environ func() []string,
	lookup func(string) (string, bool), extra []string) (*Fleet, error) {
	var raw map[string]any
	var err error
	switch strings.ToLower(format) {
	case "yaml", "yml":
		format = "yaml"
		raw, err = yaml.Parser().Unmarshal(data)
	case "json":
		format = "json"
		raw, err = json.Parser().Unmarshal(data)
	default:
		return nil, &ParseError{Format: format, Err: errors.New("unknown format, want yaml or json")}
	}
	if err != nil {
		return nil, &ParseError{Format: format, Err: err}
	}
	if raw == nil {
		raw = map[string]any{}
	}

	over, envProblems := envOverrides(raw, environ)
	mergeEnv(raw, over)

	var f Fleet
	d := &decoder{problems: envProblems}
	d.decodeStruct("", raw, reflect.ValueOf(&f).Elem())
	f.Dir = dir
	for i := range f.Servers {
		expandServer(&f.Servers[i], lookup)
		resolvePaths(&f.Servers[i], dir)
	}
	f.ResultStore.Spill.resolve(dir, lookup)
	f.Store.Redis.URL = expand(f.Store.Redis.URL, lookup)
	f.Store.Redis.KeyPrefix = expand(f.Store.Redis.KeyPrefix, lookup)
	f.applyDefaults()

	problems := d.problems
	problems = append(problems, zeroDurations(raw)...)
	if p, ok := f.Search.loadRerankWeights(dir, lookup); !ok {
		problems = append(problems, p)
	}
	problems = append(problems, f.loadLock(dir, lookup)...)
	if p, ok := f.Audit.resolve(dir, lookup); !ok {
		problems = append(problems, p)
	}
	var verr *ValidationError
	if err := f.Validate(f.loaderTransformers(append(BuiltinTransformers(), extra...))); errors.As(err, &verr) {
		problems = append(problems, verr.Problems...)
	}
	if len(problems) > 0 {
		return nil, &ValidationError{Problems: problems}
	}
	return &f, nil
}

// zeroDurations reports TTLs and timeouts written as zero. Left out, they
// take their default; written as 0 they would mean "expire at once" or
// "never expire" depending on the reader, so the file must say which
// duration it means. Validate cannot tell a written 0 from an absent key,
// hence this check on the parsed file.
func zeroDurations(raw map[string]any) []Problem {
	var out []Problem
	check := func(loc string, m map[string]any, key, def string) {
		v, ok := m[key]
		if !ok || v == nil {
			return
		}
		if d, ok := toDuration(v); ok && d == 0 {
			s, _ := scalar(v)
			out = append(out, Problem{Server: loc, Field: key, Value: s, Want: "a duration > 0 (leave it out for " + def + ")"})
		}
	}
	if rs, ok := asMap(raw["result_store"]); ok {
		check("result_store", rs, "ttl", "1h")
	}
	if st, ok := asMap(raw["store"]); ok {
		if r, ok := asMap(st["redis"]); ok {
			check("store.redis", r, "timeout", DefaultRedisTimeout.String())
		}
	}
	return out
}

// applyDefaults fills zero fields. Negative values are left for Validate
// to report rather than quietly replaced.
func (f *Fleet) applyDefaults() {
	if f.DeferredTools == "" {
		f.DeferredTools = DefaultDeferredTools
	}
	if f.Store.Backend == StoreRedis { // "" is memory, and memory has nothing to default
		if f.Store.Redis.KeyPrefix == "" {
			f.Store.Redis.KeyPrefix = DefaultRedisKeyPrefix
		}
		if f.Store.Redis.Timeout == 0 {
			f.Store.Redis.Timeout = DefaultRedisTimeout
		}
	}
	for i := range f.Servers {
		s := &f.Servers[i]
		s.Transport = s.effectiveTransport()
		if s.CallTimeout == 0 {
			s.CallTimeout = DefaultCallTimeout
		}
		if s.ConnectTimeout == 0 {
			s.ConnectTimeout = DefaultConnectTimeout
		}
		if s.MaxInFlight == 0 && f.Reliability.MaxInFlight > 0 { // a negative one is Validate's to report, once
			s.MaxInFlight = f.Reliability.MaxInFlight
		}
		if s.MaxInFlight == 0 {
			s.MaxInFlight = DefaultMaxInFlight
		}
	}
}

// effectiveTransport is Transport, or the one implied by command or url.
func (s Server) effectiveTransport() string {
	switch {
	case s.Transport != "":
		return s.Transport
	case s.Command != "":
		return TransportStdio
	case s.URL != "":
		return TransportHTTP
	}
	return ""
}
