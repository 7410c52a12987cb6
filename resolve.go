package mcpfleet

import (
	"fmt"
	"strings"
)

func (m *Mux) resolveServer(server, tool string) (*serverConn, error) {
	sc, ok := m.servers[server]
	if !ok {
		p := Problem{Path: "server", Got: fmt.Sprintf("%q", brief(server)), Want: "one of " + strings.Join(m.names, ", ")}
		if n := nearest(server, m.names); n != "" {
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
