package mcpfleet

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpfleet/mcpfleet/internal/offload"
	"github.com/mcpfleet/mcpfleet/internal/tokens"
)

// ErrBadPattern is returned by GrepResult for a pattern that is not RE2.
var ErrBadPattern = errors.New("mcpfleet: bad grep pattern")

// Offload describes a result that left the context.
type Offload struct {
	Handle string
	Bytes  int
	Lines  int
	// Tokens is the o200k count of the stored text, like Bytes and Lines,
	// or 0 when that text is over 12 bytes per threshold token and was not
	// counted: tokenizing a 50 MB text would cost more than the call.
	Tokens int
}

// Offloading reports whether large results are offloaded, so that adapters
// know to offer the readResult and grepResult tools.
func (m *Mux) Offloading() bool { return m.store != nil }

// offloaded is a result moved to the store: the stored text, the
// Offload that names it (Handle "" when the store failed), and what the
// preview says of the parts that went with it.
type offloaded struct {
	text      string
	off       *Offload
	fate      structuredFate
	resources int
}

// offload stores what a model would read of a result (rd, measured over
// limit by measure; tok its count, if measure counted) under a handle. A
// store that is down or full leaves the handle empty: the preview then
// says the rest could not be kept, since returning the result whole would
// flood the context it was to be kept out of (and a shared gateway's
// memory).
//
// The text is stored as it is: a text-only result is the very string
// mcp-go decoded, and measure, the preview and the store all read that
// one string (see readable.stored).
func (m *Mux) offload(ctx context.Context, c *Call, rd *readable, tok, limit int) offloaded {
	if rd.fate == structuredLost {
		m.log.Warn("offload: structuredContent is not JSON-encodable; dropped", "server", c.Server, "tool", c.Tool)
	}
	text := rd.stored()
	h, err := m.store.Put(ctx, StoredResult{Server: c.Server, Tool: c.Tool, Owner: CallerFrom(ctx), Text: text})
	off := &Offload{Handle: h, Bytes: len(text), Lines: offload.Lines(text), Tokens: storedTokens(text, rd, tok, limit)}
	if err != nil {
		m.log.Warn("offload failed; returning a preview only", "server", c.Server, "tool", c.Tool, "err", err)
		off.Handle = ""
	} else if m.near != nil {
		m.near.keep(h, StoredResult{Server: c.Server, Tool: c.Tool, Owner: CallerFrom(ctx), Text: text})
	}
	if m.opts.metrics != nil && off.Handle != "" {
		m.opts.metrics.Offloaded(ctx, c, int64(len(text)))
	}
	return offloaded{text: text, off: off, fate: rd.fate, resources: len(rd.resources)}
}

// offloadedResult is r with what went into the store replaced by preview.
// Towards the caller an offloaded result carries the preview, the parts
// that are not stored (images, audio, blobs, resource links), and _meta,
// which names the handle under offloadMetaKey. Its structuredContent is
// in the store, not in the result: in no representation mcp-go serializes
// (see exactStructured). Keeping a read part aside would return the very
// bulk offloading exists to keep out of the context, and would need a
// second way to read a handle.
func offloadedResult(r *mcp.CallToolResult, o offloaded, preview string) *mcp.CallToolResult {
	out := *r
	out.StructuredContent, out.RawStructuredContent = nil, nil // stored, named in the preview
	out.Meta = offloadMeta(r.Meta, o.off)
	out.Content = make([]mcp.Content, 1, len(r.Content)+1)
	out.Content[0] = mcp.NewTextContent(preview)
	for _, ct := range r.Content {
		if !storedPart(ct) {
			out.Content = append(out.Content, ct)
		}
	}
	return &out
}

// offloadMetaKey names the offload in an offloaded result's _meta:
// {"handle", "bytes", "lines"}, for clients that act on it in code.
const offloadMetaKey = "mcpfleet/offload"

