package openai_test

import (
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/mcpfleet/mcpfleet/adapters/eino/openai"
)

// bodyTransport answers every request with one status and body, without a
// network, so the fuzzer can run fast.
type bodyTransport struct {
	status int
	body   string
}

func (b bodyTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	return &http.Response{StatusCode: b.status, Body: io.NopCloser(strings.NewReader(b.body)), Header: http.Header{}, Request: r}, nil
}

// FuzzOpenAIEmbedderResponse: whatever an endpoint answers, EmbedStrings
// returns either one vector per text or an *EmbedError, never panics, and
// never puts the key in the error.
func FuzzOpenAIEmbedderResponse(f *testing.F) {
	f.Add(200, `{"data":[{"index":1,"embedding":[1,2]},{"index":0,"embedding":[3,4]}]}`)
	f.Add(200, `{"data":[{"index":0,"embedding":[]},{"index":1}]}`)
	f.Add(200, `{"data":null}`)
	f.Add(500, `{"error":{"message":"sk-fuzz-key leaked"}}`)
	f.Add(429, strings.Repeat("é", 300))
	f.Add(200, `[`)
	f.Add(503, strings.Repeat("x", 195)+"sk-fuzz-key")                                 // the key across the 200-byte cut
	f.Add(401, `{"error":{"message":"`+strings.Repeat("x", 193)+`sk-fuzz-k\u0065y"}}`) // escaped, across the cut
	f.Fuzz(func(t *testing.T, status int, body string) {
		if status < 100 || status > 999 {
			t.Skip()
		}
		e, err := openai.NewEmbedder(openai.EmbedderConfig{Model: "m", BaseURL: "http://embed.invalid/v1", APIKey: "sk-fuzz-key",
			MaxResponseBytes: 1 << 16, HTTPClient: &http.Client{Transport: bodyTransport{status, body}}})
		if err != nil {
			t.Fatal(err)
		}
		openai.SetRetryClock(e, time.Now, (&fakeWaits{}).Sleep)
		v, err := e.EmbedStrings(t.Context(), []string{"a", "b"})
		var ee *openai.EmbedError
		switch {
		case err == nil && len(v) != 2:
			t.Errorf("%d vectors for 2 texts", len(v))
		case err == nil && (len(v[0]) == 0 || len(v[0]) != len(v[1])):
			t.Errorf("vectors of %d and %d dimensions", len(v[0]), len(v[1]))
		case err != nil && !errors.As(err, &ee):
			t.Errorf("error %v is not an *EmbedError", err)
		case err != nil && strings.Contains(err.Error(), "sk-fuzz-key"):
			t.Errorf("error %q contains the key", err)
		}
	})
}
