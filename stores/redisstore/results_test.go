package redisstore_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/mcpfleet/mcpfleet"
	"github.com/mcpfleet/mcpfleet/config"
	"github.com/mcpfleet/mcpfleet/internal/offload"
	"github.com/mcpfleet/mcpfleet/internal/testfleet"
	"github.com/mcpfleet/mcpfleet/internal/testservice"
	"github.com/mcpfleet/mcpfleet/stores/redisstore"
)

// open opens the stores on a fresh redis-server with the given bounds.
func open(t testing.TB, addr string, rs config.ResultStore) *redisstore.Stores {
	t.Helper()
	st := config.Store{Backend: config.StoreRedis, Redis: config.Redis{URL: "redis://" + addr, KeyPrefix: "test:", Timeout: 2 * time.Second}}
	s, err := redisstore.Open(t.Context(), st, rs)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// mixedText has short lines, empty lines and lines of 64–256 KiB, so that
// pages start and end on both sides of index entries in every way.
func mixedText(seed uint64, n int) string {
	r := rand.New(rand.NewPCG(seed, 1))
	var b strings.Builder
	for i := 0; b.Len() < n; i++ {
		switch r.IntN(20) {
		case 0:
			b.WriteString(strings.Repeat("L", 64<<10+r.IntN(3*64<<10)))
		case 1:
		default:
			fmt.Fprintf(&b, "line %d: %s", i, strings.Repeat("x", r.IntN(300)))
		}
		b.WriteByte('\n')
	}
	s := b.String()
	if seed%2 == 1 {
		s = strings.TrimSuffix(s, "\n") // a last line without a newline
	}
	return s
}

// TestReadLinesMatchesRead: every page ReadLines returns is exactly the
// lines offload.Read cuts from the whole text, whatever index entries
// the page spans.
func TestReadLinesMatchesRead(t *testing.T) {
	s := open(t, testservice.Redis(t), config.ResultStore{})
	ctx := t.Context()
	for seed := range uint64(4) {
		text := mixedText(seed, 600_000)
		h, err := s.Results.Put(ctx, mcpfleet.StoredResult{Server: "s", Tool: "t", Owner: "o", Text: text})
		if err != nil {
			t.Fatal(err)
		}
		whole, err := s.Results.Get(ctx, h)
		if err != nil || whole.Text != text || whole.Owner != "o" || whole.Server != "s" || whole.Tool != "t" {
			t.Fatalf("Get: err %v, owner %q, %d bytes; want the %d bytes put", err, whole.Owner, len(whole.Text), len(text))
		}
		total := offload.Lines(text)
		r := rand.New(rand.NewPCG(seed, 2))
		cases := [][2]int{{0, 1}, {0, 400}, {total - 1, 5}, {total, 3}, {total + 10, 3}, {0, total + 5}}
		for range 40 {
			cases = append(cases, [2]int{r.IntN(total), 1 + r.IntN(400)})
		}
		for _, c := range cases {
			sr, lines, err := s.Results.ReadLines(ctx, h, c[0], c[1])
			if err != nil {
				t.Fatalf("ReadLines(%d, %d): %v", c[0], c[1], err)
			}
			if lines != total {
				t.Fatalf("ReadLines lines = %d, want %d", lines, total)
			}
			want := linesOf(text, c[0], c[1])
			if sr.Text != want {
				t.Fatalf("seed %d ReadLines(%d, %d): %d bytes, want %d", seed, c[0], c[1], len(sr.Text), len(want))
			}
		}
	}
}

// linesOf cuts lines [from, from+n) the slow, obvious way.
func linesOf(text string, from, n int) string {
	parts := strings.SplitAfter(text, "\n")
	if parts[len(parts)-1] == "" {
		parts = parts[:len(parts)-1]
	}
	if from >= len(parts) {
		return ""
	}
	return strings.Join(parts[from:min(from+n, len(parts))], "")
}

func TestUnknownHandle(t *testing.T) {
	s := open(t, testservice.Redis(t), config.ResultStore{})
	if _, err := s.Results.Get(t.Context(), "r-000000000000"); !errors.Is(err, mcpfleet.ErrResultNotFound) {
		t.Errorf("Get: %v, want ErrResultNotFound", err)
	}
	if _, _, err := s.Results.ReadLines(t.Context(), "r-000000000000", 0, 10); !errors.Is(err, mcpfleet.ErrResultNotFound) {
		t.Errorf("ReadLines: %v, want ErrResultNotFound", err)
	}
}

// TestBudgetAndTTL: the budget holds across two clients of one Redis (two
// replicas), evicting the oldest; a result past its TTL is gone.
func TestBudgetAndTTL(t *testing.T) {
	addr := testservice.Redis(t)
	a := open(t, addr, config.ResultStore{MaxBytes: 3 << 20})
	b := open(t, addr, config.ResultStore{MaxBytes: 3 << 20})
	ctx := t.Context()
	mb := testfleet.BigText(1 << 20)
	var hs []string
	for i, s := range []*redisstore.Stores{a, b, a, b} {
		h, err := s.Results.Put(ctx, mcpfleet.StoredResult{Text: mb})
		if err != nil {
			t.Fatalf("put %d: %v", i, err)
		}
		hs = append(hs, h)
	}
	if _, err := b.Results.Get(ctx, hs[0]); !errors.Is(err, mcpfleet.ErrResultNotFound) {
		t.Errorf("the oldest result survived a 4 MB put into a 3 MB budget: %v", err)
	}
	for _, h := range hs[1:] {
		if _, err := a.Results.Get(ctx, h); err != nil {
			t.Errorf("Get %s: %v", h, err)
		}
	}
	if _, err := a.Results.Put(ctx, mcpfleet.StoredResult{Text: strings.Repeat("x", 3<<20+1)}); !errors.Is(err, redisstore.ErrTooLarge) {
		t.Errorf("Put over the whole budget: %v, want ErrTooLarge", err)
	}

	short := open(t, addr, config.ResultStore{TTL: 100 * time.Millisecond})
	h, err := short.Results.Put(ctx, mcpfleet.StoredResult{Text: "soon gone\n"})
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		_, err := short.Results.Get(ctx, h)
		if errors.Is(err, mcpfleet.ErrResultNotFound) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("a result with a 100ms TTL is still there after 5s: %v", err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func TestActivations(t *testing.T) {
	addr := testservice.Redis(t)
	a, b := open(t, addr, config.ResultStore{}), open(t, addr, config.ResultStore{})
	ctx := t.Context()
	if got, err := a.Activations.Load(ctx, "tok:1/conv"); err != nil || got != nil {
		t.Fatalf("Load of nothing = %v, %v; want nil, nil", got, err)
	}
	if err := a.Activations.Save(ctx, "tok:1/conv", []string{"kubernetes.pods_log", "gitlab.get_file"}); err != nil {
		t.Fatal(err)
	}
	got, err := b.Activations.Load(ctx, "tok:1/conv")
	if err != nil || strings.Join(got, ",") != "kubernetes.pods_log,gitlab.get_file" {
		t.Errorf("Load on another client = %v, %v", got, err)
	}
	if got, _ := b.Activations.Load(ctx, "tok:2/conv"); got != nil {
		t.Errorf("another caller's conversation sees %v", got)
	}
}

// TestOpenErrors: a malformed URL and an unreachable Redis fail at Open,
// naming the field, without the password.
func TestOpenErrors(t *testing.T) {
	port := testservice.FreePort(t) // nothing listens there
	tests := []struct {
		name, url, want string
		unreachable     bool
	}{
		{"malformed", "redis://u:hunter2@[::1", `store.redis.url: (unparsable URL): not a valid URL`, false},
		{"bad scheme", "http://u:hunter2@127.0.0.1:6379", `store.redis.url: http://u:xxxxx@127.0.0.1:6379: redis: invalid URL scheme: http`, false},
		{"unreachable", fmt.Sprintf("redis://u:hunter2@127.0.0.1:%d", port), "store.redis.url: redis://u:xxxxx@127.0.0.1:", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
			defer cancel()
			st := config.Store{Backend: config.StoreRedis, Redis: config.Redis{URL: tt.url, Timeout: 500 * time.Millisecond}}
			_, err := redisstore.Open(ctx, st, config.ResultStore{})
			var oe *redisstore.OpenError
			if !errors.As(err, &oe) || oe.Field != "store.redis.url" {
				t.Fatalf("Open: %v, want an *OpenError for store.redis.url", err)
			}
			if !strings.HasPrefix(err.Error(), tt.want) {
				t.Errorf("error = %q, want prefix %q", err, tt.want)
			}
			if strings.Contains(err.Error(), "hunter2") {
				t.Errorf("error shows the password: %v", err)
			}
			if got := errors.Is(err, redisstore.ErrUnreachable); got != tt.unreachable {
				t.Errorf("errors.Is(ErrUnreachable) = %v, want %v", got, tt.unreachable)
			}
		})
	}
}

// TestReadLinesAtIndexEdges: texts whose line counts sit on and around the
// index step, with and without a last newline, read page by page at every
// offset, match offload.Read's cut.
func TestReadLinesAtIndexEdges(t *testing.T) {
	s := open(t, testservice.Redis(t), config.ResultStore{})
	ctx := t.Context()
	step := redisstore.IndexStep
	for _, lines := range []int{0, 1, step - 1, step, step + 1, 2 * step, 3*step + 5} {
		for _, lastNewline := range []bool{true, false} {
			var b strings.Builder
			for i := range lines {
				fmt.Fprintf(&b, "%d:%s\n", i, strings.Repeat("y", i%7))
			}
			text := b.String()
			if !lastNewline {
				text = strings.TrimSuffix(text, "\n")
			}
			h, err := s.Results.Put(ctx, mcpfleet.StoredResult{Owner: "o", Text: text})
			if err != nil {
				t.Fatal(err)
			}
			total := offload.Lines(text)
			for from := 0; from <= total+1; from++ {
				for _, n := range []int{1, 2, step - 1, step, step + 1, 400} {
					sr, got, err := s.Results.ReadLines(ctx, h, from, n)
					if err != nil || got != total {
						t.Fatalf("%d lines: ReadLines(%d, %d): lines %d, err %v; want %d lines", lines, from, n, got, err, total)
					}
					if want := linesOf(text, from, n); sr.Text != want {
						t.Fatalf("%d lines (newline %v): ReadLines(%d, %d) = %q, want %q", lines, lastNewline, from, n, sr.Text, want)
					}
				}
			}
		}
	}
}
