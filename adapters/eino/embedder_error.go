package eino

import (
	"fmt"
	"net/http"
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

// EmbedError is the error of a failed OpenAIEmbedder request. Its text
// names the endpoint, the model and the HTTP status; it never contains the
// API key.
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
}

func (e *EmbedError) Error() string {
	s := fmt.Sprintf("eino: embeddings at %s (model %s): ", e.Endpoint, e.Model)
	if e.Status != 0 {
		s += fmt.Sprintf("HTTP %d %s: ", e.Status, http.StatusText(e.Status))
	}
	s += string(e.Reason)
	if e.Detail != "" {
		s += ": " + e.Detail
	}
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

func (e *EmbedError) Unwrap() error { return e.Err }
