package openai

import (
	"fmt"
	"net/http"
	"time"
)

// EmbedReason says why an embeddings request failed.
type EmbedReason string

// Reasons carried by EmbedError.
const (
	// EmbedReasonRequest: no usable answer arrived (connection refused,
	// timeout, ctx cancelled). Err holds the cause, so errors.Is matches
	// context.Canceled and context.DeadlineExceeded.
	EmbedReasonRequest EmbedReason = "request"
	// EmbedReasonStatus: the endpoint answered with a non-2xx status.
	EmbedReasonStatus EmbedReason = "http_status"
	// EmbedReasonTooLarge: the response exceeded MaxResponseBytes.
	EmbedReasonTooLarge EmbedReason = "too_large"
	// EmbedReasonResponse: the body was not a valid embeddings response
	// (malformed JSON, an index out of range or repeated, an empty or
	// mis-sized vector).
	EmbedReasonResponse EmbedReason = "bad_response"
	// EmbedReasonCount: the response held a different number of vectors
	// than texts sent.
	EmbedReasonCount EmbedReason = "wrong_count"
)

// EmbedError is the error of a failed Embedder request. Its text
// names the endpoint, the model, the HTTP status and, after retries, the
// number of attempts; it never contains the API key. Fields describe the
// last attempt.
type EmbedError struct {
	// Endpoint is the request URL, with any password redacted.
	Endpoint string
	Model    string
	Reason   EmbedReason
	// Status is the HTTP status code, 0 if no response arrived.
	Status int
	// Detail is a short description: the endpoint's error message for
	// EmbedReasonStatus, what was wrong otherwise.
	Detail string
	// Err is the underlying error, if any.
	Err error
	// Attempts is how many requests were sent, retries included.
	Attempts int
	// RetryAfter is the wait a 429 or 503 answer asked for in its
	// Retry-After header, 0 if none. When it is set on the returned
	// error, the wait did not fit EmbedderConfig.MaxRetryWait or ctx, or
	// the retries were spent.
	RetryAfter time.Duration
	// Embedded holds, when EmbedStrings split its texts into batches and
	// the failed one was not the first, the vectors of the batches before
	// it: those of the call's first len(Embedded) texts, in order. Unlike
	// the other fields it describes the whole call. [EmbedCache] keeps
	// them, so a retry sends only the rest.
	Embedded [][]float64
}

// RetryDelay is RetryAfter. It makes an *EmbedError a
// catalog/search.RetryDelayer, so that the catalog waits as long as the endpoint
// asked before embedding again.
func (e *EmbedError) RetryDelay() time.Duration { return e.RetryAfter }

func (e *EmbedError) Error() string {
	return fmt.Sprintf("eino: embeddings at %s (model %s): ", e.Endpoint, e.Model) + e.summary()
}

// summary is the error text after the endpoint and model.
func (e *EmbedError) summary() string {
	var s string
	if e.Status != 0 {
		s += fmt.Sprintf("HTTP %d %s: ", e.Status, http.StatusText(e.Status))
	}
	s += string(e.Reason)
	if e.Attempts > 1 {
		s += fmt.Sprintf(" after %d attempts", e.Attempts)
	}
	if e.Detail != "" {
		s += ": " + e.Detail
	}
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	if e.RetryAfter > 0 {
		s += fmt.Sprintf(" (retry after %v)", e.RetryAfter)
	}
	return s
}

func (e *EmbedError) Unwrap() error { return e.Err }

// EnvValueError is a set environment variable whose value cannot be used.
// Value is quoted in the text: only variables that hold no secret are
// parsed into one.
type EnvValueError struct {
	Var, Value string
	// Want says what is accepted.
	Want string
}

func (e *EnvValueError) Error() string {
	return fmt.Sprintf("eino: %s: got %q, want %s", e.Var, e.Value, e.Want)
}
