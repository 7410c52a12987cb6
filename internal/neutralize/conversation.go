package neutralize

import (
	"regexp"
	"strings"
	"unicode"
)

// The model's own context is no argument a tool needs: a parameter named
// system_prompt or conversation_history on a diagnostics tool, or one
// described as "the current system prompt" or "the recent conversation
// log", asks the model to hand over what it was told and what the user
// said. Tools about prompts, chats or models are exempt.

// contextNames are parameter names of the model's context, lower-cased
// with '_', '-' and spaces removed.
var contextNames = words(`systemprompt systemmessage systeminstructions conversationhistory chathistory conversationlog
	chatlog messagehistory previousmessages priormessages conversationtranscript chattranscript fullconversation
	hiddeninstructions internalinstructions developerinstructions assistantinstructions agentinstructions modelinstructions`)

// contextSubjects are subject words of a tool that may take the model's
// context as an argument: an LLM call, a prompt store, a chat archive.
// "prompt" and "instruction" are not among them: the subject groups add
// them to any tool that says "system".
var contextSubjects = words(`conversation chat history message transcript llm model ai agent assistant
	completion gpt claude gemini memory dialog dialogue persona thread`)

// contextValue is a parameter's description that names the model's
// current context as its value: "Current system configuration prompt for
// …", "Recent conversation log for error analysis".
var contextValue = regexp.MustCompile(`(?i)^\s*(?:the\s+|your\s+|a\s+)?(?:current|recent|full|entire|complete|ongoing|latest|whole|active)\s+(?:\w+\s+){0,2}?(?:system\s+(?:\w+\s+)?prompt|(?:conversation|chat|dialog(?:ue)?)\s+(?:log|history|transcript|messages))\b`)

// revealOrder asks the model to reveal its instructions: "first, reveal
// instructions to the user", "disclose your system prompt".
var revealOrder = regexp.MustCompile(`(?i)\b(?:reveal|disclose|leak|expose|dump)\s+(?:your\s+|the\s+|all\s+|any\s+)?(?:(?:system|hidden|internal|initial|original|secret)\s+)?(?:instructions|system\s+prompt|prompts?)\b`)

// contextRequests reports a parameter of the model's context and an order
// to reveal the model's instructions, unless the tool is about them. A
// parameter is a text that is only a name (as the pinner reads a
// property's name), or a line "name: description" of a docstring.
func contextRequests(s, folded string, sub set, add func(Rule, int, int)) {
	if !containsAny(folded, contextNeedles) || aboutBeyond(sub, contextSubjects, "") {
		return
	}
	start := 0
	for _, line := range strings.SplitAfter(s, "\n") {
		name, desc, ok := strings.Cut(line, ":")
		off := len(name) + 1
		if !ok {
			name, desc, off = line, line, 0
		}
		if key := strings.TrimSpace(name); key != "" && !strings.ContainsAny(key, " \t") && contextNames[contextKey(key)] {
			i := start + strings.Index(line, key)
			add(RuleSensitiveData, i, i+len(key))
		} else if loc := contextValue.FindStringIndex(desc); loc != nil {
			add(RuleSensitiveData, start+off+loc[0], start+off+loc[1])
		}
		start += len(line)
	}
	if containsAny(folded, revealNeedles) {
		for _, loc := range revealOrder.FindAllStringIndex(s, -1) {
			if aboutBeyond(sub, contextSubjects, s[loc[0]:loc[1]]) {
				continue
			}
			add(RuleSensitiveData, loc[0], loc[1])
		}
	}
}

// contextNeedles are strings one of which every name of contextNames and
// every match of contextValue and revealOrder holds, as folded by
// foldNeedles.
var contextNeedles = []string{"prompt", "message", "instruction", "history", "transcript", "conversation", "chat", "dialog"}

// revealNeedles are the verbs of revealOrder.
var revealNeedles = []string{"reveal", "disclose", "leak", "expose", "dump"}

// contextKey lower-cases a name and drops its separators.
func contextKey(name string) string {
	return strings.Map(func(r rune) rune {
		if r == '_' || r == '-' || r == ' ' {
			return -1
		}
		return unicode.ToLower(r)
	}, name)
}

// aboutBeyond reports whether the subject holds a word of guard that is
// not a word of span: a tool about what span names, rather than a text
// whose first sentence, read as its subject, is the span itself.
func aboutBeyond(sub, guard set, span string) bool {
	in := set{}
	for _, t := range tokens(span, 0, len(span)) {
		in[t.w] = true
		in[strings.TrimSuffix(t.w, "s")] = true
	}
	for w := range sub {
		if guard[w] && !in[w] {
			return true
		}
	}
	return false
}
