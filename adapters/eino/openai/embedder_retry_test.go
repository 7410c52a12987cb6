package openai_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpfleet/mcpfleet/adapters/eino/openai"
)

// step is one scripted answer of a retryServer: a status with headers, or
// a connection dropped before any answer.
type step struct {
	status int
	header map[string]string
	drop   bool
}

// retryServer answers requests with its script, one step each, and once
// the script is spent with a vector per input text. Error bodies echo the
// API key, as a careless endpoint might.
type retryServer struct {
	*httptest.Server
	mu       sync.Mutex
	script   []step
	requests int
}

func newRetryServer(t *testing.T, script ...step) *retryServer {
	s := &retryServer{script: script}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct{ Input []string }
		_ = json.NewDecoder(r.Body).Decode(&req)
		s.mu.Lock()
		n := s.requests
		s.requests++
		s.mu.Unlock()
		if n < len(s.script) {
			st := s.script[n]
			if st.drop {
				conn, _, err := http.NewResponseController(w).Hijack()
				if err == nil {
					conn.Close()
				}
				return
			}
			for k, v := range st.header {
				w.Header().Set(k, v)
			}
			w.WriteHeader(st.status)
			_, _ = w.Write([]byte(`{"error":{"message":"scripted ` + http.StatusText(st.status) + ` for ` + r.Header.Get("Authorization") + `"}}`))
			return
		}
		data := make([]map[string]any, len(req.Input))
		for i := range req.Input {
			data[i] = map[string]any{"index": i, "embedding": []float64{float64(i), 1}}
		}
		_ = json.NewEncoder(w).Encode(map[string]any{"data": data})
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *retryServer) count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.requests
}

// fakeWaits is the embedder's clock and sleep: it records each wait and
// moves its clock on instead of sleeping.
type fakeWaits struct {
	mu    sync.Mutex
	now   time.Time
	waits []time.Duration
}

func (f *fakeWaits) Now() time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.now
}

func (f *fakeWaits) Sleep(ctx context.Context, d time.Duration) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.waits = append(f.waits, d)
	f.now = f.now.Add(d)
	return ctx.Err()
}

func (f *fakeWaits) all() []time.Duration {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]time.Duration(nil), f.waits...)
}

// retryEmbedder is an embedder on base whose waits f records.
func retryEmbedder(t *testing.T, base string, cfg openai.EmbedderConfig, f *fakeWaits) *openai.Embedder {
	t.Helper()
	cfg.APIKey = testKey
	e := newEmbedder(t, base, cfg)
	openai.SetRetryClock(e, f.Now, f.Sleep)
	return e
}

// span is an accepted range for a jittered backoff.
type span struct{ lo, hi time.Duration }

