package neutralize

import (
	"regexp"
	"strings"
)

// patterns are joined into one RE2 expression, so a text is scanned once
// whatever their number. Each alternative is a separate line for review.
var patterns = []string{
	// "Ignore (all) previous instructions" and its many paraphrases.
	`\b(?:ignore|disregard|forget|override|bypass|skip|drop)\s+(?:(?:all|any|the|your|my|of|these|those|everything|previous|prior|above|earlier|preceding|former|original|initial|system|safety)\s+){0,4}(?:instructions?|prompts?|rules|guidelines|directives|directions|guardrails|policies|context|messages)\b`,
	`\b(?:new|updated|real|actual|revised)\s+(?:system\s+)?(?:instructions?|directives?|prompt)\s*:`,
	`\byou\s+are\s+now\b`,
	`\bfrom\s+now\s+on,?\s+you\b`,
	`\b(?:developer|god|jailbreak|dan)\s+mode\b`,
	`\bdo\s+anything\s+now\b`,
	`\b(?:reveal|print|show|repeat|output)\s+(?:me\s+)?(?:your|the)\s+(?:system\s+)?(?:prompt|instructions)\b`,
	`\bsystem\s+(?:prompt|override|message)\s*:`,
	// Role and message tags: <system>, </tool_result>, <assistant name="x">.
	`</?\s*(?:system|assistant|user|human|developer|tool|tool_result|tool_results|tool_output|tool_call|tool_calls|tool_use|function_results?|function_calls?|function|instructions?|invoke|parameter|message|im_start|im_end)\b[^<>\n]{0,80}>`,
	// Chat-template special tokens: <|im_start|>, <|eot_id|>, <|start_header_id|>.
	`<\|[A-Za-z0-9_]{1,32}\|>`,
	// Llama-2 style markers.
	`\[/?INST\]|<</?SYS>>`,
	// Role turns at the start of a line: "Assistant:", "### System:".
	`(?m)^[ \t>#*]*(?:system|assistant|user|human|developer|ai)[ \t]*:`,
	`(?m)^[ \t]*#{2,}[ \t]*(?:system|instruction|instructions|assistant|response)\b`,
	// Tool-call JSON: {"tool_calls": …}, {"function_call": …}, {"name": "x", "arguments": …}.
	`\{\s*"(?:tool_calls|function_call|tool_use|tool_call)"\s*:`,
	`\{\s*"(?:name|tool|function)"\s*:\s*"[^"\n]{1,100}"\s*,\s*"(?:arguments|parameters|input|args)"\s*:`,
	`"type"\s*:\s*"(?:function|tool_use)"`,
}

// Neutralizer defuses text. Its zero value is not usable; call New. It is
// immutable and safe for concurrent use.
type Neutralizer struct {
	re *regexp.Regexp
}

// New compiles the patterns.
func New() *Neutralizer {
	return &Neutralizer{re: regexp.MustCompile(`(?i)(?:` + strings.Join(patterns, `)|(?:`) + `)`)}
}

// Defuse returns s with every suspicious span escaped, and how many spans
// it escaped. A text with nothing to defuse is returned as is, without
// allocating.
func (n *Neutralizer) Defuse(s string) (string, int) {
	locs := n.re.FindAllStringIndex(s, -1)
	if len(locs) == 0 {
		return s, 0
	}
	var b strings.Builder
	b.Grow(len(s) + len(locs)*16)
	last := 0
	for _, l := range locs {
		b.WriteString(s[last:l[0]])
		b.WriteString(Escape(s[l[0]:l[1]]))
		last = l[1]
	}
	b.WriteString(s[last:])
	return b.String(), len(locs)
}

// escaper turns the characters that make a span act as markup into
// look-alikes that read the same to a person and do not parse as markup.
var escaper = strings.NewReplacer("<", "‹", ">", "›", "|", "¦")

// Escape wraps one span as "[defused: …]", keeping leading whitespace and
// newlines outside so the text's layout survives.
func Escape(span string) string {
	trimmed := strings.TrimLeft(span, " \t\r\n")
	lead := span[:len(span)-len(trimmed)]
	return lead + "[defused: " + escaper.Replace(trimmed) + "]"
}
