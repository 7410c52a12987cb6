package openai

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/cloudwego/eino/components/embedding"
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
	// EnvEmbedMaxRetries is how many times a failed request is retried,
	// a whole number: 0 (or a negative number) turns retries off, unset
	// means DefaultEmbedMaxRetries.
	EnvEmbedMaxRetries = "MCPFLEET_EMBED_MAX_RETRIES"
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
	// DefaultEmbedMaxRetries is how many times a request that failed for
	// a passing reason (429, 408, a 5xx, a dropped connection) is sent
	// again: three attempts in all.
	DefaultEmbedMaxRetries = 2
	// DefaultEmbedMaxRetryWait bounds the time one request spends waiting
	// between its attempts: enough for a rate limit's usual few seconds,
	// short of the catalog's two minutes for every entry's vector.
	DefaultEmbedMaxRetryWait = 10 * time.Second
)

// Backoff between attempts when the endpoint names no wait: the first
// wait is about retryBase, doubling up to retryCap, each drawn from its
// upper half so that clients failed together do not retry together.
const (
	retryBase = 500 * time.Millisecond
	retryCap  = 5 * time.Second
)

// EmbedderConfig configures an Embedder. Model and BaseURL are
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
	// "search_query: ", "search_document: " for nomic). Embedder
	// sends texts as given, since only the caller knows which is which;
	// these belong in catalog.Config's EmbedQueryPrefix and EmbedDocPrefix.
	QueryPrefix, DocPrefix string
	// MaxRetries is how many times a request is sent again after a 429,
	// 408 or 5xx answer (other than 501) or a dropped connection
	// (DefaultEmbedMaxRetries); a negative value turns retries off. Other
	// 4xx answers, malformed responses, the per-request Timeout and ctx
	// ending are never retried.
	MaxRetries int
	// MaxRetryWait bounds the total wait between one request's attempts
	// (DefaultEmbedMaxRetryWait). A Retry-After beyond what is left of it,
	// or beyond ctx's deadline, ends the call at once with the last error.
	MaxRetryWait time.Duration
}

// ErrEmbedderConfig is wrapped by NewEmbedder's errors: the config
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
// MCPFLEET_EMBED_MAX_RETRIES, a whole number, fills MaxRetries, except that
// there 0 means no retries (MaxRetries -1), as an operator would expect;
// any other value is an *EnvValueError, joined with any *MissingEnvError.
func EmbedderConfigFromEnv(getenv func(string) string) (EmbedderConfig, error) {
	if getenv == nil {
		getenv = os.Getenv
	}
	c := EmbedderConfig{Model: getenv(EnvEmbedModel)}
	if c.Model == "" {
		return EmbedderConfig{}, nil
	}
	c.QueryPrefix, c.DocPrefix = getenv(EnvEmbedQueryPrefix), getenv(EnvEmbedDocPrefix)
	var errs []error
	if v := getenv(EnvEmbedMaxRetries); v != "" {
		n, err := strconv.Atoi(strings.TrimSpace(v))
		switch {
		case err != nil:
			errs = append(errs, &EnvValueError{Var: EnvEmbedMaxRetries, Value: v, Want: "a whole number of retries, 0 for none"})
		case n <= 0:
			c.MaxRetries = -1
		default:
			c.MaxRetries = n
		}
	}
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
		errs = append([]error{&MissingEnvError{Vars: missing}}, errs...)
	}
	return c, errors.Join(errs...)
}

// EmbedderFromEnv builds an Embedder from MCPFLEET_EMBED_MODEL and
// the endpoint EmbedderConfigFromEnv picks. It returns
// nil and no error when MCPFLEET_EMBED_MODEL is unset; [CatalogEmbedder]
// turns that nil into a nil catalog.Embedder, so search stays BM25. ctx is
// taken for symmetry with ModelFromEnv; building the client does no I/O.
func EmbedderFromEnv(ctx context.Context) (*Embedder, error) {
	c, err := EmbedderConfigFromEnv(nil)
	if err != nil || c.Model == "" {
		return nil, err
	}
	return NewEmbedder(c)
}

// Embedder is an eino embedding.Embedder for any endpoint speaking
// OpenAI's POST /embeddings (OpenAI, vLLM, Ollama, llama.cpp, TEI). It
// uses net/http directly rather than eino-ext's embedding modules, which
// pin older eino versions. It is safe for concurrent use.
type Embedder struct {
	model, endpoint, key string
	batch                int
	timeout              time.Duration
	maxBody              int64
	client               *http.Client
	retries              int // 0 when off
	retryWait            time.Duration
	// now and sleep are time.Now and sleepCtx but in tests, which must
	// neither wait out backoffs nor depend on how long they take.
	now   func() time.Time
	sleep func(context.Context, time.Duration) error
}

