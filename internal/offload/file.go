package offload

import (
	"bufio"
	"bytes"
	"io"
	"os"
	"sort"
	"strings"
	"unsafe"
)

// File is a stored text kept in a temporary file instead of in memory,
// read back a page or a block at a time. Its file has no name: Spill
// removes the name right after creating it, so nothing is left behind
// when the process ends, however it ends; the space is freed when the
// File is closed. A File is safe for concurrent use; a read that meets a
// closed File returns an error matching os.ErrClosed.
type File struct {
	f     *os.File
	size  int64
	lines int
	// index marks a line start about every indexBytes bytes, so that a
	// page deep in the text reads from the mark before it.
	index []mark
}

type mark struct {
	line int // 0-based
	off  int64
}

const (
	// indexBytes is how far apart File's line marks are.
	indexBytes = 64 << 10
	// searchBlock is how much of a File Search reads at a time.
	searchBlock = 256 << 10
)

// Spill writes text into a new temporary file in dir (os.TempDir() when
// dir is ""), whose name it removes at once, and returns it as a File.
// The text is written as it is, and the File keeps no copy of it.
func Spill(dir, text string) (*File, error) {
	if dir == "" {
		dir = os.TempDir()
	}
	f, err := os.CreateTemp(dir, "mcpfleet-result-*")
	if err != nil {
		return nil, err
	}
	if err := os.Remove(f.Name()); err != nil {
		// A system that cannot remove an open file's name (Windows): close
		// it and remove it, so that nothing is left behind.
		_ = f.Close()
		_ = os.Remove(f.Name())
		return nil, err
	}
	if _, err := f.WriteString(text); err != nil {
		_ = f.Close()
		return nil, err
	}
	return &File{f: f, size: int64(len(text)), lines: Lines(text), index: markLines(text)}, nil
}

// markLines marks the start of line 0, then the first line start at
// least indexBytes past the previous mark, and so on.
func markLines(text string) []mark {
	idx := []mark{{}}
	last, line := 0, 0
	for {
		from := last + indexBytes - 1 // a newline here or later starts a line at least indexBytes on
		if from >= len(text) {
			return idx
		}
		j := strings.IndexByte(text[from:], '\n')
		if j < 0 || from+j+1 >= len(text) {
			return idx
		}
		pos := from + j + 1
		line += strings.Count(text[last:pos], "\n")
		idx = append(idx, mark{line: line, off: int64(pos)})
		last = pos
	}
}

// Size is the text's length in bytes.
func (f *File) Size() int64 { return f.size }

// Lines is the text's line count, as Lines counts it.
func (f *File) Lines() int { return f.lines }

// Close closes the file, which frees its space.
func (f *File) Close() error { return f.f.Close() }

// Text reads the whole text back into memory.
func (f *File) Text() (string, error) {
	var b strings.Builder
	b.Grow(int(f.size))
	if _, err := io.Copy(&b, io.NewSectionReader(f.f, 0, f.size)); err != nil {
		return "", err
	}
	return b.String(), nil
}

// Read is the package's Read of the text: lines [offset, offset+limit),
// read from the file from the last mark at or before offset. A line is
// held only up to where Read cuts it.
func (f *File) Read(offset, limit int) (Page, error) {
	offset = max(offset, 0)
	k := sort.Search(len(f.index), func(i int) bool { return f.index[i].line > offset }) - 1
	m := f.index[k]
	s := &lineScanner{br: bufio.NewReaderSize(io.NewSectionReader(f.f, m.off, f.size-m.off), 32<<10)}
	for i := m.line; i < offset; i++ {
		if _, _, ok := s.next(); !ok {
			break
		}
	}
	p := page(s.next, offset, limit, f.lines)
	return p, s.err
}

// Search is the package's Search of the text, fed to a Searcher a block
// of whole lines at a time: a grep holds about one block of the text.
func (f *File) Search(pattern string, context int) (Grep, error) {
	s, err := NewSearcher(pattern, context)
	if err != nil {
		return Grep{}, err
	}
	if err := f.blocks(s.Feed); err != nil {
		return Grep{}, err
	}
	return s.Result(), nil
}

// blocks calls fn with the text in pieces of whole lines of about
// searchBlock bytes each; a piece is longer when one line is.
func (f *File) blocks(fn func(piece string)) error {
	var carry []byte // the start of a line the last block cut
	for off := int64(0); off < f.size; {
		// Read at least as much again as the carried line start, so that a
		// line of any length costs reads of doubling size, not quadratic
		// copying.
		n := min(int64(max(searchBlock, len(carry))), f.size-off)
		buf := make([]byte, len(carry)+int(n))
		copy(buf, carry)
		if k, err := f.f.ReadAt(buf[len(carry):], off); k < int(n) {
			if err == nil || err == io.EOF {
				err = io.ErrUnexpectedEOF
			}
			return err
		}
		off += n
		end := len(buf)
		if off < f.size {
			end = bytes.LastIndexByte(buf, '\n') + 1
		}
		carry = buf[end:]
		if end > 0 {
			// buf is never written again (the next block copies its tail
			// out), so the piece can share its bytes.
			fn(unsafe.String(&buf[0], end))
		}
	}
	return nil
}

// lineScanner returns a reader's lines as page wants them.
type lineScanner struct {
	br   *bufio.Reader
	head []byte
	err  error // the first read error other than io.EOF
}

// next returns the next line's head (the line up to MaxLineBytes+1
// bytes, without its newline) and its full length; ok is false past the
// last line or after a read error.
func (s *lineScanner) next() (head string, n int, ok bool) {
	s.head = s.head[:0]
	for {
		frag, err := s.br.ReadSlice('\n')
		line := frag
		if err == nil {
			line = frag[:len(frag)-1]
		}
		if room := MaxLineBytes + 1 - len(s.head); room > 0 {
			s.head = append(s.head, line[:min(room, len(line))]...)
		}
		n += len(line)
		switch err {
		case nil:
			return string(s.head), n, true
		case bufio.ErrBufferFull:
			continue
		case io.EOF:
			if n > 0 {
				return string(s.head), n, true
			}
			return "", 0, false
		default:
			s.err = err
			return "", 0, false
		}
	}
}
