package upstream

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

// BigResultBytes is the size from which a tools/call answer on stdio is
// decoded by the transport itself instead of by mcp-go (see bigReader).
const BigResultBytes = 1 << 20

// A big answer to a tools/call is decoded here, not by mcp-go, because
// mcp-go's stdio transport and CallToolResult decoder allocate a message of
// L bytes about nine times over (the line read as a string, two []byte
// conversions of it, the result as json.RawMessage, each content part and
// structuredContent copied again as raw bytes, and the decoded strings),
// and several of those copies are alive together: for a 40 MB answer the
// heap peaks at about 200 MB more than the answer. bigReader reads the
// line once (in blocks, joined once) and decodes the result from it
// without copying raw bytes; mcp-go gets a small stand-in answer with the same
// id, and the decoded result reaches the caller through the call's
// context (WithBigResult), handed over by bigStdio.SendRequest.
//
// Only answers a caller waits for through WithBigResult are diverted, and
// only final ones (no input requests): anything else passes through
// byte for byte.

// BigResult receives a result decoded by the transport. Get it with
// WithBigResult, pass the context to the client's CallTool, and call Take
// on what CallTool returned.
type BigResult struct {
	r *mcp.CallToolResult
}

type bigResultKey struct{}

// WithBigResult returns ctx carrying a BigResult for one tools/call.
func WithBigResult(ctx context.Context) (context.Context, *BigResult) {
	b := &BigResult{}
	return context.WithValue(ctx, bigResultKey{}, b), b
}

// Take returns the result the transport decoded in place of the stand-in
// r, or r when the answer was not diverted. Take is called once, after
// CallTool returned.
func (b *BigResult) Take(r *mcp.CallToolResult) *mcp.CallToolResult {
	if b == nil || b.r == nil || r == nil {
		return r
	}
	out := b.r
	b.r = nil
	return out
}

// bigStash holds diverted results between the reader and the waiting
// SendRequest, by request id. An id is stashed only while a SendRequest
// waits for it, so an answer that comes after its caller gave up is not
// kept.
type bigStash struct {
	mu      sync.Mutex
	waiting map[string]*mcp.CallToolResult
}

func newBigStash() *bigStash {
	return &bigStash{waiting: map[string]*mcp.CallToolResult{}}
}

func (s *bigStash) wait(id string) {
	s.mu.Lock()
	s.waiting[id] = nil
	s.mu.Unlock()
}

func (s *bigStash) waits(id string) bool {
	s.mu.Lock()
	_, ok := s.waiting[id]
	s.mu.Unlock()
	return ok
}

// put stashes r for id; false when no one waits for id.
func (s *bigStash) put(id string, r *mcp.CallToolResult) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.waiting[id]; !ok {
		return false
	}
	s.waiting[id] = r
	return true
}

// done ends the wait for id and returns what was stashed for it.
func (s *bigStash) done(id string) *mcp.CallToolResult {
	s.mu.Lock()
	r := s.waiting[id]
	delete(s.waiting, id)
	s.mu.Unlock()
	return r
}

// bigStdio is mcp-go's stdio transport with diverted answers handed over:
// a tools/call whose context carries a BigResult waits for its id in the
// stash, and gets the stashed result in its BigResult.
type bigStdio struct {
	*transport.Stdio
	stash *bigStash
}

func (t *bigStdio) SendRequest(ctx context.Context, req transport.JSONRPCRequest) (*transport.JSONRPCResponse, error) {
	b, _ := ctx.Value(bigResultKey{}).(*BigResult)
	if b == nil || req.Method != string(mcp.MethodToolsCall) {
		return t.Stdio.SendRequest(ctx, req)
	}
	id := req.ID.String()
	t.stash.wait(id)
	res, err := t.Stdio.SendRequest(ctx, req)
	if r := t.stash.done(id); r != nil && err == nil {
		b.r = r
	}
	return res, err
}

