package neutralize

import "strings"

// ImitationKeys returns the keys of obj, a decoded JSON object, whose
// string values make it read as a tool call or a conversation turn, in a
// fixed order; nil for any other object. Defusing those values, and only
// them, marks the imitation and keeps every key, so the object still fits
// the schema it was written for.
//
//   - "role" of a turn: {"role": "assistant", "content": …} (or with
//     "tool_calls" instead of "content").
//   - "type" of a call or its result: "tool_use", "tool_result",
//     "function_call", "function_call_output", "server_tool_use", and
//     "function" when the object's "function" holds "arguments" (a call,
//     not a tool's definition).
//   - the called tool's name: "name", "tool" or "function" beside
//     "arguments", or "name" in a typed call above.
func ImitationKeys(obj map[string]any) []string {
	var keys []string
	if r, ok := obj["role"].(string); ok && turnRoles[strings.ToLower(r)] {
		if _, ok := obj["content"]; ok {
			keys = append(keys, "role")
		} else if _, ok := obj["tool_calls"]; ok {
			keys = append(keys, "role")
		}
	}
	typed := false
	if t, ok := obj["type"].(string); ok {
		switch strings.ToLower(t) {
		case "tool_use", "tool_result", "function_call", "function_call_output", "server_tool_use":
			typed = true
		case "function":
			f, _ := obj["function"].(map[string]any)
			_, typed = f["arguments"]
		}
		if typed {
			keys = append(keys, "type")
		}
	}
	_, args := obj["arguments"]
	for _, k := range []string{"name", "tool", "function"} {
		if _, ok := obj[k].(string); ok && (args || typed && k == "name") {
			keys = append(keys, k)
		}
	}
	return keys
}

// turnRoles are the speakers a "role" value names in chat-message JSON.
var turnRoles = map[string]bool{"system": true, "assistant": true, "user": true, "human": true, "developer": true, "tool": true, "function": true, "model": true, "ai": true}
