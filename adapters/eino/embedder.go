package eino

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/cloudwego/eino/components/embedding"

	"github.com/mcpfleet/mcpfleet/catalog"
)

// Environment variables read by EmbedderFromEnv, besides EnvBaseURL and
// EnvAPIKey, which it shares with the chat model.
const (
	// EnvEmbedModel names the embedding model. Unset means no embedder:
	// search stays BM25.
	EnvEmbedModel = "MCPFLEET_EMBED_MODEL"
	// EnvEmbedBaseURL overrides OPENAI_BASE_URL for embeddings, for setups
	// where chat and embeddings are served by different endpoints.
	EnvEmbedBaseURL = "MCPFLEET_EMBED_BASE_URL"
	// EnvEmbedAPIKey is the key for MCPFLEET_EMBED_BASE_URL. When that is
	// set, OPENAI_API_KEY is never sent to it: the chat endpoint's key
	// must not leak to another host.
	EnvEmbedAPIKey = "MCPFLEET_EMBED_API_KEY"
	// EnvEmbedQueryPrefix and EnvEmbedDocPrefix are the instruction
	// prefixes the model expects on queries and on documents, such as
	// "query: " and "passage: " for e5, read as written (trailing space
	// included) into EmbedderConfig.QueryPrefix and DocPrefix.
	EnvEmbedQueryPrefix = "MCPFLEET_EMBED_QUERY_PREFIX"
	EnvEmbedDocPrefix   = "MCPFLEET_EMBED_DOC_PREFIX"
)

// Embedder defaults, used where EmbedderConfig leaves a field zero.
const (
	// DefaultEmbedBatchSize is how many texts go in one request. OpenAI
	// takes up to 2048, but local servers (llama.cpp, Ollama) process a
	// request as one batch, and 64 keeps each request short enough for
	// the timeout on CPU.
	DefaultEmbedBatchSize = 64
	// DefaultEmbedTimeout bounds one request, not a whole EmbedStrings.
	DefaultEmbedTimeout = 30 * time.Second
	// DefaultEmbedMaxResponse bounds the bytes read from one response:
	// 64 vectors of 3072 floats as JSON take about 4 MiB.
	DefaultEmbedMaxResponse = 32 << 20
)

// EmbedderConfig configures an OpenAIEmbedder. Model and BaseURL are
// required; zero values elsewhere mean the defaults.
type EmbedderConfig struct {
	Model string
	// BaseURL is the API root, such as "https://api.openai.com/v1" or
	// "http://localhost:11434/v1"; requests go to BaseURL + "/embeddings".
	BaseURL string
	// APIKey is sent as "Authorization: Bearer …" when not empty.
	APIKey string
	// BatchSize is the most texts sent in one request (DefaultEmbedBatchSize).
	BatchSize int
	// Timeout bounds each request (DefaultEmbedTimeout).
	Timeout time.Duration
	// MaxResponseBytes bounds the body read from each response
	// (DefaultEmbedMaxResponse).
	MaxResponseBytes int64
	// HTTPClient sends the requests; nil means a new http.Client.
	HTTPClient *http.Client
	// QueryPrefix and DocPrefix are the model's instruction prefixes for
	// queries and documents ("query: ", "passage: " for e5;
	// "search_query: ", "search_document: " for nomic). OpenAIEmbedder
	// sends texts as given, since only the caller knows which is which;
	// these belong in catalog.Config's EmbedQueryPrefix and EmbedDocPrefix.
	QueryPrefix, DocPrefix string
}

// ErrEmbedderConfig is wrapped by NewOpenAIEmbedder's errors: the config
// cannot work, whatever the endpoint answers.
var ErrEmbedderConfig = errors.New("eino: invalid embedder config")

// EmbedderConfigFromEnv reads the embedding settings; getenv is os.Getenv
// when nil. An unset MCPFLEET_EMBED_MODEL returns a zero config and no
// error: embeddings are optional. Otherwise the endpoint and its key are
// MCPFLEET_EMBED_BASE_URL and MCPFLEET_EMBED_API_KEY, else the chat
// model's OPENAI_BASE_URL and OPENAI_API_KEY (never a mix: the chat key
// is not sent to another host). A key may be empty only for a local
// endpoint, as for ModelConfigFromEnv. MCPFLEET_EMBED_QUERY_PREFIX and
// MCPFLEET_EMBED_DOC_PREFIX fill QueryPrefix and DocPrefix.
func EmbedderConfigFromEnv(getenv func(string) string) (EmbedderConfig, error) {
	if getenv == nil {
		getenv = os.Getenv
	}
	c := EmbedderConfig{Model: getenv(EnvEmbedModel)}
	if c.Model == "" {
		return EmbedderConfig{}, nil
	}
	c.QueryPrefix, c.DocPrefix = getenv(EnvEmbedQueryPrefix), getenv(EnvEmbedDocPrefix)
	keyVar := EnvAPIKey
	c.BaseURL = getenv(EnvEmbedBaseURL)
	if c.BaseURL != "" {
		keyVar = EnvEmbedAPIKey
	} else {
		c.BaseURL = getenv(EnvBaseURL)
	}
	c.APIKey = getenv(keyVar)
	var missing []string
	if c.BaseURL == "" {
		missing = append(missing, EnvBaseURL+" (or "+EnvEmbedBaseURL+")")
	}
	local := strings.Contains(c.BaseURL, "://localhost") || strings.Contains(c.BaseURL, "://127.0.0.1")
	if c.APIKey == "" && c.BaseURL != "" && !local {
		missing = append(missing, keyVar)
	}
	if missing != nil {
		return c, &MissingEnvError{Vars: missing}
	}
	return c, nil
}

