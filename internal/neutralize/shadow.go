package neutralize

import (
	"regexp"
	"strings"
)

// otherBehaviour claims that this tool changes how another one works:
// "this tool has a side effect on the send_email tool", "it modifies the
// behaviour of post_note". A tool's effects are its own; one that reaches
// into another tool's is shadowing it. Group 1 or 2 is the other tool; a
// sibling passes.
var otherBehaviour = regexp.MustCompile(`(?i)\bside[\s-]effects?\s+on\s+(?:the\s+)?[\x60'"]?([\w-]+)[\x60'"]?\s+(?:tool|function)\b|\b(?:changes|modifies|alters|overrides)\s+(?:the\s+)?behaviou?r\s+of\s+(?:the\s+)?[\x60'"]?([\w-]*_[\w-]*)[\x60'"]?`)

// otherBehaviours reports each claim of otherBehaviour about a tool that
// is not a sibling.
func otherBehaviours(s, folded string, siblings map[string]bool, add func(Rule, int, int)) {
	if !strings.Contains(folded, "side effect") && !strings.Contains(folded, "side-effect") && !strings.Contains(folded, "behavio") {
		return
	}
	for _, m := range otherBehaviour.FindAllStringSubmatchIndex(s, -1) {
		name := group(s, m, 1)
		if name == "" {
			name = group(s, m, 2)
		}
		if siblings[name] {
			continue
		}
		add(RuleToolReference, m[0], m[1])
	}
}
