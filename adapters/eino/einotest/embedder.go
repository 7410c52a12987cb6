package einotest

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
)

// EmbeddingServerOptions script an EmbeddingServer. The zero value answers
// every request correctly with Concepts() vectors.
type EmbeddingServerOptions struct {
	// Embed maps one input text to its vector; nil means Concepts() with
	// no groups, which gives every text the same one-dimensional vector.
	Embed func(text string) []float64
	// Status, if not 0 or 200, answers every request with this status and
	// an OpenAI-style error body.
	Status int
	// Body, if set, is sent verbatim (status 200) instead of vectors.
	Body string
	// Drop removes the last vector of every answer, as a broken server
	// would.
	Drop bool
	// InOrder sends data in input order. By default it is reversed, as
	// the API permits, so clients must honour data[].index.
	InOrder bool
	// Block holds every answer until the request's context ends.
	Block bool
}

// EmbeddingRequest is one request an EmbeddingServer received.
type EmbeddingRequest struct {
	Path          string
	Model         string
	Input         []string
	Authorization string // the header as sent, "" when absent
}

// EmbeddingServer is an httptest server speaking OpenAI's POST
// {base}/embeddings, the model endpoint stand-in for embedding tests, as
// Model is for chat. Close it when done.
type EmbeddingServer struct {
	*httptest.Server
	opts EmbeddingServerOptions

	mu       sync.Mutex
	requests []EmbeddingRequest
}

// NewEmbeddingServer starts a server; BaseURL is what clients configure.
func NewEmbeddingServer(opts EmbeddingServerOptions) *EmbeddingServer {
	if opts.Embed == nil {
		opts.Embed = Concepts()
	}
	s := &EmbeddingServer{opts: opts}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	return s
}

// BaseURL is the API root, like "https://api.openai.com/v1".
func (s *EmbeddingServer) BaseURL() string { return s.URL + "/v1" }

// Requests returns a copy of the requests received so far.
func (s *EmbeddingServer) Requests() []EmbeddingRequest {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.requests)
}

func (s *EmbeddingServer) serve(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Model string   `json:"model"`
		Input []string `json:"input"`
	}
	if r.Method != http.MethodPost || r.URL.Path != "/v1/embeddings" {
		http.Error(w, `{"error":{"message":"not found"}}`, http.StatusNotFound)
		return
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, `{"error":{"message":"bad request body"}}`, http.StatusBadRequest)
		return
	}
	s.mu.Lock()
	s.requests = append(s.requests, EmbeddingRequest{Path: r.URL.Path, Model: req.Model, Input: req.Input, Authorization: r.Header.Get("Authorization")})
	s.mu.Unlock()
	if s.opts.Block {
		<-r.Context().Done()
		return
	}
	if s.opts.Status != 0 && s.opts.Status != http.StatusOK {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(s.opts.Status)
		_, _ = w.Write([]byte(`{"error":{"message":"scripted failure","type":"server_error"}}`))
		return
	}
	w.Header().Set("Content-Type", "application/json")
	if s.opts.Body != "" {
		_, _ = w.Write([]byte(s.opts.Body))
		return
	}
	type datum struct {
		Object    string    `json:"object"`
		Index     int       `json:"index"`
		Embedding []float64 `json:"embedding"`
	}
	data := make([]datum, len(req.Input))
	for i, text := range req.Input {
		data[i] = datum{"embedding", i, s.opts.Embed(text)}
	}
	if s.opts.Drop && len(data) > 0 {
		data = data[:len(data)-1]
	}
	if !s.opts.InOrder {
		slices.Reverse(data)
	}
	_ = json.NewEncoder(w).Encode(map[string]any{"object": "list", "model": req.Model, "data": data})
}

// Concepts returns a bag-of-concepts embedding: dimension i counts the
// words of text found in groups[i], and a last dimension, always 0.5,
// keeps vectors non-zero. It stands in for a model that knows words mean
// the same thing where BM25 sees different words.
func Concepts(groups ...[]string) func(text string) []float64 {
	return func(text string) []float64 {
		v := make([]float64, len(groups)+1)
		v[len(groups)] = 0.5
		for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
			return !('a' <= r && r <= 'z' || '0' <= r && r <= '9' || r > 127)
		}) {
			for d, g := range groups {
				if slices.Contains(g, w) {
					v[d]++
				}
			}
		}
		return v
	}
}
