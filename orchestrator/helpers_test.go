package orchestrator_test

import (
	"sync/atomic"
	"testing"

	"github.com/mcpfleet/mcpfleet"
	"github.com/mcpfleet/mcpfleet/internal/agenttest"
	"github.com/mcpfleet/mcpfleet/internal/tokens"
	"github.com/mcpfleet/mcpfleet/subagent"
)

// The shared test fleet lives in internal/agenttest; these short names keep
// the tests readable.
type srv = agenttest.Server

func newFleet(t testing.TB, servers ...srv) (*mcpfleet.Mux, map[string]*atomic.Int64) {
	t.Helper()
	return agenttest.NewFleet(t, nil, servers...)
}

var (
	builtins    = agenttest.Builtins()
	kindTools   = agenttest.KindTools
	foldedNames = agenttest.FoldedNames
	sorted      = agenttest.Sorted
	fleet23     = agenttest.Fleet23
)

func countTokens(s string) int { return tokens.Count(s) }

func subagentCfg() subagent.Config { return subagent.Config{Mode: "on", MaxSteps: 6} }