// TestOpenAIEmbedderRetries: which failures are retried, how long the
// embedder waits between attempts (Retry-After when the endpoint names a
// wait, else a jittered exponential backoff), and what the error says
// when the attempts run out.
func TestOpenAIEmbedderRetries(t *testing.T) {
	start := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	status := func(code int, header ...string) step {
		h := map[string]string{}
		for i := 0; i+1 < len(header); i += 2 {
			h[header[i]] = header[i+1]
		}
		return step{status: code, header: h}
	}
	tests := []struct {
		name       string
		cfg        openai.EmbedderConfig
		script     []step
		requests   int
		waits      []span
		status     int // of the error; 0 when the call succeeds
		attempts   int // of the error
		retryAfter time.Duration
		text       []string // substrings of the error
	}{
		{name: "429 with Retry-After seconds, then success",
			script: []step{status(429, "Retry-After", "2")}, requests: 2, waits: []span{{2 * time.Second, 2 * time.Second}}},
		{name: "503 with Retry-After as an HTTP date",
			script:   []step{status(503, "Retry-After", start.Add(3*time.Second).Format(http.TimeFormat))},
			requests: 2, waits: []span{{3 * time.Second, 3 * time.Second}}},
		{name: "Retry-After in the past falls back to backoff",
			script:   []step{status(503, "Retry-After", start.Add(-time.Hour).Format(http.TimeFormat))},
			requests: 2, waits: []span{{250 * time.Millisecond, 500 * time.Millisecond}}},
		{name: "500 twice, then success, with growing backoff",
			script: []step{status(500), status(500)}, requests: 3,
			waits: []span{{250 * time.Millisecond, 500 * time.Millisecond}, {500 * time.Millisecond, time.Second}}},
		{name: "408 is retried", script: []step{status(408)}, requests: 2, waits: []span{{250 * time.Millisecond, 500 * time.Millisecond}}},
		{name: "a dropped connection is retried", script: []step{{drop: true}}, requests: 2, waits: []span{{250 * time.Millisecond, 500 * time.Millisecond}}},
		{name: "500 until the attempts run out",
			script: []step{status(500), status(500), status(500)}, requests: 3,
			waits:  []span{{250 * time.Millisecond, 500 * time.Millisecond}, {500 * time.Millisecond, time.Second}},
			status: 500, attempts: 3, text: []string{"HTTP 500 Internal Server Error: http_status after 3 attempts: scripted Internal Server Error"}},
		{name: "more retries when configured",
			cfg:    openai.EmbedderConfig{MaxRetries: 4},
			script: []step{status(502), status(502), status(502), status(502)}, requests: 5,
			waits: []span{{250 * time.Millisecond, 500 * time.Millisecond}, {500 * time.Millisecond, time.Second},
				{time.Second, 2 * time.Second}, {2 * time.Second, 4 * time.Second}}},
		{name: "no retries when MaxRetries is negative",
			cfg:    openai.EmbedderConfig{MaxRetries: -1},
			script: []step{status(500)}, requests: 1, status: 500, attempts: 1},
		{name: "400 is not retried",
			script: []step{status(400)}, requests: 1, status: 400, attempts: 1, text: []string{"HTTP 400 Bad Request: http_status: scripted"}},
		{name: "401 is not retried", script: []step{status(401)}, requests: 1, status: 401, attempts: 1},
		{name: "501 is not retried", script: []step{status(501)}, requests: 1, status: 501, attempts: 1},
		{name: "a Retry-After beyond MaxRetryWait ends the call at once",
			script: []step{status(429, "Retry-After", "60")}, requests: 1, status: 429, attempts: 1, retryAfter: time.Minute,
			text: []string{"(retry after 1m0s)"}},
		{name: "waits add up to MaxRetryWait",
			cfg:    openai.EmbedderConfig{MaxRetries: 5, MaxRetryWait: 5 * time.Second},
			script: []step{status(429, "Retry-After", "3"), status(429, "Retry-After", "3")}, requests: 2,
			waits: []span{{3 * time.Second, 3 * time.Second}}, status: 429, attempts: 2, retryAfter: 3 * time.Second,
			text: []string{"after 2 attempts", "(retry after 3s)"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := newRetryServer(t, tt.script...)
			f := &fakeWaits{now: start}
			e := retryEmbedder(t, srv.URL, tt.cfg, f)
			v, err := e.EmbedStrings(t.Context(), []string{"a", "b"})
			if n := srv.count(); n != tt.requests {
				t.Errorf("%d requests, want %d", n, tt.requests)
			}
			waits := f.all()
			if len(waits) != len(tt.waits) {
				t.Errorf("waits %v, want %d within %v", waits, len(tt.waits), tt.waits)
			}
			for i, w := range waits[:min(len(waits), len(tt.waits))] {
				if w < tt.waits[i].lo || w > tt.waits[i].hi {
					t.Errorf("wait %d = %v, want within [%v, %v]", i, w, tt.waits[i].lo, tt.waits[i].hi)
				}
			}
			if tt.status == 0 {
				if diff := cmp.Diff([][]float64{{0, 1}, {1, 1}}, v); err != nil || diff != "" {
					t.Fatalf("err %v, vectors (-want +got):\n%s", err, diff)
				}
				return
			}
			var ee *openai.EmbedError
			if !errors.As(err, &ee) {
				t.Fatalf("EmbedStrings = %v, %v; want an *EmbedError", v, err)
			}
			got := [3]any{ee.Status, ee.Attempts, ee.RetryAfter}
			if diff := cmp.Diff([3]any{tt.status, tt.attempts, tt.retryAfter}, got); diff != "" {
				t.Errorf("status, attempts, retry-after (-want +got):\n%s", diff)
			}
			msg := err.Error()
			for _, s := range tt.text {
				if !strings.Contains(msg, s) {
					t.Errorf("error %q lacks %q", msg, s)
				}
			}
			if strings.Contains(msg, testKey) {
				t.Errorf("error %q contains the API key", msg)
			}
		})
	}
}

