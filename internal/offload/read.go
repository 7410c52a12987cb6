package offload

import (
	"fmt"
	"regexp"
	"strings"
)

// Limits on what one read or grep returns, so that reading a stored result
// cannot flood the context it was taken out of.
const (
	MaxReadLines   = 400
	MaxReadBytes   = 24 << 10
	MaxGrepMatches = 50
	MaxGrepContext = 5
	MaxGrepBytes   = 16 << 10
	MaxLineBytes   = 400
	MaxPattern     = 512
)

// Lines counts the lines of text, the last one counted even without a
// trailing newline.
func Lines(text string) int {
	n := strings.Count(text, "\n")
	if len(text) > 0 && !strings.HasSuffix(text, "\n") {
		n++
	}
	return n
}

// Page is the answer to a line-range read.
type Page struct {
	Text       string // the lines, each ending in a newline
	From, To   int    // 1-based first and last line returned; To < From when empty
	TotalLines int
	Truncated  bool // stopped early at MaxReadBytes
}

// Read returns lines [offset, offset+limit) of text (offset 0-based), at
// most MaxReadLines lines and about MaxReadBytes bytes; long lines are cut
// at MaxLineBytes.
func Read(text string, offset, limit int) Page {
	offset = max(offset, 0)
	// Skip to the offset without splitting the whole text.
	rest := text
	for i := 0; i < offset && rest != ""; i++ {
		j := strings.IndexByte(rest, '\n')
		if j < 0 {
			rest = ""
			break
		}
		rest = rest[j+1:]
	}
	next := func() (string, int, bool) {
		if rest == "" {
			return "", 0, false
		}
		line := rest
		if j := strings.IndexByte(rest, '\n'); j >= 0 {
			line, rest = line[:j], rest[j+1:]
		} else {
			rest = ""
		}
		return line, len(line), true
	}
	return page(next, offset, limit, Lines(text))
}

// page reads the lines of a Page that starts at line offset (0-based) of
// a text of total lines. next returns the next line without its newline:
// its head, which is the whole line or at least its first MaxLineBytes+1
// bytes, and its full length; ok is false past the last line.
func page(next func() (head string, n int, ok bool), offset, limit, total int) Page {
	if limit <= 0 || limit > MaxReadLines {
		limit = MaxReadLines
	}
	p := Page{From: offset + 1, TotalLines: total}
	var b strings.Builder
	n := 0
	for n < limit {
		head, size, ok := next()
		if !ok {
			break
		}
		if b.Len()+size > MaxReadBytes && n > 0 {
			p.Truncated = true
			break
		}
		b.WriteString(cutHead(head, size))
		b.WriteByte('\n')
		n++
	}
	p.Text, p.To = b.String(), offset+n
	return p
}

// Tail returns the last n lines of text (at most MaxReadLines), scanning
// from the end so that a 50 MB text costs only its last lines.
func Tail(text string, n int) Page {
	n = min(max(n, 0), MaxReadLines)
	total := Lines(text)
	end := len(text)
	if strings.HasSuffix(text, "\n") {
		end--
	}
	start := end
	for k := 0; k < n && start > 0; k++ {
		i := strings.LastIndexByte(text[:start], '\n')
		if i < 0 {
			start = 0
			break
		}
		if k == n-1 {
			start = i + 1
			break
		}
		start = i
	}
	if n == 0 {
		return Page{From: total + 1, To: total, TotalLines: total}
	}
	p := Read(text[start:], 0, n)
	p.From, p.To, p.TotalLines = total-(p.To-p.From), total, total
	return p
}

func cut(line string) string { return cutHead(line, len(line)) }

// cutHead is cut for a line of n bytes of which head holds the whole line
// or at least its first MaxLineBytes+1 bytes.
func cutHead(head string, n int) string {
	if n <= MaxLineBytes {
		return head
	}
	// Cut on a rune boundary.
	i := MaxLineBytes
	for i > 0 && head[i]&0xC0 == 0x80 {
		i--
	}
	return head[:i] + fmt.Sprintf("… [%d more bytes]", n-i)
}

