package openai_test

import (
	"strings"
	"testing"

	"github.com/mcpfleet/mcpfleet/adapters/eino/openai"
)

func TestModelConfigFromEnv(t *testing.T) {
	tests := []struct {
		name    string
		env     map[string]string
		wantErr string
	}{
		{"all set", map[string]string{"MCPFLEET_MODEL": "qwen3", "OPENAI_BASE_URL": "https://llm.example/v1", "OPENAI_API_KEY": "k"}, ""},
		{"local needs no key", map[string]string{"MCPFLEET_MODEL": "qwen3", "OPENAI_BASE_URL": "http://localhost:11434/v1"}, ""},
		{"nothing", nil, "eino: set MCPFLEET_MODEL, OPENAI_BASE_URL, OPENAI_API_KEY to use"},
		{"remote without key", map[string]string{"MCPFLEET_MODEL": "m", "OPENAI_BASE_URL": "https://llm.example/v1"}, "eino: set OPENAI_API_KEY to use"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := openai.ModelConfigFromEnv(func(k string) string { return tc.env[k] })
			got := ""
			if err != nil {
				got = err.Error()
			}
			if tc.wantErr == "" && got != "" || tc.wantErr != "" && !strings.HasPrefix(got, tc.wantErr) {
				t.Errorf("err = %q, want prefix %q", got, tc.wantErr)
			}
		})
	}
}