// offloadMeta is meta, copied, with the offload named under
// offloadMetaKey; the server's own fields are kept.
func offloadMeta(meta *mcp.Meta, off *Offload) *mcp.Meta {
	out := &mcp.Meta{AdditionalFields: map[string]any{}}
	if meta != nil {
		out.ProgressToken = meta.ProgressToken
		for k, v := range meta.AdditionalFields {
			out.AdditionalFields[k] = v
		}
	}
	out.AdditionalFields[offloadMetaKey] = map[string]any{"handle": off.Handle, "bytes": off.Bytes, "lines": off.Lines}
	return out
}

// storedTokens is Offload.Tokens: the o200k count of the stored text, or 0
// when that text is over the threshold×bytesPerTokenCeiling bytes and was
// not counted, because counting a 50 MB text costs more time than the call.
// A text-only result was counted by measure already, as this very string.
func storedTokens(text string, rd *readable, tok, limit int) int {
	if len(text) > countCeiling(limit) {
		return 0
	}
	if tok > 0 && len(rd.resources) == 0 && rd.fate != structuredStored {
		return tok
	}
	return tokens.Count(text)
}

// storedPart reports whether ct went into the stored text: text blocks and
// embedded text resources.
func storedPart(ct mcp.Content) bool {
	switch t := ct.(type) {
	case mcp.TextContent:
		return true
	case mcp.EmbeddedResource:
		_, ok := textOf(t.Resource)
		return ok
	}
	return false
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

// encodeJSON is json.Marshal with HTML escaping as chosen.
func encodeJSON(v any, escapeHTML bool) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(escapeHTML)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

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
// and enveloped like any tool output. Only the caller the result was
// offloaded for (CallerFrom of the call's ctx) may read it; for any other
// the error is that of an unknown handle.
func (m *Mux) ReadResult(ctx context.Context, handle string, offset, limit int) (string, error) {
	sr, p, err := m.readPage(ctx, handle, offset, limit)
	if err != nil {
		return "", err
	}
	c := &Call{Server: sr.Server, Tool: sr.Tool}
	return renderReadHeader(handle, sr, p) + m.envelope(ctx, c, p.Text, ""), nil
}

// GrepResult searches a stored result for lines matching pattern (Go RE2
// syntax), with up to context lines (at most 5) around each; at most 50
// matches and about 16 KiB are returned. Ownership is checked as in
// ReadResult.
func (m *Mux) GrepResult(ctx context.Context, handle, pattern string, context int) (string, error) {
	sr, g, err := m.grepStored(ctx, handle, pattern, context)
	if err != nil {
		return "", err
	}
	c := &Call{Server: sr.Server, Tool: sr.Tool}
	return renderGrepHeader(handle, sr, g) + m.envelope(ctx, c, renderMatches(g), ""), nil
}

// badPattern wraps a Search error so that callers match ErrBadPattern
// with errors.Is and reach the regexp's *syntax.Error with errors.As. It
// reads "mcpfleet: bad grep pattern "p": <why>. <advice>": the pattern
// is named once, after the sentinel's text.
func badPattern(err error) error {
	var pe *offload.PatternError
	if errors.As(err, &pe) {
		return fmt.Errorf("%w %q: %w. %s", ErrBadPattern, pe.Pattern, pe.Err, grepAdvice)
	}
	return fmt.Errorf("%w: %w. %s", ErrBadPattern, err, grepAdvice)
}

func (m *Mux) stored(ctx context.Context, handle string) (StoredResult, error) {
	if m.store == nil {
		return StoredResult{}, fmt.Errorf("%w: offloading is off", ErrResultNotFound)
	}
	sr, err := m.store.Get(ctx, strings.TrimSpace(handle))
	return m.owned(ctx, handle, sr, err)
}

// owned applies the owner check to what a store returned for handle.
func (m *Mux) owned(ctx context.Context, handle string, sr StoredResult, err error) (StoredResult, error) {
	// Another caller's result is refused with the very error of an unknown
	// handle, so that a handle seen in a log or a shared transcript says
	// nothing about whether it exists.
	if err == nil && sr.Owner != CallerFrom(ctx) {
		sr, err = StoredResult{}, ErrResultNotFound
	}
	if errors.Is(err, ErrResultNotFound) {
		return StoredResult{}, fmt.Errorf("%w %q: %s", ErrResultNotFound, brief(handle), notFoundAdvice)
	}
	return sr, err
}
