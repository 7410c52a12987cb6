package upstream

import (
	"bytes"
	"io"
	"strconv"
)

// CutMetaKey names, in the _meta of a result that was cut, the object
// {"limit": L, "bytes": N}: the message was N bytes, over the limit of L
// bytes, and was cut to at most L. The Mux takes it out and tells the
// model.
const CutMetaKey = "mcpfleet/cut"

// cutReader passes a server's stream of JSON-RPC messages through,
// cutting any message longer than limit bytes before mcp-go reads it
// whole. A cut message stays valid JSON: the string it was cut in is
// closed, then every open array and object; the result object gains
// _meta[CutMetaKey] (a _meta the server sent before the cut is replaced
// by it); the rest of the message is read and dropped, except a top-level
// "id" that comes after the cut (the TypeScript SDK writes the id last),
// which is appended. So the call gets an answer of at most limit bytes and
// a few more, instead of the client holding the whole message several
// times over.
//
// Messages are found by their JSON, whatever frames them: a newline
// (stdio), an HTTP body, or SSE "data:" lines; bytes between messages pass
// through. A line that is not JSON (a server's stray log line) passes
// through to its end. Message bytes are forwarded as they are read, up to
// the last point where the message could be closed; only the few bytes of
// a key or number in progress wait for the next read. A message whose
// waiting bytes fill the buffer (a key of cutBufSize) passes through to
// the end of its line uncut.
type cutReader struct {
	src    io.Reader
	limit  int64
	buf    []byte // buf[:held] is scanned and waits to go out
	held   int
	outBuf []byte
	out    []byte
	srcErr error

	inMsg, skip, cut bool
	pos              int64 // message bytes scanned
	stack            []frame
	str              uint8 // strNone, strValue, strKey
	esc              int   // bytes left of an escape in a string
	escAt            int   // where that escape began in buf
	lit              bool  // in a number or true/false/null
	key              [8]byte
	keyLen           int  // len of the key being read; > len(key) when longer
	capID            bool // capturing the top-level id's value
	id               []byte
	idSent           bool
	safe, safeItems  int // the last closable point in buf, and the top frame's items there
	e                int // buf[e:] is not yet in outBuf
	// At the cut: the frames open, the top one's items, and whether the
	// cut was inside a value string.
	cutStack    []frame
	cutItems    int
	cutInString bool
}

const (
	strNone uint8 = iota
	strValue
	strKey
)

type frame struct {
	obj      bool
	items    int  // values begun
	keyDone  bool // in an object: a key was read, its value not begun
	valueKey int  // what the key before the value names: keyOther, keyResult, keyID
	result   bool // this object is the message's result
}

const (
	keyOther = iota
	keyResult
	keyID
)

const cutBufSize = 16 << 10

func newCutReader(src io.Reader, limit int64) *cutReader {
	return &cutReader{src: src, limit: limit}
}

// Read implements io.Reader.
func (c *cutReader) Read(p []byte) (int, error) {
	for len(c.out) == 0 {
		if c.srcErr != nil {
			if c.held > 0 { // the source ended inside a message
				c.out, c.held = append(c.outBuf[:0], c.buf[:c.held]...), 0
				break
			}
			return 0, c.srcErr
		}
		if c.buf == nil {
			c.buf = make([]byte, cutBufSize)
		}
		if c.held == len(c.buf) { // waiting bytes as large as the buffer
			c.out, c.held = append(c.outBuf[:0], c.buf...), 0
			c.resetMsg()
			c.skip = true
			break
		}
		n, err := c.src.Read(c.buf[c.held:])
		c.srcErr = err
		if n > 0 {
			c.out = c.scan(c.held, c.held+n)
		}
	}
	n := copy(p, c.out)
	c.out = c.out[n:]
	return n, nil
}

// scan scans buf[from:to] (buf[:from] is held from the last read) and
// returns what goes out now; the bytes that must wait are moved to the
// front of buf.
func (c *cutReader) scan(from, to int) []byte {
	c.outBuf = c.outBuf[:0]
	c.e, c.safe = 0, 0
	for i := from; i < to; {
		i = c.step(i, to)
	}
	switch {
	case c.cut:
		c.held = 0 // the rest of a cut message is dropped
	case c.inMsg && !c.skip:
		if c.str == strValue {
			c.safe, c.safeItems = c.stringCut(to), c.top().items
		}
		c.safe = max(c.safe, c.e)
		c.outBuf = append(c.outBuf, c.buf[c.e:c.safe]...)
		c.held = copy(c.buf, c.buf[c.safe:to])
		c.escAt -= c.safe
	default:
		c.outBuf = append(c.outBuf, c.buf[c.e:to]...)
		c.held = 0
	}
	return c.outBuf
}

