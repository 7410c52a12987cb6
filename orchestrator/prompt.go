package orchestrator

import (
	"fmt"
	"strings"
)

// Model-facing text of the orchestrator. Changing it changes what models read.

const defaultFraming = "You coordinate investigations across a fleet of tool servers. You cannot call their tools yourself: call spawnSubagents with focused tasks, each naming the 1 to %d servers it needs (servers of one kind are interchangeable instances, e.g. clusters). Subagents run in parallel and report back. Then answer the question from their reports."

func systemPrompt(framing string, maxServers int, overview string) string {
	if framing == "" {
		framing = fmt.Sprintf(defaultFraming, maxServers)
	}
	return framing + "\n\nServers by kind:\n" + overview
}

const spawnDesc = "Run subagents in parallel, each on a task with the servers it needs. Returns each subagent's answer."

const nameParamDesc = "Optional short name for the subagent, e.g. triage; reports are headed by it"

// reportHeader heads one subagent's section; a name the planner gave leads,
// the default "subagent-N" is shown as "subagent N".
func reportHeader(i int, name string, servers []string, task string) string {
	if name != "" && name != fmt.Sprintf("subagent-%d", i+1) {
		return fmt.Sprintf("## %s (subagent %d; servers: %s)\ntask: %s\n", name, i+1, strings.Join(servers, ", "), task)
	}
	return fmt.Sprintf("## subagent %d (servers: %s)\ntask: %s\n", i+1, strings.Join(servers, ", "), task)
}

func failedText(err error) string { return "FAILED: " + err.Error() + "\n" }

// timedOutText heads a timed-out section; it promises partial findings only
// when some follow.
func timedOutText(d string, partial bool) string {
	if !partial {
		return "TIMED OUT after " + d + " with no findings.\n"
	}
	return "TIMED OUT after " + d + "; partial findings below may be incomplete.\n"
}

const trimmedMark = " …[trimmed]"
