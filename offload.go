package mcpfleet

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpfleet/mcpfleet/internal/offload"
	"github.com/mcpfleet/mcpfleet/internal/tokens"
)

// ResultStore keeps offloaded results. The Mux stores a result's full text
// when it is over the kind's offload_tokens and gives the model a handle;
// ReadResult and GrepResult read it back. Implementations must be safe for
// concurrent use; Get of an unknown or expired handle returns an error
// matching ErrResultNotFound.
type ResultStore interface {
	Put(ctx context.Context, r StoredResult) (handle string, err error)
	Get(ctx context.Context, handle string) (StoredResult, error)
}

// StoredResult is one offloaded result.
type StoredResult struct {
	Server string
	Tool   string
	Text   string
	Stored time.Time
}

// ErrResultNotFound is returned by ReadResult and GrepResult for a handle
// that is unknown, expired or evicted.
var ErrResultNotFound = errors.New("mcpfleet: no stored result under that handle")

// ErrBadPattern is returned by GrepResult for a pattern that is not RE2.
var ErrBadPattern = errors.New("mcpfleet: bad grep pattern")

// Offload describes a result that left the context.
type Offload struct {
	Handle string
	Bytes  int
	Lines  int
	// Tokens is the o200k count, or 0 when the result was so far over the
	// threshold that counting was skipped.
	Tokens int
}

// memoryStore adapts offload.Memory to ResultStore.
type memoryStore struct{ m *offload.Memory }

func (s memoryStore) Put(ctx context.Context, r StoredResult) (string, error) {
	return s.m.Put(ctx, offload.Item{Server: r.Server, Tool: r.Tool, Text: r.Text})
}

func (s memoryStore) Get(ctx context.Context, handle string) (StoredResult, error) {
	it, err := s.m.Get(ctx, handle)
	if errors.Is(err, offload.ErrNotFound) {
		return StoredResult{}, ErrResultNotFound
	}
	return StoredResult{Server: it.Server, Tool: it.Tool, Text: it.Text, Stored: it.Stored}, err
}

// Offloading reports whether large results are offloaded, so that adapters
// know to offer the readResult and grepResult tools.
func (m *Mux) Offloading() bool { return m.store != nil }

// bytesPerTokenCeiling is how many bytes one o200k token spans at most in
// any text worth counting; texts above threshold×this are offloaded without
// counting. Every token is at least one byte, so a text of at most threshold
// bytes is never over and is not counted either: only results near the
// threshold pay for tokenizing.
const bytesPerTokenCeiling = 12

// overThreshold reports whether text is over limit tokens, and the count if
// it had to count.
func overThreshold(n int, join func() string, limit int) (bool, int) {
	if n <= limit {
		return false, 0
	}
	if n > limit*bytesPerTokenCeiling {
		return true, 0
	}
	t := tokens.Count(join())
	return t > limit, t
}

// maybeOffload stores a result whose text is over the kind's threshold and
// returns a preview in its place. Non-text contents stay as they are.
func (m *Mux) maybeOffload(ctx context.Context, c *Call, r *mcp.CallToolResult) (*mcp.CallToolResult, *Offload, error) {
	if m.store == nil {
		return r, nil, nil
	}
	n, texts := 0, 0
	for _, ct := range r.Content {
		if t, ok := ct.(mcp.TextContent); ok {
			n += len(t.Text)
			texts++
		}
	}
	limit := m.cfg.OffloadTokens(c.Kind)
	join := func() string { return joinText(r.Content) }
	over, tok := overThreshold(n, join, limit)
	if !over {
		return r, nil, nil
	}
	text := join()
	h, err := m.store.Put(ctx, StoredResult{Server: c.Server, Tool: c.Tool, Text: text})
	if err != nil {
		// Losing the result would be worse than a large context: say so
		// and return it whole.
		m.log.Warn("offload failed; returning the result whole", "server", c.Server, "tool", c.Tool, "err", err)
		return r, nil, nil
	}
	off := &Offload{Handle: h, Bytes: len(text), Lines: offload.Lines(text), Tokens: tok}
	if m.opts.metrics != nil {
		m.opts.metrics.Offloaded(ctx, c, int64(len(text)))
	}
	out := *r
	// structuredContent usually repeats the text; it would bring the
	// whole result back into the context.
	out.StructuredContent = nil
	out.Content = make([]mcp.Content, 0, len(r.Content)-texts+1)
	out.Content = append(out.Content, mcp.NewTextContent(m.preview(ctx, c, text, off, limit)))
	for _, ct := range r.Content {
		if _, ok := ct.(mcp.TextContent); !ok {
			out.Content = append(out.Content, ct)
		}
	}
	return &out, off, nil
}

