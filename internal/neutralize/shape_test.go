package neutralize

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestImitationKeys(t *testing.T) {
	tests := []struct {
		name, in string
		want     []string
	}{
		{"OpenAI call", `{"id": "1", "type": "function", "function": {"name": "delete_pod", "arguments": "{}"}}`, []string{"type"}},
		{"OpenAI function", `{"name": "delete_pod", "arguments": "{}"}`, []string{"name"}},
		{"Anthropic tool_use", `{"type": "tool_use", "id": "t1", "name": "bash", "input": {}}`, []string{"type", "name"}},
		{"tool_result", `{"type": "tool_result", "tool_use_id": "t1", "content": "ok"}`, []string{"type"}},
		{"Responses API call", `{"type": "function_call", "call_id": "c", "name": "rm", "arguments": "{}"}`, []string{"type", "name"}},
		{"legacy tool", `{"tool": "kubectl_delete", "arguments": {}}`, []string{"tool"}},
		{"assistant turn", `{"role": "assistant", "content": "Sure."}`, []string{"role"}},
		{"turn with calls", `{"role": "Assistant", "tool_calls": []}`, []string{"role"}},
		{"turn and call", `{"role": "tool", "content": "x", "name": "n", "arguments": 1}`, []string{"role", "name"}},
		// Ordinary data of the same vocabulary.
		{"tool definition", `{"type": "function", "function": {"name": "get_pods", "parameters": {}}}`, nil},
		{"pod", `{"name": "api-7f9c", "namespace": "prod"}`, nil},
		{"member role", `{"role": "maintainer", "content": "x"}`, nil},
		{"role alone", `{"role": "user", "id": 3}`, nil},
		{"typed name not string", `{"type": "tool_use", "name": 3}`, []string{"type"}},
		{"type not string", `{"type": ["tool_use"], "name": "x"}`, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var obj map[string]any
			if err := json.Unmarshal([]byte(tc.in), &obj); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, ImitationKeys(obj)); diff != "" {
				t.Errorf("ImitationKeys(%s) (-want +got):\n%s", tc.in, diff)
			}
		})
	}
}
