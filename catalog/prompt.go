package catalog

import (
	"fmt"
	"strings"
)

// Every string the model reads lives here, pinned by testdata/*.golden.
// Changing one changes agent behaviour: update the goldens with
// `go test ./catalog -run Golden -update` and review the diff.

const catalogIntro = `## Tool catalog
These tools exist but are not loaded. To use one, call loadTools with exact names from this catalog (tool, kind.tool or server.tool); they become callable on your next step. Load several at once when the task needs them. Never say a capability is missing before checking this catalog: searchTools finds tools by what they do.
`

// catalogNamesOnly is added when the budget forced some kinds to names.
const catalogNamesOnly = "Some kinds are listed by name only; searchTools returns their descriptions.\n"

// kindHeader opens a kind in one-line form.
func kindHeader(kind string, servers []string) string {
	return fmt.Sprintf("%s (servers: %s):\n", kind, strings.Join(servers, ", "))
}

// toolLine is one tool in one-line form.
func toolLine(tool, line string) string { return fmt.Sprintf("- %s: %s\n", tool, line) }

// kindNames is a kind in name-list form.
func kindNames(kind string, servers []string, tools []string, more int) string {
	srv := servers[0]
	label := "server"
	if len(servers) > 1 {
		srv, label = fmt.Sprint(len(servers)), "servers"
	}
	var head string
	if label == "server" {
		head = fmt.Sprintf("%s (server %s): ", kind, srv)
	} else {
		head = fmt.Sprintf("%s (%s %s): ", kind, srv, label)
	}
	list := strings.Join(tools, ", ")
	if more > 0 {
		if list != "" {
			list += ", "
		}
		list += fmt.Sprintf("… and %d more; use searchTools", more)
	}
	return head + list + "\n"
}

func loadAmbiguous(name string, kinds, options []string) string {
	return fmt.Sprintf("%s is in kinds %s: use %s", name, joinAnd(kinds, "and"), joinAnd(options, "or"))
}

func loadUnknown(name string, nearest []string) string {
	if len(nearest) == 0 {
		return fmt.Sprintf("%s: no such tool; use searchTools to find tools by what they do", name)
	}
	return fmt.Sprintf("%s: no such tool; nearest: %s", name, strings.Join(nearest, ", "))
}

func loadErrorText(problems []string) string {
	if len(problems) == 1 {
		return "loadTools: " + problems[0]
	}
	return fmt.Sprintf("loadTools: %d names failed:\n- %s", len(problems), strings.Join(problems, "\n- "))
}

// gateText words a GateError. The not_permitted text is the one
// mcpfleet.RejectError.ModelText gives that reason, word for word (pinned
// by the root's TestGateReasons), since the gateway shows both.
func gateText(e *GateError) string {
	switch {
	case e.Reason == ReasonNotPermitted:
		return fmt.Sprintf("call to %s.%s rejected (%s): the caller is not permitted to use this tool.\n- at tool: It needs scope %s.\nDo not retry; use a tool you are permitted to use.",
			e.Server, e.Tool, e.Reason, strings.Join(e.Needs, ", "))
	case e.Reason == ReasonNotLoaded && e.KindName != "":
		return fmt.Sprintf("tool %s is not loaded on server %s: call loadTools with [%q] (or %q for every %s server), then call it on your next step",
			e.Tool, e.Server, e.Server+"."+e.Tool, e.KindName, e.Kind)
	case e.Reason == ReasonNotLoaded:
		return fmt.Sprintf("tool %s is not loaded on server %s: call loadTools with [%q], then call it on your next step",
			e.Tool, e.Server, e.Server+"."+e.Tool)
	case e.Reason == ReasonNotInSession:
		return fmt.Sprintf("tool %s on server %s is not available in this session", e.Tool, e.Server)
	case e.MetaTools:
		return fmt.Sprintf("no tool %s on server %s: use searchTools to find the right tool, then loadTools", e.Tool, e.Server)
	default:
		return fmt.Sprintf("no tool %s on server %s in this session", e.Tool, e.Server)
	}
}

func sessionUnknownServers(unknown, valid []string) string {
	return fmt.Sprintf("unknown servers %s (valid servers: %s)", strings.Join(unknown, ", "), strings.Join(valid, ", "))
}

func sessionBadMode(m string) string {
	return fmt.Sprintf("invalid mode %q (want on, off, auto, auto:N%% with 0 < N <= 100, or auto:N with N > 0 tokens)", m)
}

// joinAnd joins "a", "b", "c" as "a, b and c".
func joinAnd(s []string, conj string) string {
	switch len(s) {
	case 0:
		return ""
	case 1:
		return s[0]
	}
	return strings.Join(s[:len(s)-1], ", ") + " " + conj + " " + s[len(s)-1]
}

// ToolDescription is the description an adapter gives a tool the model
// can call: the server's description, then the kind's avoid_when hint
// (Entry.AvoidWhen). A hint seen once in a search result is forgotten by
// the step that picks between near twins; in the description it is in
// view on every step.
func ToolDescription(desc, avoidWhen string) string {
	avoidWhen = strings.TrimSpace(avoidWhen)
	if avoidWhen == "" {
		return desc
	}
	d := strings.TrimRight(desc, " \t\r\n")
	if d == "" {
		return "Avoid when: " + avoidWhen
	}
	return d + "\n\nAvoid when: " + avoidWhen
}
