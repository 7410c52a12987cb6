package tokens

import (
	"encoding/json"
	"sync"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/tiktoken-go/tokenizer"
)

// The codec is immutable once built; building it parses the embedded
// vocabulary, which is slow, so it is done once, lazily.
var codec = sync.OnceValues(func() (tokenizer.Codec, error) {
	return tokenizer.Get(tokenizer.O200kBase)
})

// Count returns the number of o200k tokens in s.
func Count(s string) int {
	c, err := codec()
	if err != nil {
		// The vocabulary is embedded in the binary; failing to load it is a
		// build defect, not a runtime condition.
		panic("tokens: o200k vocabulary unavailable: " + err.Error())
	}
	n, err := c.Count(s)
	if err != nil {
		panic("tokens: " + err.Error())
	}
	return n
}

// ChatTool is a tool as an OpenAI-compatible chat API sends it to the model.
type ChatTool struct {
	Type     string       `json:"type"`
	Function ChatFunction `json:"function"`
}

// ChatFunction is the function part of ChatTool.
type ChatFunction struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	Parameters  json.RawMessage `json:"parameters,omitempty"`
}

// AsChatTool converts an MCP tool into the chat API's tool shape, keeping the
// input schema exactly.
func AsChatTool(t mcp.Tool) ChatTool {
	schema := t.RawInputSchema
	if len(schema) == 0 {
		schema, _ = json.Marshal(t.InputSchema)
	}
	return ChatTool{Type: "function", Function: ChatFunction{Name: t.Name, Description: t.Description, Parameters: schema}}
}

// Tools counts the tokens of tools serialized as a chat API sends them: one
// JSON array of function tools.
func Tools(tools []ChatTool) int {
	if len(tools) == 0 {
		return 0
	}
	b, err := json.Marshal(tools)
	if err != nil {
		return 0
	}
	return Count(string(b))
}

// MCPTools counts tools given in MCP form; see Tools.
func MCPTools(tools []mcp.Tool) int {
	ct := make([]ChatTool, len(tools))
	for i, t := range tools {
		ct[i] = AsChatTool(t)
	}
	return Tools(ct)
}
