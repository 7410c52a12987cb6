package presets

import (
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"

	"github.com/knadh/koanf/parsers/yaml"

	"github.com/mcpfleet/mcpfleet/config"
)

//go:embed *.yaml
var files embed.FS

// Preset is what is true of one public server.
type Preset struct {
	// Name is the file name without .yaml.
	Name string
	// ServerInfo are the serverInfo names the server reports.
	ServerInfo []string
	// Tools are the server's tool names across its toolsets: the
	// fingerprint.
	Tools []string
	// Settings are written as a fleet file's kind_settings.<kind>.
	Settings config.KindSettings
}

// LoadError is a preset file that does not parse; Field names the key.
type LoadError struct {
	File, Field, Problem string
}

func (e *LoadError) Error() string {
	if e.Field == "" {
		return fmt.Sprintf("presets: %s: %s", e.File, e.Problem)
	}
	return fmt.Sprintf("presets: %s: %s: %s", e.File, e.Field, e.Problem)
}

// All parses every embedded preset, sorted by name. Each call returns
// fresh values.
func All() ([]Preset, error) {
	names, err := fs.Glob(files, "*.yaml")
	if err != nil {
		return nil, err
	}
	out := make([]Preset, 0, len(names))
	for _, n := range names {
		b, err := files.ReadFile(n)
		if err != nil {
			return nil, err
		}
		p, err := Parse(strings.TrimSuffix(path.Base(n), ".yaml"), b)
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, nil
}

// Parse reads one preset file. Unknown keys and settings the fleet file
// would refuse are errors that name the field.
func Parse(name string, data []byte) (Preset, error) {
	file := name + ".yaml"
	raw, err := yaml.Parser().Unmarshal(data)
	if err != nil {
		return Preset{}, &LoadError{File: file, Problem: err.Error()}
	}
	p := Preset{Name: name}
	for k := range raw {
		if !slices.Contains([]string{"server_info", "tools", "settings"}, k) {
			return Preset{}, &LoadError{File: file, Field: k, Problem: "unknown key; want server_info, tools or settings"}
		}
	}
	if p.ServerInfo, err = stringList(raw["server_info"]); err != nil {
		return Preset{}, &LoadError{File: file, Field: "server_info", Problem: err.Error()}
	}
	if p.Tools, err = stringList(raw["tools"]); err != nil || len(p.Tools) == 0 {
		if err == nil {
			err = fmt.Errorf("want at least one tool name")
		}
		return Preset{}, &LoadError{File: file, Field: "tools", Problem: err.Error()}
	}
	settings, ok := raw["settings"].(map[string]any)
	if !ok {
		return Preset{}, &LoadError{File: file, Field: "settings", Problem: "want a mapping written as kind_settings.<kind>"}
	}
	// The fleet file's own decoder and checks, on a one-kind fleet.
	doc, err := json.Marshal(map[string]any{
		"servers":       []any{map[string]any{"name": name, "kind": name, "command": name}},
		"kind_settings": map[string]any{name: settings},
	})
	if err != nil {
		return Preset{}, &LoadError{File: file, Field: "settings", Problem: err.Error()}
	}
	f, err := config.LoadBytesWith(doc, "json", "", config.LoadOptions{Environ: []string{}})
	if err != nil {
		msg := strings.ReplaceAll(err.Error(), "kind_settings."+name+": ", "settings.")
		return Preset{}, &LoadError{File: file, Problem: msg}
	}
	p.Settings = f.KindSettings[name]
	return p, nil
}

func stringList(v any) ([]string, error) {
	if v == nil {
		return nil, nil
	}
	l, ok := v.([]any)
	if !ok {
		return nil, fmt.Errorf("want a list of strings, got %T", v)
	}
	out := make([]string, 0, len(l))
	for i, x := range l {
		s, ok := x.(string)
		if !ok || s == "" {
			return nil, fmt.Errorf("item %d: want a non-empty string", i)
		}
		out = append(out, s)
	}
	return out, nil
}