// TestOpenAIEmbedderRetryStopsForContext: the wait before a retry ends
// when ctx does, and a wait that would outlast ctx's deadline is not
// begun.
func TestOpenAIEmbedderRetryStopsForContext(t *testing.T) {
	t.Run("cancelled during the wait", func(t *testing.T) {
		srv := newRetryServer(t, step{status: 503, header: map[string]string{"Retry-After": "1"}})
		ctx, cancel := context.WithCancel(t.Context())
		f := &fakeWaits{now: time.Now()}
		e := retryEmbedder(t, srv.URL, openai.EmbedderConfig{}, f)
		// The wait blocks, as a real one would, until the caller cancels.
		openai.SetRetryClock(e, f.Now, func(ctx context.Context, d time.Duration) error {
			_ = f.Sleep(ctx, d)
			cancel()
			<-ctx.Done()
			return ctx.Err()
		})
		_, err := e.EmbedStrings(ctx, []string{"a"})
		var ee *openai.EmbedError
		if !errors.As(err, &ee) || ee.Reason != openai.EmbedReasonRequest || !errors.Is(err, context.Canceled) {
			t.Fatalf("err = %v, want a request *EmbedError wrapping context.Canceled", err)
		}
		for _, s := range []string{"interrupted while waiting to retry", "HTTP 503 Service Unavailable"} {
			if !strings.Contains(err.Error(), s) {
				t.Errorf("error %q lacks %q", err, s)
			}
		}
		if n := srv.count(); n != 1 {
			t.Errorf("%d requests, want 1", n)
		}
	})
	t.Run("a wait past the deadline is not begun", func(t *testing.T) {
		srv := newRetryServer(t, step{status: 429, header: map[string]string{"Retry-After": "120"}})
		now := time.Now()
		ctx, cancel := context.WithDeadline(t.Context(), now.Add(time.Minute))
		defer cancel()
		f := &fakeWaits{now: now}
		e := retryEmbedder(t, srv.URL, openai.EmbedderConfig{MaxRetryWait: time.Hour}, f)
		_, err := e.EmbedStrings(ctx, []string{"a"})
		var ee *openai.EmbedError
		if !errors.As(err, &ee) || ee.Status != 429 || ee.RetryAfter != 2*time.Minute {
			t.Fatalf("err = %v, want the 429 *EmbedError asking for 2m", err)
		}
		if w := f.all(); len(w) != 0 {
			t.Errorf("waited %v past the deadline", w)
		}
	})
}

// TestEmbedderConfigFromEnvMaxRetries: MCPFLEET_EMBED_MAX_RETRIES counts
// retries as an operator would (0 is none), and a value that is not a
// whole number is an error naming the variable and what it takes,
// alongside any missing variable.
func TestEmbedderConfigFromEnvMaxRetries(t *testing.T) {
	tests := []struct {
		name    string
		value   string
		base    string
		want    int
		bad     bool
		missing bool
	}{
		{name: "unset means the default", want: 0},
		{name: "a count", value: "5", want: 5},
		{name: "spaces around it", value: " 4 ", want: 4},
		{name: "zero turns retries off", value: "0", want: -1},
		{name: "negative turns retries off", value: "-2", want: -1},
		{name: "not a number", value: "three", bad: true},
		{name: "a duration is not a count", value: "3s", bad: true},
		{name: "reported with a missing endpoint", value: "x", base: "-", bad: true, missing: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := map[string]string{"MCPFLEET_EMBED_MODEL": "e5", "OPENAI_BASE_URL": "http://localhost:8081/v1", "MCPFLEET_EMBED_MAX_RETRIES": tt.value}
			if tt.base == "-" {
				delete(env, "OPENAI_BASE_URL")
			}
			c, err := openai.EmbedderConfigFromEnv(func(k string) string { return env[k] })
			var ve *openai.EnvValueError
			var me *openai.MissingEnvError
			if got := errors.As(err, &ve); got != tt.bad {
				t.Fatalf("err = %v; EnvValueError %v, want %v", err, got, tt.bad)
			}
			if got := errors.As(err, &me); got != tt.missing {
				t.Errorf("err = %v; MissingEnvError %v, want %v", err, got, tt.missing)
			}
			if tt.bad {
				want := `eino: MCPFLEET_EMBED_MAX_RETRIES: got "` + tt.value + `", want a whole number of retries, 0 for none`
				if ve.Error() != want {
					t.Errorf("error %q, want %q", ve, want)
				}
				return
			}
			if c.MaxRetries != tt.want {
				t.Errorf("MaxRetries = %d, want %d", c.MaxRetries, tt.want)
			}
		})
	}
}