// NewEmbedder checks cfg and returns an embedder. It sends nothing.
func NewEmbedder(cfg EmbedderConfig) (*Embedder, error) {
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
	if cfg.BatchSize < 0 || cfg.Timeout < 0 || cfg.MaxResponseBytes < 0 || cfg.MaxRetryWait < 0 {
		errs = append(errs, fmt.Errorf("%w: BatchSize, Timeout, MaxResponseBytes and MaxRetryWait must not be negative", ErrEmbedderConfig))
	}
	if errs != nil {
		return nil, errors.Join(errs...)
	}
	e := &Embedder{model: cfg.Model, endpoint: u.String(), key: cfg.APIKey,
		batch: cfg.BatchSize, timeout: cfg.Timeout, maxBody: cfg.MaxResponseBytes, client: cfg.HTTPClient,
		retries: max(cfg.MaxRetries, 0), retryWait: cfg.MaxRetryWait, now: time.Now, sleep: sleepCtx}
	if cfg.MaxRetries == 0 {
		e.retries = DefaultEmbedMaxRetries
	}
	if e.retryWait == 0 {
		e.retryWait = DefaultEmbedMaxRetryWait
	}
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
func (e *Embedder) Endpoint() string {
	u, err := url.Parse(e.endpoint)
	if err != nil {
		return e.endpoint
	}
	return u.Redacted()
}

// GetType names the implementation for eino's callbacks and tooling.
func (e *Embedder) GetType() string { return "OpenAICompatible" }

// EmbedStrings returns one vector per text, in order. Texts go in batches
// of EmbedderConfig.BatchSize, one request at a time, each retried as
// EmbedderConfig.MaxRetries says; the first batch that still fails ends
// the call with an *EmbedError, whose Embedded holds the vectors of the
// batches before it. embedding.WithModel overrides the model for this
// call. No texts means no request.
func (e *Embedder) EmbedStrings(ctx context.Context, texts []string, opts ...embedding.Option) ([][]float64, error) {
	model := e.model
	if o := embedding.GetCommonOptions(nil, opts...); o.Model != nil && *o.Model != "" {
		model = *o.Model
	}
	out := make([][]float64, 0, len(texts))
	for start := 0; start < len(texts); start += e.batch {
		vecs, err := e.embedBatch(ctx, model, texts[start:min(start+e.batch, len(texts))])
		if err != nil {
			if len(out) > 0 {
				err.Embedded = out
			}
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

// embedBatch sends one batch, again while the failure is one that passes
// and the wait it calls for fits what is left of MaxRetryWait and of ctx.
func (e *Embedder) embedBatch(ctx context.Context, model string, texts []string) ([][]float64, *EmbedError) {
	body, err := json.Marshal(embedRequest{Model: model, Input: texts})
	if err != nil {
		return nil, &EmbedError{Endpoint: e.Endpoint(), Model: model, Reason: EmbedReasonRequest, Detail: "encoding the request", Err: err, Attempts: 1}
	}
	var waited time.Duration
	for attempt := 1; ; attempt++ {
		vecs, ee := e.attempt(ctx, model, texts, body)
		if ee == nil {
			return vecs, nil
		}
		ee.Attempts = attempt
		if attempt > e.retries || !e.retryable(ctx, ee) {
			return nil, ee
		}
		wait := ee.RetryAfter
		if wait <= 0 {
			wait = backoff(attempt)
		}
		if waited+wait > e.retryWait {
			return nil, ee
		}
		if d, ok := ctx.Deadline(); ok && e.now().Add(wait).After(d) {
			return nil, ee
		}
		if err := e.sleep(ctx, wait); err != nil {
			// The caller gave up; errors.Is matches its reason, and the
			// text keeps what the endpoint last said.
			return nil, &EmbedError{Endpoint: ee.Endpoint, Model: model, Reason: EmbedReasonRequest,
				Detail: "interrupted while waiting to retry; last attempt: " + ee.summary(), Err: err, Attempts: attempt}
		}
		waited += wait
	}
}

// retryable reports whether the failure may pass: a status that says so,
// or a dropped connection. ctx ending is the caller's decision, and a
// request that ran out its own Timeout would most likely do so again.
func (e *Embedder) retryable(ctx context.Context, ee *EmbedError) bool {
	switch ee.Reason {
	case EmbedReasonStatus:
		s := ee.Status
		return s == http.StatusRequestTimeout || s == http.StatusTooManyRequests || s >= 500 && s != http.StatusNotImplemented
	case EmbedReasonRequest:
		return ee.Err != nil && ctx.Err() == nil && !errors.Is(ee.Err, context.DeadlineExceeded) && !errors.Is(ee.Err, context.Canceled)
	}
	return false
}

// backoff is the wait before attempt+1 when the endpoint named none:
// retryBase doubled per attempt up to retryCap, drawn from its upper half.
func backoff(attempt int) time.Duration {
	d := retryCap
	if attempt < 8 {
		d = min(retryBase<<(attempt-1), retryCap)
	}
	return d/2 + rand.N(d/2+1)
}

// retryAfter reads a Retry-After header, delay-seconds or an HTTP date
// (RFC 9110, 10.2.3); 0 when absent, unreadable or already past.
func retryAfter(h string, now time.Time) time.Duration {
	h = strings.TrimSpace(h)
	if h == "" {
		return 0
	}
	if n, err := strconv.ParseInt(h, 10, 64); err == nil {
		if n <= 0 {
			return 0
		}
		// Beyond any budget anyway; the cap only keeps the product from
		// overflowing.
		return time.Duration(min(n, int64(math.MaxInt64/time.Second))) * time.Second
	}
	if t, err := http.ParseTime(h); err == nil && t.After(now) {
		return t.Sub(now)
	}
	return 0
}

// sleepCtx waits d, or until ctx ends, returning ctx's error then.
func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// attempt sends one request. On a 429 or 503, the error's RetryAfter is
// the wait the endpoint asked for.
func (e *Embedder) attempt(ctx context.Context, model string, texts []string, body []byte) ([][]float64, *EmbedError) {
	fail := func(reason EmbedReason, status int, detail string, err error) *EmbedError {
		return &EmbedError{Endpoint: e.Endpoint(), Model: model, Reason: reason, Status: status, Detail: e.scrub(detail), Err: err}
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
		ee := fail(EmbedReasonStatus, resp.StatusCode, errorDetail(string(raw), e.scrub), nil)
		if resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode == http.StatusServiceUnavailable {
			ee.RetryAfter = retryAfter(resp.Header.Get("Retry-After"), e.now())
		}
		return nil, ee
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
func (e *Embedder) scrub(s string) string {
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
