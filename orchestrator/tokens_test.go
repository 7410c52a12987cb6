package orchestrator_test

import (
	"github.com/mcpfleet/mcpfleet/internal/tokens"
	"github.com/mcpfleet/mcpfleet/subagent"
)

func countTokens(s string) int { return tokens.Count(s) }

func subagentCfg() subagent.Config { return subagent.Config{Mode: "on", MaxSteps: 6} }
