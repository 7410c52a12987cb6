package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpfleet/mcpfleet/kindgroups"
)

// ToolDef is one (server, tool) with its full definition, as `tools --json`
// prints it.
type ToolDef struct {
	Server      string             `json:"server"`
	Kind        string             `json:"kind"`
	Name        string             `json:"name"`
	Title       string             `json:"title,omitempty"`
	Description string             `json:"description"`
	InputSchema json.RawMessage    `json:"inputSchema"`
	Annotations mcp.ToolAnnotation `json:"annotations"`
}

func runTools(ctx context.Context, env []string, stdin io.Reader, stdout, stderr io.Writer, args []string) error {
	fs, c := newFlagSet("tools", "--config FILE [--server S] [--json]", env, stderr)
	asJSON := fs.Bool("json", false, "print every (server, tool) with its full definition")
	only := fs.String("server", "", "list only this `server`'s tools, in its order")
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageErrorf("tools takes no arguments, got %q", fs.Args())
	}
	mx, err := connect(ctx, c, stderr)
	if err != nil {
		return err
	}
	defer mx.Close()
	servers := mx.Servers()
	if *only != "" {
		if _, err := mx.Tools(*only); err != nil {
			return err // a RejectError naming the nearest server
		}
		servers = slices.DeleteFunc(servers, func(s kindgroups.Server) bool { return s.Name != *only })
	}
	defs := []ToolDef{}
	for _, s := range servers {
		for _, t := range s.Tools {
			defs = append(defs, ToolDef{Server: s.Name, Kind: s.KindOf(), Name: t.Name, Title: t.Title,
				Description: t.Description, InputSchema: kindgroups.SchemaOf(t), Annotations: t.Annotations})
		}
	}
	return emit(stdout, *asJSON, defs, func(w io.Writer) {
		if *only != "" {
			writeServerTools(w, defs)
		} else {
			writeKindTools(w, defs, kindgroups.Fold(servers))
		}
	})
}

// writeServerTools lists one server's tools in the server's order.
func writeServerTools(w io.Writer, defs []ToolDef) {
	if len(defs) == 0 {
		return
	}
	fmt.Fprintf(w, "%s (kind %s): %d tools\n", defs[0].Server, defs[0].Kind, len(defs))
	width := 0
	for _, d := range defs {
		width = max(width, len(d.Name))
	}
	for _, d := range defs {
		fmt.Fprintf(w, "  %-*s  %s\n", width, d.Name, firstLine(d.Description))
	}
}

// writeKindTools lists tools once per kind; a tool that only some servers
// of its kind have is marked with those servers.
func writeKindTools(w io.Writer, defs []ToolDef, groups []kindgroups.Group) {
	desc := map[string]string{} // kind.tool -> description of the first server
	for _, d := range defs {
		if _, ok := desc[d.Kind+"."+d.Name]; !ok {
			desc[d.Kind+"."+d.Name] = d.Description
		}
	}
	for i, g := range groups {
		if i > 0 {
			fmt.Fprintln(w)
		}
		fmt.Fprintf(w, "%s (%s): %d tools\n", g.Kind, strings.Join(g.Servers, ", "), len(g.Tools))
		width := 0
		for _, t := range g.Tools {
			width = max(width, len(t))
		}
		for _, t := range g.Tools {
			line := firstLine(desc[g.Kind+"."+t])
			if srv := g.ToolServers[t]; len(srv) != len(g.Servers) {
				line = "[only " + strings.Join(srv, ", ") + "] " + line
			}
			if g.HasDrift(t) {
				line = "[schema differs between servers] " + line
			}
			fmt.Fprintf(w, "  %-*s  %s\n", width, t, line)
		}
	}
}

// firstLine is the first non-empty line of a description, cut at 160
// runes so one verbose tool cannot swamp the listing.
func firstLine(s string) string {
	for l := range strings.SplitSeq(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			if r := []rune(l); len(r) > 160 {
				return string(r[:159]) + "…"
			}
			return l
		}
	}
	return ""
}
