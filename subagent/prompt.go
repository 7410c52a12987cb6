package subagent

import (
	"errors"
	"fmt"
	"strings"

	"github.com/mcpfleet/mcpfleet/catalog"
)

// Model-facing text of the subagent. Changing it changes what models read.

const defaultInstruction = "You are a focused operations subagent. Use the tools to gather facts for the task, then answer concisely with the evidence (names, values, times). If a tool result says REJECTED or ERROR, fix the call or try another tool; do not repeat a failing call unchanged."

// slicePrompt names the slice's servers and their kinds, says once which
// servers' tools wait in the catalog (whose block says how to load them),
// and explains the "server" argument only when a kind has two servers or
// more, the only case in which tools take one.
func slicePrompt(servers []string, kindOf func(string) string, preloaded func(string) bool, catalog bool) string {
	parts := make([]string, len(servers))
	var later []string
	perKind := map[string]int{}
	shared := false
	for i, s := range servers {
		k := kindOf(s)
		parts[i] = fmt.Sprintf("%s (%s)", s, k)
		perKind[k]++
		shared = shared || perKind[k] > 1
		if !preloaded(s) {
			later = append(later, s)
		}
	}
	out := "Your servers: " + strings.Join(parts, ", ") + "."
	if len(later) > 0 {
		whose := later[0]
		if n := len(later); n > 1 {
			whose = strings.Join(later[:n-1], ", ") + " and " + later[n-1]
		}
		how := "find them with searchTools, then loadTools"
		if catalog {
			how = "load them from the catalog below"
		}
		out += " The tools of " + whose + " are not preloaded: " + how + "."
	}
	if shared {
		out += " Tools taking a \"server\" argument reach every listed server of their kind."
	}
	return out
}

// catalogPrompt frames the deferred catalog. The catalog's block already
// says the tools are not loaded and how to load and search them, so a
// block that does gets no second preamble (it cost ~35 tokens per subagent).
func catalogPrompt(block string) string {
	if strings.Contains(block, LoadToolsName) {
		return block
	}
	return "Other tools exist but are not loaded. Call loadTools with their names to use them from your next step on; call searchTools to find tools by what they do.\n\n" + block
}

const lockdownText = "Step limit reached: answer now from what you have. No more tool calls."

const noAnswerText = "(no answer: the step limit was reached before the subagent answered)"

const loadToolsDesc = "Load tools from the catalog so you can call them from your next step on. Names are tool names, kind.tool, or server.tool."

const searchToolsDesc = "Search every tool you may load by what it does. Returns names to pass to loadTools."

func loadText(res catalog.LoadResult, names map[string]string, err error) string {
	var b strings.Builder
	if len(res.Loaded) > 0 {
		fmt.Fprintf(&b, "Loaded: %s. Call them from your next step on.", strings.Join(display(res.Loaded, names), ", "))
	}
	if len(res.AlreadyActive) > 0 {
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		fmt.Fprintf(&b, "Already loaded: %s.", strings.Join(display(res.AlreadyActive, names), ", "))
	}
	if err != nil {
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(err.Error())
	}
	if b.Len() == 0 {
		return "loadTools: no names given; pass {\"names\": [\"tool\"]}."
	}
	return b.String()
}

// display shows each loaded name with the tool name the model calls, when they differ.
func display(loaded []string, names map[string]string) []string {
	out := make([]string, len(loaded))
	for i, n := range loaded {
		out[i] = n
		if call, ok := names[n]; ok && call != n {
			out[i] = fmt.Sprintf("%s (call it as %s)", n, call)
		}
	}
	return out
}

func searchText(hits []catalog.Hit, callName func(catalog.Hit) string) string {
	if len(hits) == 0 {
		return "searchTools: nothing matched; try other words."
	}
	var b strings.Builder
	for _, h := range hits {
		state := "not loaded"
		if h.Loaded {
			state = "loaded"
		}
		fmt.Fprintf(&b, "- %s [%s; servers %s; %s]: %s\n", callName(h), h.Kind, strings.Join(h.Servers, ", "), state, h.Line)
		if h.AvoidWhen != "" {
			fmt.Fprintf(&b, "  avoid when: %s\n", h.AvoidWhen)
		}
	}
	return b.String()
}

func unknownToolText(name string, meta bool) string {
	if meta {
		return fmt.Sprintf("REJECTED %s: no such tool. Use searchTools to find the right tool, then loadTools.", name)
	}
	return fmt.Sprintf("REJECTED %s: no such tool in this session.", name)
}

func toolLimitText(held, asked int) string {
	return fmt.Sprintf("REJECTED loadTools: you hold %d tools and asked for %d more; one agent holds at most %d. Load at most %d names, the ones the task needs now.",
		held, asked, MaxTools, max(0, MaxTools-held))
}

// gateRefusal words a refusal by the session's gate: the gate's own model
// text, after the marker every refusal the model reads starts with.
func gateRefusal(err error) string {
	var ge *catalog.GateError
	if errors.As(err, &ge) {
		return "REJECTED (the server was not called): " + ge.ModelText()
	}
	return "REJECTED (the server was not called): " + err.Error()
}

// danglingText answers, in history, a tool call whose run ended before it returned.
func danglingText(name string) string {
	return fmt.Sprintf("ERROR %s: no result; the run that made this call ended before it returned.", name)
}