// EmbedderFromEnv builds an OpenAIEmbedder from MCPFLEET_EMBED_MODEL and
// the endpoint EmbedderConfigFromEnv picks. It returns
// nil and no error when MCPFLEET_EMBED_MODEL is unset; [CatalogEmbedder]
// turns that nil into a nil catalog.Embedder, so search stays BM25. ctx is
// taken for symmetry with ModelFromEnv; building the client does no I/O.
func EmbedderFromEnv(ctx context.Context) (*OpenAIEmbedder, error) {
	c, err := EmbedderConfigFromEnv(nil)
	if err != nil || c.Model == "" {
		return nil, err
	}
	return NewOpenAIEmbedder(c)
}

// OpenAIEmbedder is an eino embedding.Embedder for any endpoint speaking
// OpenAI's POST /embeddings (OpenAI, vLLM, Ollama, llama.cpp, TEI). It
// uses net/http directly rather than eino-ext's embedding modules, which
// pin older eino versions. It is safe for concurrent use.
type OpenAIEmbedder struct {
	model, endpoint, key string
	batch                int
	timeout              time.Duration
	maxBody              int64
	client               *http.Client
}

// NewOpenAIEmbedder checks cfg and returns an embedder. It sends nothing.
func NewOpenAIEmbedder(cfg EmbedderConfig) (*OpenAIEmbedder, error) {
	var errs []error
	if cfg.Model == "" {
		errs = append(errs, fmt.Errorf("%w: Model is empty", ErrEmbedderConfig))
	}
	u, err := url.Parse(strings.TrimRight(cfg.BaseURL, "/") + "/embeddings")
	if cfg.BaseURL == "" {
		errs = append(errs, fmt.Errorf("%w: BaseURL is empty", ErrEmbedderConfig))
	} else if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		// url.Parse's error quotes the URL, which may hold a password.
		errs = append(errs, fmt.Errorf("%w: BaseURL must be an http(s) URL with a host", ErrEmbedderConfig))
	}
	if cfg.BatchSize < 0 || cfg.Timeout < 0 || cfg.MaxResponseBytes < 0 {
		errs = append(errs, fmt.Errorf("%w: BatchSize, Timeout and MaxResponseBytes must not be negative", ErrEmbedderConfig))
	}
	if errs != nil {
		return nil, errors.Join(errs...)
	}
	e := &OpenAIEmbedder{model: cfg.Model, endpoint: u.String(), key: cfg.APIKey,
		batch: cfg.BatchSize, timeout: cfg.Timeout, maxBody: cfg.MaxResponseBytes, client: cfg.HTTPClient}
	if e.batch == 0 {
		e.batch = DefaultEmbedBatchSize
	}
	if e.timeout == 0 {
		e.timeout = DefaultEmbedTimeout
	}
	if e.maxBody == 0 {
		e.maxBody = DefaultEmbedMaxResponse
	}
	if e.client == nil {
		e.client = &http.Client{}
	}
	return e, nil
}

// Endpoint returns the URL requests go to, with any password redacted.
func (e *OpenAIEmbedder) Endpoint() string {
	u, err := url.Parse(e.endpoint)
	if err != nil {
		return e.endpoint
	}
	return u.Redacted()
}

// GetType names the implementation for eino's callbacks and tooling.
func (e *OpenAIEmbedder) GetType() string { return "OpenAICompatible" }

// EmbedStrings returns one vector per text, in order. Texts go in batches
// of EmbedderConfig.BatchSize, one request at a time; the first failure
// ends the call with an *EmbedError. embedding.WithModel overrides the
// model for this call. No texts means no request.
func (e *OpenAIEmbedder) EmbedStrings(ctx context.Context, texts []string, opts ...embedding.Option) ([][]float64, error) {
	model := e.model
	if o := embedding.GetCommonOptions(nil, opts...); o.Model != nil && *o.Model != "" {
		model = *o.Model
	}
	out := make([][]float64, 0, len(texts))
	for start := 0; start < len(texts); start += e.batch {
		vecs, err := e.embedBatch(ctx, model, texts[start:min(start+e.batch, len(texts))])
		if err != nil {
			return nil, err
		}
		out = append(out, vecs...)
	}
	return out, nil
}

// embedRequest and embedResponse are the parts of OpenAI's embeddings API
// used here.
type embedRequest struct {
	Model string   `json:"model"`
	Input []string `json:"input"`
}

type embedResponse struct {
	Data []struct {
		Index     int       `json:"index"`
		Embedding []float64 `json:"embedding"`
	} `json:"data"`
}

