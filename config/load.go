package config

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"

	"github.com/knadh/koanf/parsers/json"
	"github.com/knadh/koanf/parsers/yaml"
)

// Load reads the fleet file at path (.yaml, .yml or .json), applies
// MCPFLEET_* environment overrides, expands ${VAR}, resolves relative paths
// against the file's folder, fills defaults and validates. Transformer names
// are checked against [BuiltinTransformers] plus extraTransformers.
//
// The error is a *[ParseError] when the file is not valid YAML or JSON, a
// *[ValidationError] listing every problem, or an I/O error from reading.
func Load(path string, extraTransformers ...string) (*Fleet, error) {
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
	f, err := load(data, format, dir, os.Environ, os.LookupEnv, extraTransformers)
	var pe *ParseError
	if errors.As(err, &pe) {
		pe.Path = path
	}
	return f, err
}

// LoadBytes is [Load] for a file already in memory: format is "yaml" or
// "json", and dir is the folder relative paths resolve against ("" leaves
// them as written). Environment overrides and ${VAR} apply as in Load.
func LoadBytes(data []byte, format string, dir string, extraTransformers ...string) (*Fleet, error) {
	return load(data, format, dir, os.Environ, os.LookupEnv, extraTransformers)
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
	f.applyDefaults()

	problems := d.problems
	var verr *ValidationError
	if err := f.Validate(append(BuiltinTransformers(), extra...)); errors.As(err, &verr) {
		problems = append(problems, verr.Problems...)
	}
	if len(problems) > 0 {
		return nil, &ValidationError{Problems: problems}
	}
	return &f, nil
}

// applyDefaults fills zero fields. Negative values are left for Validate
// to report rather than quietly replaced.
func (f *Fleet) applyDefaults() {
	if f.DeferredTools == "" {
		f.DeferredTools = DefaultDeferredTools
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