func joinText(cs []mcp.Content) string {
	// The usual case, one text block, costs no copy: a 50 MB result is
	// stored as the very string mcp-go decoded.
	var only *mcp.TextContent
	for i := range cs {
		if t, ok := cs[i].(mcp.TextContent); ok {
			if only != nil {
				only = nil
				goto join
			}
			only = &t
		}
	}
	if only != nil {
		return only.Text
	}
join:
	var b strings.Builder
	first := true
	for _, ct := range cs {
		if t, ok := ct.(mcp.TextContent); ok {
			if !first {
				b.WriteByte('\n')
			}
			b.WriteString(t.Text)
			first = false
		}
	}
	return b.String()
}

// preview renders the head and tail of an offloaded text, each bounded in
// lines and bytes, scaled down for small thresholds.
func (m *Mux) preview(ctx context.Context, c *Call, text string, off *Offload, limit int) string {
	headBytes, tailBytes := min(2000, limit*2), min(800, limit)
	head := offload.Read(text, 0, previewHeadLines)
	headText := clip(head.Text, headBytes)
	tail := offload.Tail(text, min(previewTailLines, max(off.Lines-head.To, 0)))
	tailText := clipStart(tail.Text, tailBytes)
	var b strings.Builder
	b.WriteString(renderOffloadNote(c.Server, c.Tool, off))
	b.WriteString(m.envelope(ctx, c, headText, fmt.Sprintf("first %d lines", offload.Lines(headText))))
	if tail.To >= tail.From && tailText != "" {
		b.WriteString("\n")
		b.WriteString(m.envelope(ctx, c, tailText, fmt.Sprintf("last %d lines", offload.Lines(tailText))))
	}
	return b.String()
}

const (
	previewHeadLines = 40
	previewTailLines = 15
)

// clip cuts s to at most n bytes at a line end if there is one, else at a
// rune boundary.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	if i := strings.LastIndexByte(s[:n], '\n'); i > 0 {
		return s[:i+1]
	}
	for n > 0 && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n] + "…"
}

// clipStart keeps the last n bytes of s, from a line start if possible.
func clipStart(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := s[len(s)-n:]
	if i := strings.IndexByte(cut, '\n'); i >= 0 && i < len(cut)-1 {
		return cut[i+1:]
	}
	i := len(s) - n
	for i < len(s) && s[i]&0xC0 == 0x80 {
		i++
	}
	return "…" + s[i:]
}

// ReadResult returns lines [offset, offset+limit) of a stored result
// (offset counts from 0; at most 400 lines and about 24 KiB), neutralized
// and enveloped like any tool output.
func (m *Mux) ReadResult(ctx context.Context, handle string, offset, limit int) (string, error) {
	sr, err := m.stored(ctx, handle)
	if err != nil {
		return "", err
	}
	p := offload.Read(sr.Text, offset, limit)
	c := &Call{Server: sr.Server, Tool: sr.Tool}
	return renderReadHeader(handle, sr, p) + m.envelope(ctx, c, p.Text, ""), nil
}

// GrepResult searches a stored result for lines matching pattern (Go RE2
// syntax), with up to context lines (at most 5) around each; at most 50
// matches and about 16 KiB are returned.
func (m *Mux) GrepResult(ctx context.Context, handle, pattern string, context int) (string, error) {
	sr, err := m.stored(ctx, handle)
	if err != nil {
		return "", err
	}
	g, err := offload.Search(sr.Text, pattern, context)
	if err != nil {
		return "", fmt.Errorf("%w: %v. %s", ErrBadPattern, err, grepAdvice)
	}
	c := &Call{Server: sr.Server, Tool: sr.Tool}
	return renderGrepHeader(handle, sr, g) + m.envelope(ctx, c, renderMatches(g), ""), nil
}

func (m *Mux) stored(ctx context.Context, handle string) (StoredResult, error) {
	if m.store == nil {
		return StoredResult{}, fmt.Errorf("%w: offloading is off", ErrResultNotFound)
	}
	sr, err := m.store.Get(ctx, strings.TrimSpace(handle))
	if errors.Is(err, ErrResultNotFound) {
		return StoredResult{}, fmt.Errorf("%w %q: %s", ErrResultNotFound, brief(handle), notFoundAdvice)
	}
	return sr, err
}
