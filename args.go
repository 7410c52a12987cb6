package mcpfleet

import (
	"bytes"
	"context"
	"encoding/json"
	"reflect"
	"slices"

	"github.com/mcpfleet/mcpfleet/config"
	"github.com/mcpfleet/mcpfleet/normalizers"
)

func decodeArgs(raw json.RawMessage) (map[string]any, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return map[string]any{}, nil
	}
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return nil, err
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return nil, &notObjectError{jsonKind(v)}
	}
	return obj, nil
}

type notObjectError struct{ kind string }

func (e *notObjectError) Error() string { return "got a JSON " + e.kind }

func jsonKind(v any) string {
	switch v.(type) {
	case []any:
		return "array"
	case string:
		return "string"
	case float64:
		return "number"
	case bool:
		return "boolean"
	}
	return "value"
}

// normalizeSettings is one server's argument handling, merged from its
// kind's settings and its own (see config.Fleet.Transformers, FieldMap).
type normalizeSettings struct {
	names        []string
	transformers []normalizers.Transformer
	fieldMap     map[string]string
	// separator is the configured join/split separator, or "" so that each
	// transformer applies its own default (join: a space; split: commas and
	// whitespace).
	separator  string
	allowAll   bool
	allowTools map[string]bool // tools where placeholders are real values
	// accept holds the server's argument acceptors, compiled once per
	// tool schema; it rides here because this is the one per-server value
	// the call path already holds.
	accept *acceptors
}

func resolveNormalize(cfg *config.Fleet, reg map[string]normalizers.Transformer, s config.Server) normalizeSettings {
	kind := cfg.Settings(s.KindName())
	n := normalizeSettings{fieldMap: cfg.FieldMap(s.Name), separator: s.JoinSeparator, allowTools: map[string]bool{},
		accept: &acceptors{}}
	if n.separator == "" {
		n.separator = kind.JoinSeparator
	}
	for _, name := range cfg.Transformers(s.Name) {
		if fn := reg[name]; fn != nil { // Validate refused unknown names at New
			n.names = append(n.names, name)
			n.transformers = append(n.transformers, fn)
		}
	}
	for _, t := range slices.Concat(s.AllowPlaceholders, kind.AllowPlaceholders) {
		n.allowAll = n.allowAll || t == "*"
		n.allowTools[t] = true
	}
	return n
}

// normalize runs the server's transformers one at a time, recording which
// of them changed anything, then its field map.
func (m *Mux) normalize(ctx context.Context, n *normalizeSettings, c *Call, schema map[string]any, args map[string]any) (map[string]any, error) {
	call := normalizers.Call{Server: c.Server, Kind: c.Kind, Tool: c.Tool, Schema: schema, Separator: n.separator}
	for i, fn := range n.transformers {
		call.Args = args
		out, err := fn(ctx, call)
		if err != nil {
			return nil, err
		}
		if out != nil && !reflect.DeepEqual(out, args) {
			c.Repairs = append(c.Repairs, n.names[i])
			args = out
		}
	}
	if len(n.fieldMap) > 0 {
		out, err := normalizers.ApplyFieldMap(args, n.fieldMap)
		if err != nil {
			return nil, err
		}
		if !reflect.DeepEqual(out, args) {
			c.Repairs = append(c.Repairs, "field_map")
			args = out
		}
	}
	return args, nil
}

func (n *normalizeSettings) allowsPlaceholders(tool string) bool {
	return n.allowAll || n.allowTools[tool]
}
