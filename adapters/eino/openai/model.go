package openai

import (
	"context"
	"fmt"
	"os"
	"strings"

	einoopenai "github.com/cloudwego/eino-ext/components/model/openai"
	"github.com/cloudwego/eino/components/model"
)

// Environment variables read by ModelFromEnv.
const (
	EnvModel   = "MCPFLEET_MODEL"
	EnvBaseURL = "OPENAI_BASE_URL"
	EnvAPIKey  = "OPENAI_API_KEY"
)

// MissingEnvError names the environment variables ModelFromEnv needs but did not find.
type MissingEnvError struct {
	Vars []string
}

func (e *MissingEnvError) Error() string {
	return "eino: set " + strings.Join(e.Vars, ", ") + " to use an OpenAI-compatible model (vLLM, Ollama, llama.cpp, OpenAI)"
}

// ModelConfig is what ModelFromEnv reads.
type ModelConfig struct {
	Model, BaseURL, APIKey string
}

// ModelConfigFromEnv reads the model settings; getenv is os.Getenv when nil.
// MCPFLEET_MODEL and OPENAI_BASE_URL are required. OPENAI_API_KEY may be
// empty only for a local endpoint (localhost or 127.0.0.1), where servers such
// as Ollama take no key.
func ModelConfigFromEnv(getenv func(string) string) (ModelConfig, error) {
	if getenv == nil {
		getenv = os.Getenv
	}
	c := ModelConfig{Model: getenv(EnvModel), BaseURL: getenv(EnvBaseURL), APIKey: getenv(EnvAPIKey)}
	var missing []string
	if c.Model == "" {
		missing = append(missing, EnvModel)
	}
	if c.BaseURL == "" {
		missing = append(missing, EnvBaseURL)
	}
	local := strings.Contains(c.BaseURL, "://localhost") || strings.Contains(c.BaseURL, "://127.0.0.1")
	if c.APIKey == "" && !local {
		missing = append(missing, EnvAPIKey)
	}
	if missing != nil {
		return c, &MissingEnvError{Vars: missing}
	}
	return c, nil
}

// ModelFromEnv builds an eino-ext OpenAI chat model for any OpenAI-compatible
// endpoint from MCPFLEET_MODEL, OPENAI_BASE_URL and OPENAI_API_KEY.
func ModelFromEnv(ctx context.Context) (model.ToolCallingChatModel, error) {
	c, err := ModelConfigFromEnv(nil)
	if err != nil {
		return nil, err
	}
	return NewModel(ctx, c)
}

// NewModel builds an eino-ext OpenAI chat model from c; an empty key is
// sent as "unused", which local servers ignore.
func NewModel(ctx context.Context, c ModelConfig) (model.ToolCallingChatModel, error) {
	key := c.APIKey
	if key == "" {
		key = "unused"
	}
	m, err := einoopenai.NewChatModel(ctx, &einoopenai.ChatModelConfig{Model: c.Model, BaseURL: c.BaseURL, APIKey: key})
	if err != nil {
		return nil, fmt.Errorf("eino: openai model %s at %s: %w", c.Model, c.BaseURL, err)
	}
	return m, nil
}