// step scans from buf[i] and returns where to go on.
func (c *cutReader) step(i, to int) int {
	if c.skip {
		j := bytes.IndexByte(c.buf[i:to], '\n')
		if j < 0 {
			return to
		}
		c.skip = false
		return i + j + 1
	}
	if !c.inMsg {
		b := c.buf[i]
		if b != '{' && b != '[' {
			return i + 1
		}
		c.resetMsg()
		c.inMsg = true
		c.outBuf = append(c.outBuf, c.buf[c.e:i]...)
		c.e, c.safe = i, i
	}
	if !c.cut && c.pos >= c.limit {
		c.cutAt(i)
	}
	// Inside a string: jump to the next quote or backslash, no further
	// than the limit.
	if c.str != strNone && c.esc == 0 {
		end := to
		if !c.cut && c.pos+int64(end-i) > c.limit {
			end = i + int(c.limit-c.pos)
		}
		j := bytes.IndexAny(c.buf[i:end], `"\`)
		if j < 0 {
			c.run(i, end)
			return end
		}
		c.run(i, i+j)
		i += j
		if i == end { // the limit
			return i
		}
	}
	b := c.buf[i]
	c.pos++
	if c.str != strNone {
		if c.capID {
			c.id = append(c.id, b)
		}
		switch {
		case c.esc > 0:
			c.esc--
			if c.esc == 0 && b == 'u' && i == c.escAt+1 {
				c.esc = 4
			}
			if c.str == strKey {
				c.keyLen = len(c.key) + 1 // an escaped key is none we look for
			}
		case b == '\\':
			c.esc, c.escAt = 1, i
		case b == '"':
			if c.str == strKey {
				c.str = strNone
				f := c.top()
				f.keyDone = true
				f.valueKey = keyOther
				if len(c.stack) == 1 {
					switch {
					case c.keyLen == 6 && string(c.key[:6]) == "result":
						f.valueKey = keyResult
					case c.keyLen == 2 && string(c.key[:2]) == "id":
						f.valueKey = keyID
					}
				}
			} else {
				c.str = strNone
				c.valueDone(i + 1)
			}
		default:
			if c.str == strKey {
				c.keyByte(b)
			}
		}
		return i + 1
	}
	switch b {
	case ' ', '\t', '\r', '\n':
		if c.lit {
			c.valueDone(i)
		}
	case '{', '[':
		if c.lit || len(c.stack) > 0 && !c.valueBegin(b) {
			return c.invalid(i)
		}
		nf := frame{obj: b == '{'}
		if n := len(c.stack); n == 1 && c.stack[0].valueKey == keyResult && nf.obj {
			nf.result = true
		}
		c.stack = append(c.stack, nf)
		c.mark(i + 1)
	case '}', ']':
		if c.lit {
			c.valueDone(i)
		}
		f := c.top()
		if f == nil || f.obj != (b == '}') || f.keyDone {
			return c.invalid(i)
		}
		c.stack = c.stack[:len(c.stack)-1]
		if len(c.stack) == 0 {
			c.endMsg(i + 1)
			return i + 1
		}
		c.valueDone(i + 1)
	case ',':
		if c.lit {
			c.valueDone(i)
		}
	case ':':
		if f := c.top(); f == nil || !f.obj || !f.keyDone {
			return c.invalid(i)
		}
	case '"':
		if f := c.top(); f != nil && f.obj && !f.keyDone {
			c.str, c.keyLen = strKey, 0
			return i + 1
		}
		if !c.valueBegin(b) {
			return c.invalid(i)
		}
		c.str = strValue
	default:
		if c.lit {
			if c.capID {
				c.id = append(c.id, b)
			}
		} else {
			if !litStart(b) || !c.valueBegin(b) {
				return c.invalid(i)
			}
			c.lit = true
		}
	}
	return i + 1
}

func litStart(b byte) bool {
	return b == '-' || b >= '0' && b <= '9' || b == 't' || b == 'f' || b == 'n'
}

// run scans the plain string bytes buf[i:j]: a key's are kept, the id's
// captured.
func (c *cutReader) run(i, j int) {
	c.pos += int64(j - i)
	if c.str == strKey {
		for _, b := range c.buf[i:j] {
			c.keyByte(b)
		}
	}
	if c.capID {
		c.id = append(c.id, c.buf[i:j]...)
	}
}

func (c *cutReader) keyByte(b byte) {
	if c.keyLen < len(c.key) {
		c.key[c.keyLen] = b
	}
	c.keyLen++
}

func (c *cutReader) top() *frame {
	if len(c.stack) == 0 {
		return nil
	}
	return &c.stack[len(c.stack)-1]
}

// valueBegin counts a value, whose first byte is b, in the top frame;
// false where none may be. The top-level id's value is captured.
func (c *cutReader) valueBegin(b byte) bool {
	f := c.top()
	if f == nil {
		return false
	}
	if f.obj {
		if !f.keyDone {
			return false
		}
		f.keyDone = false
		if len(c.stack) == 1 && f.valueKey == keyID && b != '{' && b != '[' {
			c.capID, c.id, c.idSent = true, append(c.id[:0], b), false
		}
	}
	f.items++
	return true
}

// valueDone marks a value complete, closable at buf[i].
func (c *cutReader) valueDone(i int) {
	c.lit = false
	if c.capID && len(c.stack) == 1 {
		c.capID = false
		c.idSent = !c.cut
		if len(c.id) > 256 {
			c.id = c.id[:0]
		}
	}
	c.mark(i)
}

func (c *cutReader) mark(i int) {
	if !c.cut {
		c.safe = i
		if f := c.top(); f != nil {
			c.safeItems = f.items
		}
	}
}

// invalid gives up on a message that is not JSON: it and the rest of its
// line pass through as they are.
func (c *cutReader) invalid(i int) int {
	if c.cut {
		// Not JSON after the cut: close what was sent, and let the rest
		// of the line through.
		c.outBuf = c.appendTail(c.outBuf)
		c.e = i
	}
	c.resetMsg()
	c.skip = true
	return i
}

// endMsg ends a message at buf[i]; a cut one gets its closers.
func (c *cutReader) endMsg(i int) {
	if c.cut {
		c.outBuf = c.appendTail(c.outBuf)
		c.e = i
	}
	c.resetMsg()
}

func (c *cutReader) resetMsg() {
	c.inMsg, c.cut, c.lit, c.capID = false, false, false, false
	c.pos, c.str, c.esc, c.stack = 0, strNone, 0, c.stack[:0]
}

// appendTail appends what closes a cut message: the closing quote of the
// string it was cut in, the closers of the frames open at the cut, the
// result's _meta, and the id if it came after the cut.
func (c *cutReader) appendTail(t []byte) []byte {
	if c.cutInString {
		t = append(t, '"')
	}
	for k := len(c.cutStack) - 1; k >= 0; k-- {
		f := c.cutStack[k]
		items := f.items
		if k == len(c.cutStack)-1 {
			items = c.cutItems
		}
		if f.result {
			if items > 0 {
				t = append(t, ',')
			}
			t = append(t, `"_meta":{"`+CutMetaKey+`":{"limit":`...)
			t = strconv.AppendInt(t, c.limit, 10)
			t = append(t, `,"bytes":`...)
			t = strconv.AppendInt(t, c.pos, 10)
			t = append(t, "}}"...)
		}
		if k == 0 && f.obj && !c.idSent && len(c.id) > 0 && !c.capID {
			if items > 0 {
				t = append(t, ',')
			}
			t = append(t, `"id":`...)
			t = append(t, c.id...)
		}
		if f.obj {
			t = append(t, '}')
		} else {
			t = append(t, ']')
		}
	}
	return t
}

// stringCut is where a value string may be cut at or before buf[i]: not
// inside an escape nor a UTF-8 sequence.
func (c *cutReader) stringCut(i int) int {
	if c.esc > 0 {
		return c.escAt
	}
	for k := 0; k < 4 && i > c.e && c.buf[i-1]&0xC0 == 0x80; k++ {
		i--
	}
	if i > c.e && c.buf[i-1] >= 0xC0 {
		i-- // the lead byte of an unfinished rune
	}
	return i
}

// cutAt cuts the message at the limit, reached at buf[i]: what can be
// closed goes out; the rest of the message is scanned and dropped.
func (c *cutReader) cutAt(i int) {
	c.cutInString = c.str == strValue
	cut, items := c.safe, c.safeItems
	if c.cutInString {
		cut, items = c.stringCut(i), c.top().items
	}
	cut = max(cut, c.e)
	c.outBuf = append(c.outBuf, c.buf[c.e:cut]...)
	c.cutStack = append(c.cutStack[:0], c.stack...)
	c.cutItems = items
	c.cut = true
	c.e = i
}
