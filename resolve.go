package mcpfleet

import (
	"fmt"
	"strings"

	"github.com/mcpfleet/mcpfleet/internal/textdist"
)

// Stage 1 of CallTool: names to a connected server and one of its tools.
// Unknown names are rejected with the nearest valid one.

func (m *Mux) resolveServer(server, tool string) (*serverConn, error) {
	sc, ok := m.servers[server]
	if !ok {
		p := Problem{Path: "server", Got: fmt.Sprintf("%q", brief(server)), Want: "one of " + strings.Join(m.names, ", ")}
		if n := textdist.NearestPart(server, m.names); n != "" {
			p.Hint = fmt.Sprintf("Did you mean %q?", n)
		}
		return nil, reject(server, tool, ReasonUnknownServer, p)
	}
	return sc, nil
}

func serverDown(server, tool string, state State, lastErr string) *RejectError {
	why := lastErr
	if why == "" {
		why = string(state)
	}
	return reject(server, tool, ReasonServerDown, Problem{Path: "server", Got: fmt.Sprintf("%q, which is %s", server, state), Hint: "Last error: " + strings.TrimSuffix(brief(why), ".")})
}

func resolveTool(sc *serverConn, tool string) (*toolEntry, error) {
	te := sc.tool(tool)
	if te == nil {
		if is := sc.quarantine(tool); is != nil {
			return nil, reject(sc.name, tool, ReasonQuarantined, Problem{Path: "tool", Hint: pinReason(is)})
		}
		names := sc.toolNames()
		p := Problem{Path: "tool", Got: fmt.Sprintf("%q", brief(tool)), Want: fmt.Sprintf("a tool of %s (%d tools)", sc.name, len(names))}
		if n := textdist.NearestPart(tool, names); n != "" {
			p.Hint = fmt.Sprintf("Did you mean %q?", n)
		}
		return nil, reject(sc.name, tool, ReasonUnknownTool, p)
	}
	return te, nil
}