// bigReader passes a server's newline-framed messages through to mcp-go,
// except a tools/call answer of BigResultBytes or more that a caller
// waits for: that one it decodes, stashes, and replaces with a stand-in
// answer of the same id (an empty result, isError kept).
type bigReader struct {
	src   *bufio.Reader
	stash *bigStash
	line  lineBlocks // a long line being read
	out   []byte
	err   error
}

// lineBlocks holds a long line as it is read, in blocks that double up to
// lineBlock bytes: joined once at the end, it costs its size twice for a
// moment, where a doubling buffer would hold up to twice its size until
// it is decoded, and more while growing.
type lineBlocks struct {
	blocks [][]byte
	n      int
}

const lineBlock = 1 << 20

func (l *lineBlocks) add(b []byte) {
	l.n += len(b)
	for len(b) > 0 {
		k := len(l.blocks) - 1
		if k < 0 || len(l.blocks[k]) == cap(l.blocks[k]) {
			size := 4 << 10
			if k >= 0 {
				size = min(lineBlock, 2*cap(l.blocks[k]))
			}
			l.blocks = append(l.blocks, make([]byte, 0, size))
			k++
		}
		room := cap(l.blocks[k]) - len(l.blocks[k])
		c := min(room, len(b))
		l.blocks[k] = append(l.blocks[k], b[:c]...)
		b = b[c:]
	}
}

// join returns the line with b appended, and empties l.
func (l *lineBlocks) join(b []byte) []byte {
	line := make([]byte, 0, l.n+len(b))
	for _, blk := range l.blocks {
		line = append(line, blk...)
	}
	*l = lineBlocks{}
	return append(line, b...)
}

func newBigReader(src io.Reader, stash *bigStash) *bigReader {
	// A small buffer: it is held per server for the connection's life,
	// and longer lines are gathered in lineBlocks anyway.
	return &bigReader{src: bufio.NewReaderSize(src, 4<<10), stash: stash}
}

// Read implements io.Reader.
func (d *bigReader) Read(p []byte) (int, error) {
	for len(d.out) == 0 {
		if d.err != nil {
			if d.line.n > 0 { // the source ended inside a line
				d.out = d.line.join(nil)
				break
			}
			return 0, d.err
		}
		chunk, err := d.src.ReadSlice('\n')
		switch {
		case err == bufio.ErrBufferFull:
			d.line.add(chunk)
		case err != nil:
			d.err = err
			d.line.add(chunk)
		case d.line.n == 0: // a whole line in the buffer: the usual case
			d.out = chunk
		default:
			d.out = d.divert(d.line.join(chunk))
		}
	}
	n := copy(p, d.out)
	if d.out = d.out[n:]; len(d.out) == 0 {
		d.out = nil // a joined line is not kept while the server is idle
	}
	return n, nil
}

// raw is a JSON value in bigReader's line, kept without a copy: the line
// is never reused.
type raw []byte

func (r *raw) UnmarshalJSON(b []byte) error {
	*r = b
	return nil
}

// divert returns what mcp-go reads for the complete line: the line
// itself, or the stand-in for an answer it decoded and stashed.
func (d *bigReader) divert(line []byte) []byte {
	if len(line) < BigResultBytes {
		return line
	}
	var msg struct {
		ID     *mcp.RequestId `json:"id"`
		Method string         `json:"method"`
		Result raw            `json:"result"`
		Error  raw            `json:"error"`
	}
	if json.Unmarshal(line, &msg) != nil || msg.ID == nil || msg.Method != "" ||
		len(msg.Result) == 0 || msg.Result[0] != '{' || len(msg.Error) > 0 {
		return line
	}
	id := msg.ID.String()
	if !d.stash.waits(id) {
		return line
	}
	r, ok := decodeCallToolResult(msg.Result)
	if !ok || !d.stash.put(id, r) {
		return line
	}
	idJSON, err := json.Marshal(msg.ID)
	if err != nil {
		return line
	}
	stub := append([]byte(`{"jsonrpc":"2.0","id":`), idJSON...)
	stub = append(stub, `,"result":{"content":[],"isError":`...)
	stub = strconv.AppendBool(stub, r.IsError)
	return append(stub, "}}\n"...)
}

