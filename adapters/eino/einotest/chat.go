package einotest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
)

// ChatServerOptions script a ChatServer.
type ChatServerOptions struct {
	// Replies are assistant messages as JSON, such as
	// {"role":"assistant","content":"done"}, answered in request order.
	Replies []string
	// Reply, if set, answers each request after Replies run out with an
	// assistant message whose content it returns. Without it such a
	// request gets the content "(script exhausted)".
	Reply func(ChatRequest) string
}

// ChatRequest is one request a ChatServer received.
type ChatRequest struct {
	// Body is the request as sent.
	Body     []byte
	Model    string
	Messages []ChatMessage
}

// ChatMessage is one message of a request, as far as text goes.
type ChatMessage struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

// ChatServer is an httptest server speaking OpenAI's POST
// {base}/chat/completions, the model endpoint stand-in for code that
// builds its chat model from an address (eino-ext's openai model, the
// command line's MCPFLEET_MODEL and OPENAI_BASE_URL), as Model is for
// code that takes an eino model. Close it when done.
type ChatServer struct {
	*httptest.Server
	opts ChatServerOptions

	mu       sync.Mutex
	requests []ChatRequest
}

// NewChatServer starts a server on 127.0.0.1; BaseURL is what clients
// configure.
func NewChatServer(opts ChatServerOptions) *ChatServer {
	s := &ChatServer{opts: opts}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	return s
}

// BaseURL is the API root, like "https://api.openai.com/v1".
func (s *ChatServer) BaseURL() string { return s.URL + "/v1" }

// Requests returns a copy of the requests received so far.
func (s *ChatServer) Requests() []ChatRequest {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.requests)
}

func (s *ChatServer) serve(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || r.URL.Path != "/v1/chat/completions" {
		http.Error(w, `{"error":{"message":"not found"}}`, http.StatusNotFound)
		return
	}
	body, _ := io.ReadAll(r.Body)
	req := ChatRequest{Body: body}
	var wire struct {
		Model    string            `json:"model"`
		Messages []json.RawMessage `json:"messages"`
	}
	if err := json.Unmarshal(body, &wire); err != nil {
		http.Error(w, `{"error":{"message":"bad request body"}}`, http.StatusBadRequest)
		return
	}
	req.Model = wire.Model
	for _, raw := range wire.Messages {
		var m ChatMessage
		_ = json.Unmarshal(raw, &m) // content that is not a string (parts) stays ""
		req.Messages = append(req.Messages, m)
	}
	s.mu.Lock()
	n := len(s.requests)
	s.requests = append(s.requests, req)
	s.mu.Unlock()
	var reply string
	switch {
	case n < len(s.opts.Replies):
		reply = s.opts.Replies[n]
	default:
		content := "(script exhausted)"
		if s.opts.Reply != nil {
			content = s.opts.Reply(req)
		}
		b, _ := json.Marshal(ChatMessage{Role: "assistant", Content: content})
		reply = string(b)
	}
	finish := "stop"
	if strings.Contains(reply, "tool_calls") {
		finish = "tool_calls"
	}
	w.Header().Set("Content-Type", "application/json")
	fmt.Fprintf(w, `{"id":"chatcmpl-%d","object":"chat.completion","created":1,"model":%q,"choices":[{"index":0,"message":%s,"finish_reason":%q}],"usage":{"prompt_tokens":10,"completion_tokens":2,"total_tokens":12}}`,
		n, req.Model, reply, finish)
}
