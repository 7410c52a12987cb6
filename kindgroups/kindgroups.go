package kindgroups

import (
	"bytes"
	"encoding/json"
	"slices"
	"sort"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
)

// Server is one server's tool list. Kind empty means the server's own name.
type Server struct {
	Name  string
	Kind  string
	Tools []mcp.Tool
	// Info and Instructions are what the server said of itself at
	// initialize (serverInfo, instructions). Folding ignores them; search
	// reads them as words of the kind.
	Info         mcp.Implementation
	Instructions string
}

// KindOf returns the kind a server folds into.
func (s Server) KindOf() string {
	if s.Kind == "" {
		return s.Name
	}
	return s.Kind
}

// Group is one kind: its servers and the deduplicated union of their tools.
type Group struct {
	Kind    string
	Servers []string // sorted
	Tools   []string // sorted, unique tool names across Servers
	// ToolServers maps each tool name to the sorted servers that have it.
	// A read-only instance lacks the write tools its sibling has.
	ToolServers map[string][]string
	// Drift lists tools whose input schema differs between servers.
	Drift []Drift
}

// Drift is a tool name that has more than one input schema within a kind.
type Drift struct {
	Tool string
	// Variants groups servers by identical schema, largest group first.
	Variants [][]string
}

// HasDrift reports whether tool has drifted in g.
func (g Group) HasDrift(tool string) bool {
	for _, d := range g.Drift {
		if d.Tool == tool {
			return true
		}
	}
	return false
}

// Fold groups servers by kind. Groups are sorted by kind name; a server
// listed twice is folded once, with its last tool list.
func Fold(servers []Server) []Group {
	byKind := map[string]map[string][]mcp.Tool{}
	for _, s := range servers {
		k := s.KindOf()
		if byKind[k] == nil {
			byKind[k] = map[string][]mcp.Tool{}
		}
		byKind[k][s.Name] = s.Tools
	}
	kinds := make([]string, 0, len(byKind))
	for k := range byKind {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	groups := make([]Group, 0, len(kinds))
	for _, k := range kinds {
		groups = append(groups, fold(k, byKind[k]))
	}
	return groups
}

func fold(kind string, servers map[string][]mcp.Tool) Group {
	g := Group{Kind: kind, ToolServers: map[string][]string{}}
	// schemas[tool] lists the distinct canonical schemas and who has each.
	type variant struct {
		schema  string
		servers []string
	}
	schemas := map[string][]*variant{}
	for name := range servers {
		g.Servers = append(g.Servers, name)
	}
	sort.Strings(g.Servers)
	for _, srv := range g.Servers {
		for _, t := range servers[srv] {
			if slices.Contains(g.ToolServers[t.Name], srv) {
				continue // a server listing a name twice is the server's problem
			}
			g.ToolServers[t.Name] = append(g.ToolServers[t.Name], srv)
			c := Canonical(SchemaOf(t))
			found := false
			for _, v := range schemas[t.Name] {
				if v.schema == c {
					v.servers = append(v.servers, srv)
					found = true
					break
				}
			}
			if !found {
				schemas[t.Name] = append(schemas[t.Name], &variant{schema: c, servers: []string{srv}})
			}
		}
	}
	for name := range g.ToolServers {
		g.Tools = append(g.Tools, name)
	}
	sort.Strings(g.Tools)
	for _, name := range g.Tools {
		vs := schemas[name]
		if len(vs) < 2 {
			continue
		}
		d := Drift{Tool: name}
		for _, v := range vs {
			d.Variants = append(d.Variants, v.servers)
		}
		sort.SliceStable(d.Variants, func(i, j int) bool {
			if len(d.Variants[i]) != len(d.Variants[j]) {
				return len(d.Variants[i]) > len(d.Variants[j])
			}
			return d.Variants[i][0] < d.Variants[j][0]
		})
		g.Drift = append(g.Drift, d)
	}
	return g
}

// SchemaOf returns a tool's input schema as JSON, preferring the raw schema
// the server sent.
func SchemaOf(t mcp.Tool) json.RawMessage {
	if len(t.RawInputSchema) > 0 {
		return t.RawInputSchema
	}
	b, err := json.Marshal(t.InputSchema)
	if err != nil {
		return nil
	}
	return b
}

// Canonical returns a key-sorted, whitespace-free form of a JSON document, so
// that two schemas that differ only in key order or spacing compare equal.
// Invalid JSON is returned as-is, trimmed.
func Canonical(raw json.RawMessage) string {
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return string(bytes.TrimSpace(raw))
	}
	b, _ := json.Marshal(v) // maps marshal with sorted keys
	return string(b)
}

// Overview renders the orchestrator's view: one line per kind, listing its
// servers. It names no tools.
func Overview(groups []Group) string {
	var b strings.Builder
	for _, g := range groups {
		b.WriteString(g.Kind)
		b.WriteString(": ")
		b.WriteString(strings.Join(g.Servers, ", "))
		b.WriteByte('\n')
	}
	return b.String()
}

// Lookup returns the group of kind k.
func Lookup(groups []Group, kind string) (Group, bool) {
	i := sort.Search(len(groups), func(i int) bool { return groups[i].Kind >= kind })
	if i < len(groups) && groups[i].Kind == kind {
		return groups[i], true
	}
	return Group{}, false
}