func (e *OpenAIEmbedder) embedBatch(ctx context.Context, model string, texts []string) ([][]float64, error) {
	fail := func(reason EmbedReason, status int, detail string, err error) error {
		return &EmbedError{Endpoint: e.Endpoint(), Model: model, Reason: reason, Status: status, Detail: e.scrub(detail), Err: err}
	}
	body, err := json.Marshal(embedRequest{Model: model, Input: texts})
	if err != nil {
		return nil, fail(EmbedReasonRequest, 0, "encoding the request", err)
	}
	ctx, cancel := context.WithTimeout(ctx, e.timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, e.endpoint, bytes.NewReader(body))
	if err != nil {
		return nil, fail(EmbedReasonRequest, 0, "building the request", err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	if e.key != "" {
		req.Header.Set("Authorization", "Bearer "+e.key)
	}
	resp, err := e.client.Do(req)
	if err != nil {
		return nil, fail(EmbedReasonRequest, 0, "", err)
	}
	defer resp.Body.Close()
	// One byte past the bound tells "at the bound" from "over it"; at
	// MaxInt64 the +1 would wrap negative and read nothing.
	limit := e.maxBody
	if limit < math.MaxInt64 {
		limit++
	}
	raw, err := io.ReadAll(io.LimitReader(resp.Body, limit))
	if err != nil {
		return nil, fail(EmbedReasonRequest, resp.StatusCode, "reading the response", err)
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return nil, fail(EmbedReasonStatus, resp.StatusCode, errorDetail(string(raw), e.scrub), nil)
	}
	if int64(len(raw)) > e.maxBody {
		return nil, fail(EmbedReasonTooLarge, resp.StatusCode, fmt.Sprintf("response over %d bytes", e.maxBody), nil)
	}
	var r embedResponse
	if err := json.Unmarshal(raw, &r); err != nil {
		return nil, fail(EmbedReasonResponse, resp.StatusCode, "malformed JSON", err)
	}
	if len(r.Data) != len(texts) {
		return nil, fail(EmbedReasonCount, resp.StatusCode, fmt.Sprintf("sent %d texts, got %d vectors", len(texts), len(r.Data)), nil)
	}
	// The API does not promise data in input order; index says which
	// input each vector belongs to.
	out := make([][]float64, len(texts))
	for _, d := range r.Data {
		switch {
		case d.Index < 0 || d.Index >= len(texts):
			return nil, fail(EmbedReasonResponse, resp.StatusCode, fmt.Sprintf("index %d out of range for %d texts", d.Index, len(texts)), nil)
		case out[d.Index] != nil:
			return nil, fail(EmbedReasonResponse, resp.StatusCode, fmt.Sprintf("index %d appears twice", d.Index), nil)
		case len(d.Embedding) == 0:
			return nil, fail(EmbedReasonResponse, resp.StatusCode, fmt.Sprintf("empty vector at index %d", d.Index), nil)
		case len(d.Embedding) != len(r.Data[0].Embedding):
			return nil, fail(EmbedReasonResponse, resp.StatusCode, fmt.Sprintf("vector %d has %d dimensions, vector 0 has %d", d.Index, len(d.Embedding), len(r.Data[0].Embedding)), nil)
		}
		out[d.Index] = d.Embedding
	}
	return out, nil
}

// scrub keeps the API key out of error text, in case an endpoint echoes
// the request's headers.
func (e *OpenAIEmbedder) scrub(s string) string {
	if e.key == "" {
		return s
	}
	return strings.ReplaceAll(s, e.key, "[redacted]")
}

// errorDetail extracts OpenAI's {"error": {"message": …}} from an error
// body, else its first 200 bytes on one line. scrub runs on the decoded
// text before the cut: decoding can reveal a key the body held escaped
// ("\u0065"), and a cut inside the key would leave its start behind.
func errorDetail(s string, scrub func(string) string) string {
	var r struct {
		Error struct {
			Message string `json:"message"`
		} `json:"error"`
	}
	if json.Unmarshal([]byte(s), &r) == nil && r.Error.Message != "" {
		s = r.Error.Message
	}
	s = scrub(strings.Join(strings.Fields(s), " "))
	if len(s) > 200 {
		s = strings.ToValidUTF8(s[:200], "") + "…"
	}
	return s
}

// CatalogEmbedder adapts any eino embedding.Embedder to catalog.Embedder,
// whose method takes no options. A nil e, or a nil *OpenAIEmbedder as
// EmbedderFromEnv returns when embeddings are off, gives a nil
// catalog.Embedder, so
//
//	cfg.Embedder = eino.CatalogEmbedder(emb)
//
// leaves search BM25 rather than failing on every query.
func CatalogEmbedder(e embedding.Embedder) catalog.Embedder {
	if e == nil {
		return nil
	}
	if o, ok := e.(*OpenAIEmbedder); ok && o == nil {
		return nil
	}
	return catalogEmbedder{e}
}

type catalogEmbedder struct{ e embedding.Embedder }

func (c catalogEmbedder) EmbedStrings(ctx context.Context, texts []string) ([][]float64, error) {
	return c.e.EmbedStrings(ctx, texts)
}
