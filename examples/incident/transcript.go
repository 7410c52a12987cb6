package main

import (
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"strings"
	"time"

	"github.com/cloudwego/eino/schema"

	mcpeino "github.com/mcpfleet/mcpfleet/adapters/eino"
	"github.com/mcpfleet/mcpfleet/orchestrator"
)

// toolLine is one tool call as the transcript shows it.
type toolLine struct {
	Server   string        `json:"server,omitempty"`
	Tool     string        `json:"tool"`
	Status   string        `json:"status"`
	Detail   string        `json:"detail,omitempty"`
	Repairs  []string      `json:"repairs,omitempty"`
	Args     string        `json:"args,omitempty"`
	Note     string        `json:"note,omitempty"`
	Duration time.Duration `json:"duration_ns,omitempty"`
}

// subagentView is one subagent as the transcript shows it.
type subagentView struct {
	Name    string     `json:"name"`
	Spawn   int        `json:"spawn"`
	Task    string     `json:"task"`
	Servers []string   `json:"servers"`
	Lines   []toolLine `json:"calls"`
	Answer  string     `json:"answer"`
	Error   string     `json:"error,omitempty"`
	Loaded  []string   `json:"loaded,omitempty"`
	// Offloaded names the handles of results kept out of the context.
	Offloaded []string      `json:"offloaded,omitempty"`
	Duration  time.Duration `json:"duration_ns"`
	// ModelCalls are the tool names the subagent's model saw on each call.
	ModelTools [][]string `json:"model_tools"`
}

var offloadNote = regexp.MustCompile(`too large for the context \(([^)]*)\)\. It is stored as (\S+?)\.\n`)

// subagentViews merges each subagent's report (statuses, durations,
// repairs) with its model's message log (the order of every tool call,
// meta-tools included).
func (b *bot) subagentViews(tr *orchestrator.Trace) []subagentView {
	used := map[*subagentLog]bool{}
	var out []subagentView
	for _, st := range tr.Subagents {
		v := subagentView{Spawn: st.Spawn, Task: st.Task, Servers: st.Servers, Error: st.Error}
		var calls []mcpeino.CallRecord
		if st.Report != nil {
			v.Name, v.Answer, v.Loaded, v.Duration = st.Report.Name, st.Report.Answer, st.Report.Loaded, st.Report.Duration
			calls = st.Report.Calls
		}
		taken := make([]bool, len(calls))
		log := b.logFor(st.Task, st.Servers, used)
		var msgs []*schema.Message
		if log != nil {
			mc := log.rec.Calls()
			for _, c := range mc {
				v.ModelTools = append(v.ModelTools, c.Tools)
			}
			if n := len(mc); n > 0 {
				msgs = mc[n-1].Messages
				if mc[n-1].Reply != nil {
					msgs = append(msgs, mc[n-1].Reply)
				}
			}
		}
		results := map[string]string{}
		for _, m := range msgs {
			if m.Role == schema.Tool {
				results[m.ToolCallID] = m.Content
			}
		}
		for _, m := range msgs {
			for _, tc := range m.ToolCalls {
				i := -1
				for j, c := range calls {
					if !taken[j] && c.Name == tc.Function.Name {
						i = j
						break
					}
				}
				if i < 0 {
					v.Lines = append(v.Lines, metaLine(tc, results[tc.ID]))
					continue
				}
				taken[i] = true
				c := calls[i]
				l := toolLine{Server: c.Server, Tool: c.Tool, Status: c.Status, Detail: c.Detail, Repairs: c.Repairs,
					Args: tc.Function.Arguments, Duration: c.Duration}
				if m := offloadNote.FindStringSubmatch(c.Text); m != nil {
					l.Note = "offloaded (" + m[1] + ") as " + m[2]
					v.Offloaded = append(v.Offloaded, m[2])
				}
				v.Lines = append(v.Lines, l)
			}
		}
		out = append(out, v)
	}
	return out
}

// metaLine renders a call of loadTools, searchTools or any tool that is not
// a fleet tool.
func metaLine(tc schema.ToolCall, result string) toolLine {
	status := "ok"
	if strings.HasPrefix(result, "REJECTED") {
		status = "rejected"
	}
	first, _, _ := strings.Cut(result, "\n")
	return toolLine{Tool: tc.Function.Name, Status: status, Args: tc.Function.Arguments, Note: clipText(first, 110)}
}

func clipText(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// writeTranscript prints the run: the orchestrator's steps, each subagent
// indented under the step that spawned it.
func writeTranscript(w io.Writer, st style, modelName string, orch []modelCall, subs []subagentView) {
	fmt.Fprintf(w, "%s %s\n", st.bold("orchestrator"), st.dim("("+modelName+"; tools: "+strings.Join(uniqueTools(orch), ", ")+")"))
	spawn := 0
	for _, c := range orch {
		if c.Reply == nil {
			continue
		}
		if c.Reply.Content != "" && len(c.Reply.ToolCalls) > 0 {
			fmt.Fprintf(w, "  %s %s\n", st.dim("thinks:"), c.Reply.Content)
		}
		for _, tc := range c.Reply.ToolCalls {
			spawn++
			var in struct{ Tasks []orchestrator.Task }
			_ = json.Unmarshal([]byte(tc.Function.Arguments), &in)
			fmt.Fprintf(w, "  %s %s: %d subagent(s)\n", st.cyan("→"), tc.Function.Name, len(in.Tasks))
			for _, s := range subs {
				if s.Spawn == spawn {
					writeSubagent(w, st, s)
				}
			}
		}
	}
}

func writeSubagent(w io.Writer, st style, s subagentView) {
	fmt.Fprintf(w, "    %s [%s] %s\n", st.bold(s.Name), strings.Join(s.Servers, ", "), st.dim(s.Duration.Round(time.Millisecond).String()))
	fmt.Fprintf(w, "      %s %s\n", st.dim("task:"), s.Task)
	for _, l := range s.Lines {
		target := l.Tool
		if l.Server != "" {
			target = l.Server + " " + l.Tool
		}
		extra := ""
		if len(l.Repairs) > 0 {
			extra = " (" + strings.Join(l.Repairs, ", ") + ")"
		}
		if l.Detail != "" && l.Status != "ok" && l.Status != "repaired" {
			extra += " (" + l.Detail + ")"
		}
		dur := ""
		if l.Duration > 0 {
			dur = l.Duration.Round(100 * time.Microsecond).String()
		}
		fmt.Fprintf(w, "      %-44s %-9s %8s%s\n", target, st.status(l.Status), dur, extra)
		if l.Note != "" {
			fmt.Fprintf(w, "        %s %s\n", st.dim("↳"), st.dim(l.Note))
		}
	}
	if s.Error != "" {
		fmt.Fprintf(w, "      %s %s\n", st.red("failed:"), s.Error)
	}
	for _, line := range strings.Split(s.Answer, "\n") {
		fmt.Fprintf(w, "      %s %s\n", st.green("│"), line)
	}
}

func uniqueTools(calls []modelCall) []string {
	var out []string
	seen := map[string]bool{}
	for _, c := range calls {
		for _, t := range c.Tools {
			if !seen[t] {
				seen[t] = true
				out = append(out, t)
			}
		}
	}
	return out
}
