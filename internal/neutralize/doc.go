// Package neutralize defuses text in tool output that imitates instructions,
// role turns, chat-template tokens or tool calls, by escaping it in place so
// that it stays readable as data and can no longer pass for a turn of the
// conversation.
//
// Nothing is deleted: each suspicious span is wrapped as "[defused: …]", and
// angle brackets inside it become ‹ › so that a fake closing tag cannot end
// the envelope the multiplexer puts around tool output. The patterns are
// heuristics tuned for recall on known injection phrasings; a false positive
// costs a few bracket characters, never data.
package neutralize
