package mcpfleet

import (
	"fmt"
	"sort"
	"strings"
)

// ToolProblem is something wrong with a tool as its server declared it.
// Problems are reported, never repaired silently: a tool listed twice keeps
// its first definition, a tool whose schema does not compile cannot be
// called (tool_unusable), and an oddly named tool stays callable under its
// exact name.
type ToolProblem struct {
	Server  string `json:"server"`
	Tool    string `json:"tool"`
	Problem string `json:"problem"`
}

// Problems lists what is wrong with the tools of every up server, sorted by
// server, tool and problem. It compiles every schema it has not compiled
// yet, so the first call costs what the first call of each tool would.
func (m *Mux) Problems() []ToolProblem {
	var out []ToolProblem
	for _, name := range m.names {
		sc := m.servers[name]
		sc.mu.RLock()
		out = append(out, sc.problems...)
		entries := make([]*toolEntry, 0, len(sc.order))
		for _, t := range sc.order {
			entries = append(entries, sc.tools[t.Name])
		}
		sc.mu.RUnlock()
		for _, te := range entries {
			if _, _, err := te.compiled(name); err != nil {
				out = append(out, ToolProblem{Server: name, Tool: te.def.Name, Problem: "unusable: " + brief(err.Error())})
			}
		}
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Server != b.Server {
			return a.Server < b.Server
		}
		if a.Tool != b.Tool {
			return a.Tool < b.Tool
		}
		return a.Problem < b.Problem
	})
	return out
}

// maxToolName is the MCP spec's limit on tool names.
const maxToolName = 128

// nameProblems checks one tool name against the MCP spec's rule: 1–128 of
// A-Z a-z 0-9 _ - . Anything else may confuse a model or an adapter that
// builds names like server__tool.
func nameProblems(name string) string {
	switch {
	case name == "":
		return "empty tool name"
	case len(name) > maxToolName:
		return fmt.Sprintf("tool name is %d bytes, over the spec's %d", len(name), maxToolName)
	}
	for _, r := range name {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-' || r == '.') {
			return fmt.Sprintf("tool name has the character %q; the spec allows A-Z a-z 0-9 _ - .", r)
		}
	}
	return ""
}

// listProblems finds duplicate, case-colliding and oddly named tools.
func listProblems(server string, names []string) []ToolProblem {
	var out []ToolProblem
	seen := map[string]bool{}
	folded := map[string]string{}
	for _, n := range names {
		if seen[n] {
			out = append(out, ToolProblem{server, n, "listed twice; the first definition is used"})
			continue
		}
		seen[n] = true
		if p := nameProblems(n); p != "" {
			out = append(out, ToolProblem{server, n, p})
		}
		low := strings.ToLower(n)
		if other, ok := folded[low]; ok {
			out = append(out, ToolProblem{server, n, fmt.Sprintf("differs from %q only in case", other)})
			continue
		}
		folded[low] = n
	}
	return out
}
