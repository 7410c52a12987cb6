package eino

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"slices"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpfleet/mcpfleet/kindgroups"
)

// Spec describes one model-facing tool built from fleet tools.
type Spec struct {
	// Name is the name the model sees (see Fold for the naming rule).
	Name string `json:"name"`
	// Kind and Tool name the MCP tool.
	Kind string `json:"kind"`
	Tool string `json:"tool"`
	// Servers offer the tool. With ServerArg they form the enum of the
	// "server" parameter; without it there is exactly one.
	Servers   []string `json:"servers"`
	ServerArg bool     `json:"server_arg"`
	// Desc and Schema come from the MCP definition (Schema without "server").
	Desc   string          `json:"-"`
	Schema json.RawMessage `json:"-"`
}

// Drift reports a tool whose schema differs between servers of one kind;
// such a tool is not folded but offered per server.
type Drift struct {
	Kind     string     `json:"kind"`
	Tool     string     `json:"tool"`
	Variants [][]string `json:"variants"`
}

// Plan is the folded tool set of a fleet.
type Plan struct {
	Specs []Spec  `json:"specs"`
	Drift []Drift `json:"drift,omitempty"`
}

// Lookup finds a spec by model-facing name.
func (p Plan) Lookup(name string) (Spec, bool) {
	for _, s := range p.Specs {
		if s.Name == name {
			return s, true
		}
	}
	return Spec{}, false
}

// ByTool finds the spec that serves kind.tool on server.
func (p Plan) ByTool(kind, tool, server string) (Spec, bool) {
	for _, s := range p.Specs {
		if s.Kind == kind && s.Tool == tool && slices.Contains(s.Servers, server) {
			return s, true
		}
	}
	return Spec{}, false
}

// Fold builds one tool per (kind, tool name) over groups.
//
// Naming rule, chosen so names stay stable while tools load mid-run:
//   - a tool name used by one kind only keeps its MCP name ("pods_list");
//   - a tool name used by several kinds becomes "kind__tool"
//     ("gitlab__get_file_contents", "github__get_file_contents");
//   - a tool whose schema drifts between servers of its kind is offered once
//     per server as "server__tool", without a server parameter.
//
// Every folded tool gets a required "server" parameter, even when the kind has
// one server: one calling convention for every tool, and loadTools can widen
// the enum to a sibling server later without renaming the tool. The cost is a
// few tokens per tool.
//
// def returns the MCP definition a server lists for a tool.
func Fold(groups []kindgroups.Group, def func(server, tool string) (mcp.Tool, bool)) Plan {
	kindsOf := map[string]int{}
	for _, g := range groups {
		for _, t := range g.Tools {
			kindsOf[t]++
		}
	}
	var p Plan
	for _, g := range groups {
		for _, name := range g.Tools {
			servers := g.ToolServers[name]
			if d, ok := driftOf(g, name); ok {
				p.Drift = append(p.Drift, Drift{Kind: g.Kind, Tool: name, Variants: d.Variants})
				for _, srv := range servers {
					t, _ := def(srv, name)
					p.Specs = append(p.Specs, Spec{Name: sanitize(srv + "__" + name), Kind: g.Kind, Tool: name,
						Servers: []string{srv}, Desc: driftDesc(srv, t.Description), Schema: kindgroups.SchemaOf(t)})
				}
				continue
			}
			t, _ := def(servers[0], name)
			n := name
			if kindsOf[name] > 1 {
				n = g.Kind + "__" + name
			}
			p.Specs = append(p.Specs, Spec{Name: sanitize(n), Kind: g.Kind, Tool: name, Servers: slices.Clone(servers),
				ServerArg: true, Desc: t.Description, Schema: kindgroups.SchemaOf(t)})
		}
	}
	uniqueNames(p.Specs)
	return p
}

// uniqueNames keeps names distinct after sanitize: a name that repeats an
// earlier one (two long names cut to the same 64 characters, or names that
// differ only in characters sanitize replaced) gets a short hash of what it
// stands for, within 64 characters.
func uniqueNames(specs []Spec) {
	seen := make(map[string]bool, len(specs))
	for i := range specs {
		n := specs[i].Name
		if seen[n] {
			sum := sha256.Sum256([]byte(specs[i].Kind + "\x00" + specs[i].Tool + "\x00" + strings.Join(specs[i].Servers, "\x00")))
			suffix := "_" + hex.EncodeToString(sum[:4])
			n = n[:min(len(n), maxNameLen-len(suffix))] + suffix
			specs[i].Name = n
		}
		seen[n] = true
	}
}

func driftOf(g kindgroups.Group, tool string) (kindgroups.Drift, bool) {
	for _, d := range g.Drift {
		if d.Tool == tool {
			return d, true
		}
	}
	return kindgroups.Drift{}, false
}

// maxNameLen is the longest tool name the common model APIs accept.
const maxNameLen = 64

// sanitize keeps names within what OpenAI-style APIs accept: [A-Za-z0-9_-]{1,64}.
func sanitize(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r == '_' || r == '-' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	out := b.String()
	if len(out) > maxNameLen {
		out = out[:maxNameLen]
	}
	return out
}
