package eino

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/cloudwego/eino/schema"
	"github.com/eino-contrib/jsonschema"
)

// ServerParam is the name of the parameter a kind-folded tool adds to pick
// the server. It is required and its enum lists only servers that have the tool.
const ServerParam = "server"

// ToolInfo turns an MCP tool schema into an eino ToolInfo without loss: the raw
// schema is decoded into eino's own jsonschema type (ordered properties, enums,
// nested objects, unknown keywords kept in Extras) rather than eino's simpler
// ParameterInfo, which cannot express everything MCP servers send.
func ToolInfo(name, desc string, raw json.RawMessage) (*schema.ToolInfo, error) {
	s, err := decodeSchema(raw)
	if err != nil {
		return nil, fmt.Errorf("eino: tool %s: %w", name, err)
	}
	return &schema.ToolInfo{Name: name, Desc: desc, ParamsOneOf: schema.NewParamsOneOfByJSONSchema(s)}, nil
}

func decodeSchema(raw json.RawMessage) (*jsonschema.Schema, error) {
	s := &jsonschema.Schema{}
	if len(raw) == 0 {
		raw = json.RawMessage(`{"type":"object"}`)
	}
	if err := json.Unmarshal(raw, s); err != nil {
		return nil, fmt.Errorf("input schema: %w", err)
	}
	restore(raw, s)
	if s.Type == "" && s.Properties == nil && len(s.TypeEnhanced) == 0 {
		s.Type = "object"
	}
	return s, nil
}

// withServer returns a copy of base with a required "server" string
// property whose enum is servers, placed first so the model picks the target
// before the arguments. base is shared (see Cache) and is not modified: the
// copy gets its own property list and required slice, and shares the
// property schemas.
func withServer(base *jsonschema.Schema, kind string, servers []string) *jsonschema.Schema {
	s := *base
	enum := make([]any, len(servers))
	for i, v := range servers {
		enum[i] = v
	}
	props := jsonschema.NewProperties()
	props.Set(ServerParam, &jsonschema.Schema{Type: "string", Enum: enum, Description: serverParamDesc(kind)})
	if base.Properties != nil {
		for p := base.Properties.Oldest(); p != nil; p = p.Next() {
			if p.Key == ServerParam {
				continue
			}
			props.Set(p.Key, p.Value)
		}
	}
	s.Properties = props
	if s.Type == "" {
		s.Type = "object"
	}
	s.Required = append([]string{ServerParam}, slices.DeleteFunc(slices.Clone(base.Required), func(r string) bool { return r == ServerParam })...)
	return &s
}