// decodeCallToolResult decodes a tools/call result as mcp-go's
// CallToolResult.UnmarshalJSON does, without its copies of raw bytes. A
// structuredContent that only repeats text blocks byte for byte is not
// decoded again: it shares their strings (see sharedStructured). False for
// a result that is not final or does not decode: mcp-go then reads it
// itself.
func decodeCallToolResult(data []byte) (*mcp.CallToolResult, bool) {
	var w struct {
		Meta              *mcp.Meta         `json:"_meta,omitempty"`
		ResultType        mcp.ResultType    `json:"resultType,omitempty"`
		Content           []raw             `json:"content"`
		StructuredContent raw               `json:"structuredContent,omitempty"`
		IsError           bool              `json:"isError,omitempty"`
		InputRequests     mcp.InputRequests `json:"inputRequests,omitempty"`
		RequestState      string            `json:"requestState,omitempty"`
	}
	if json.Unmarshal(data, &w) != nil || !w.ResultType.IsComplete() || len(w.InputRequests) > 0 || w.RequestState != "" {
		return nil, false
	}
	r := &mcp.CallToolResult{IsError: w.IsError}
	r.Meta, r.ResultType = w.Meta, w.ResultType
	texts := make([]raw, len(w.Content)) // the "text" of each text block
	if len(w.Content) > 0 {
		r.Content = make([]mcp.Content, len(w.Content))
		for i, item := range w.Content {
			if tc, text, ok := decodeText(item); ok {
				r.Content[i], texts[i] = tc, text
				continue
			}
			ct, err := mcp.UnmarshalContent(item)
			if err != nil {
				return nil, false
			}
			r.Content[i] = ct
		}
	}
	if len(w.StructuredContent) > 0 {
		if v, ok := sharedStructured(w.StructuredContent, texts, r.Content); ok {
			r.StructuredContent = v
		} else {
			if json.Unmarshal(w.StructuredContent, &r.StructuredContent) != nil {
				return nil, false
			}
			r.RawStructuredContent = bytes.Clone(w.StructuredContent)
		}
	}
	return r, true
}

// sharedStructured decodes structuredContent sc when it is an object of at
// most 8 members whose values are each, byte for byte, the "text" of a
// text block (texts[i], as decodeText found it, for content[i]) (the filesystem server's read_text_file answers {"content":
// <the text>}): the values are the blocks' decoded strings, shared, not
// decoded again. Its raw bytes are not kept: a value of strings decodes
// exactly, and the Mux drops them for such a result (exactStructured).
func sharedStructured(sc raw, texts []raw, content []mcp.Content) (map[string]any, bool) {
	if sc[0] != '{' {
		return nil, false
	}
	var members map[string]raw
	if json.Unmarshal(sc, &members) != nil || len(members) == 0 || len(members) > 8 {
		return nil, false
	}
	out := make(map[string]any, len(members))
	for k, v := range members {
		if len(v) < 3 || v[0] != '"' {
			return nil, false
		}
		i := slices.IndexFunc(texts, func(t raw) bool { return bytes.Equal(t, v) })
		if i < 0 {
			return nil, false
		}
		out[k] = content[i].(mcp.TextContent).Text
	}
	return out, true
}

// decodeText decodes a content part of type "text" as mcp-go does (into
// mcp.TextContent), but unquotes its text once, into the string it keeps
// (see unquote), where encoding/json would build it twice for a text with
// escapes. It returns the raw "text" too. False for any other part, or
// one whose text is not a string: mcp.UnmarshalContent decodes those.
func decodeText(item raw) (mcp.TextContent, raw, bool) {
	var kind struct {
		Type any `json:"type"`
	}
	if json.Unmarshal(item, &kind) != nil || kind.Type != mcp.ContentTypeText {
		return mcp.TextContent{}, nil, false
	}
	// The outer Text hides the embedded one: the text stays raw.
	var w struct {
		mcp.TextContent
		Text raw `json:"text"`
	}
	if json.Unmarshal(item, &w) != nil {
		return mcp.TextContent{}, nil, false
	}
	tc := w.TextContent
	switch {
	case w.Text == nil || string(w.Text) == "null":
	case w.Text[0] == '"':
		s, ok := unquote(w.Text)
		if !ok {
			return mcp.TextContent{}, nil, false
		}
		tc.Text = s
	default:
		return mcp.TextContent{}, nil, false
	}
	return tc, w.Text, true
}