// Match is one grep hit with its context lines.
type Match struct {
	Line   int      // 1-based line number of the match
	Before []string // context lines before, oldest first
	Text   string
	After  []string
}

// Grep is the answer to a regexp search.
type Grep struct {
	Matches   []Match
	Total     int  // matching lines counted, possibly more than returned
	Truncated bool // stopped at MaxGrepMatches or MaxGrepBytes
}

// PatternError is a pattern that is not valid RE2 syntax, or too long.
type PatternError struct {
	Pattern string
	Err     error
}

func (e *PatternError) Error() string { return fmt.Sprintf("bad pattern %q: %v", e.Pattern, e.Err) }
func (e *PatternError) Unwrap() error { return e.Err }

// Search finds lines of text matching pattern (Go RE2 syntax, so matching is
// linear in the text: no catastrophic backtracking on untrusted input), with
// up to context lines around each, bounded as the Max constants say.
func Search(text, pattern string, context int) (Grep, error) {
	s, err := NewSearcher(pattern, context)
	if err != nil {
		return Grep{}, err
	}
	s.Feed(text)
	return s.Result(), nil
}

// Searcher is Search fed in pieces, so that a text kept in chunks is
// searched one chunk at a time (see Feed).
type Searcher struct {
	re      *regexp.Regexp
	context int
	g       Grep
	prev    []string // ring of the last context lines
	size    int
	open    int // index of a match still collecting After lines
	lineNo  int
}

// NewSearcher compiles pattern, or returns a *PatternError.
func NewSearcher(pattern string, context int) (*Searcher, error) {
	if len(pattern) > MaxPattern {
		return nil, &PatternError{Pattern: pattern[:40] + "…", Err: fmt.Errorf("longer than %d bytes, got %d", MaxPattern, len(pattern))}
	}
	re, err := regexp.Compile(pattern)
	if err != nil {
		return nil, &PatternError{Pattern: pattern, Err: err}
	}
	return &Searcher{re: re, context: min(max(context, 0), MaxGrepContext), open: -1}, nil
}

// Feed searches the next piece of the text. A piece holds whole lines:
// each but the last ends in a newline, and the last ends the text or a
// newline; line numbers run on across pieces.
func (s *Searcher) Feed(text string) {
	g := &s.g
	rest := text
	for rest != "" {
		line := rest
		if j := strings.IndexByte(rest, '\n'); j >= 0 {
			line, rest = rest[:j], rest[j+1:]
		} else {
			rest = ""
		}
		s.lineNo++
		if s.re.MatchString(line) {
			g.Total++
			if !g.Truncated {
				if len(g.Matches) >= MaxGrepMatches || s.size > MaxGrepBytes {
					g.Truncated = true
				} else {
					m := Match{Line: s.lineNo, Before: cloneCut(s.prev), Text: keep(line)}
					s.size += len(m.Text) + 16
					for _, b := range m.Before {
						s.size += len(b)
					}
					g.Matches = append(g.Matches, m)
					s.open = len(g.Matches) - 1
					s.prev = s.prev[:0]
					continue
				}
			}
		} else if s.open >= 0 && len(g.Matches[s.open].After) < s.context {
			c := keep(line)
			g.Matches[s.open].After = append(g.Matches[s.open].After, c)
			s.size += len(c)
		}
		if s.open >= 0 && len(g.Matches[s.open].After) >= s.context {
			s.open = -1
		}
		if s.context > 0 {
			if len(s.prev) == s.context {
				s.prev = append(s.prev[:0], s.prev[1:]...)
			}
			s.prev = append(s.prev, line)
		}
	}
}

// Result returns what the pieces fed so far matched.
func (s *Searcher) Result() Grep { return s.g }

// keep is cut(line) in memory of its own, so that a Grep never holds on
// to the piece of text a line came from (a block of a spilled File).
func keep(line string) string {
	if len(line) <= MaxLineBytes {
		return strings.Clone(line)
	}
	return cut(line)
}

func cloneCut(ss []string) []string {
	if len(ss) == 0 {
		return nil
	}
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = keep(s)
	}
	return out
}