// unquote decodes the JSON string s exactly as encoding/json does (its
// unquoteBytes: the same escapes, surrogate pairs, and ill-formed UTF-8
// coerced to U+FFFD), writing straight into the string it returns. A first
// pass measures the string, so that it holds no spare capacity: it may be
// kept for long (an offloaded result).
func unquote(s []byte) (string, bool) {
	if len(s) < 2 || s[0] != '"' || s[len(s)-1] != '"' {
		return "", false
	}
	s = s[1 : len(s)-1]
	var n sink
	if !unquoteTo(&n, s) {
		return "", false
	}
	b := sink{b: new(strings.Builder)}
	b.b.Grow(n.n)
	unquoteTo(&b, s)
	return b.b.String(), true
}

// sink counts what unquoteTo writes, and writes it to b when b is set.
type sink struct {
	b *strings.Builder
	n int
}

func (w *sink) write(p []byte) {
	if w.b != nil {
		w.b.Write(p)
	}
	w.n += len(p)
}

func (w *sink) writeByte(c byte) {
	if w.b != nil {
		w.b.WriteByte(c)
	}
	w.n++
}

func (w *sink) writeRune(r rune) {
	if w.b != nil {
		w.b.WriteRune(r)
	}
	if l := utf8.RuneLen(r); l > 0 {
		w.n += l
	} else {
		w.n += utf8.RuneLen(utf8.RuneError)
	}
}

// unquoteTo writes the decoded JSON string body s to w; false when s is
// not a valid one.
func unquoteTo(w *sink, s []byte) bool {
	for r := 0; r < len(s); {
		j := r
		for j < len(s) && s[j] != '\\' && s[j] != '"' && s[j] >= ' ' && s[j] < utf8.RuneSelf {
			j++
		}
		w.write(s[r:j])
		if r = j; r == len(s) {
			break
		}
		switch c := s[r]; {
		case c == '\\':
			r++
			if r >= len(s) {
				return false
			}
			switch s[r] {
			case '"', '\\', '/', '\'':
				w.writeByte(s[r])
			case 'b':
				w.writeByte('\b')
			case 'f':
				w.writeByte('\f')
			case 'n':
				w.writeByte('\n')
			case 'r':
				w.writeByte('\r')
			case 't':
				w.writeByte('\t')
			case 'u':
				rr := getu4(s[r-1:])
				if rr < 0 {
					return false
				}
				r += 5
				if utf16.IsSurrogate(rr) {
					if dec := utf16.DecodeRune(rr, getu4(s[r:])); dec != unicode.ReplacementChar {
						r += 6
						w.writeRune(dec)
						continue
					}
					rr = unicode.ReplacementChar
				}
				w.writeRune(rr)
				continue
			default:
				return false
			}
			r++
		case c == '"', c < ' ':
			return false
		default:
			rr, size := utf8.DecodeRune(s[r:])
			r += size
			w.writeRune(rr)
		}
	}
	return true
}

// getu4 decodes \uXXXX from the start of s, or returns -1.
func getu4(s []byte) rune {
	if len(s) < 6 || s[0] != '\\' || s[1] != 'u' {
		return -1
	}
	var r rune
	for _, c := range s[2:6] {
		switch {
		case '0' <= c && c <= '9':
			c = c - '0'
		case 'a' <= c && c <= 'f':
			c = c - 'a' + 10
		case 'A' <= c && c <= 'F':
			c = c - 'A' + 10
		default:
			return -1
		}
		r = r*16 + rune(c)
	}
	return r
}
