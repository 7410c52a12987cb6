package neutralize

import (
	_ "embed"
	"encoding/binary"
	"fmt"
	"math"
	"strings"
	"sync"
)

// The learned scorer is a second opinion on tool definitions, beside the
// rules: a linear model over hashed words, word pairs and character
// n-grams, read sentence by sentence. A definition's score is its highest
// sentence's score, so an order hidden in one parameter's description is
// not diluted by an honest description around it, and the finding names
// that sentence. The model is trained by TestTrainScorer (see
// scorer_train_internal_test.go) and embedded from scorer.bin.

// RuleLearned is a finding of the learned scorer: the sentence of a
// definition whose score passed the model's threshold.
const RuleLearned Rule = "learned"

//go:embed scorer.bin
var scorerBin []byte

// Part is one text of a tool definition that a model reads.
type Part struct {
	// Field says where the text sits: "description", "title", or a path
	// into a schema whose last "properties" segment names the parameter,
	// such as "inputSchema/properties/q/description".
	Field string
	Text  string
}

// Verdict is the scorer's reading of one definition.
type Verdict struct {
	// Score is the highest sentence score less the threshold of the
	// sentence's role (the description's first sentence, the rest of the
	// description, a parameter's description, a value); Flagged is
	// Score > 0.
	Score   float64
	Flagged bool
	// Part indexes the part holding the highest sentence, and Finding
	// is that sentence, with offsets into the part's text. Both are
	// unset (Part -1) when the definition has no text.
	Part    int
	Finding Finding
}

// Scorer holds a trained model. It is immutable and safe for concurrent
// use.
type Scorer struct {
	bits      uint8
	threshold [nRoles]float64 // by roleIndex
	w         []float32
}

// ScorerFormatError is a model file that cannot be read.
type ScorerFormatError struct{ Reason string }

func (e *ScorerFormatError) Error() string { return "neutralize: bad scorer model: " + e.Reason }

// scorerMagic opens a model file; its last byte is the format version.
const scorerMagic = "MFSCORE\x01"

// Model file layout, little-endian: the magic; one byte of hash bits
// (10 to 20); four float32 thresholds, one per role in the order f, d,
// p, v (see roleIndex); the float32 scale of a weight unit;
// a uvarint count of non-zero weights; then for each, in increasing index
// order, the uvarint gap from the previous index (the first from -1, so
// gaps are at least 1) and the zigzag varint weight in units.

// ParseScorer reads a model file. It returns a *ScorerFormatError
// naming what is wrong.
func ParseScorer(b []byte) (*Scorer, error) {
	bad := func(f string, a ...any) (*Scorer, error) {
		return nil, &ScorerFormatError{Reason: fmt.Sprintf(f, a...)}
	}
	const head = 1 + 4*nRoles + 4
	if len(b) < len(scorerMagic)+head+1 {
		return bad("%d bytes, want at least %d", len(b), len(scorerMagic)+head+1)
	}
	if string(b[:len(scorerMagic)-1]) != scorerMagic[:len(scorerMagic)-1] {
		return bad("magic %q, want %q", b[:len(scorerMagic)-1], scorerMagic[:len(scorerMagic)-1])
	}
	if v := b[len(scorerMagic)-1]; v != scorerMagic[len(scorerMagic)-1] {
		return bad("format version %d, want %d", v, scorerMagic[len(scorerMagic)-1])
	}
	p := b[len(scorerMagic):]
	bits := p[0]
	if bits < 10 || bits > 20 {
		return bad("hash bits %d, want 10 to 20", bits)
	}
	var threshold [nRoles]float64
	for i := range threshold {
		threshold[i] = float64(math.Float32frombits(binary.LittleEndian.Uint32(p[1+4*i:])))
		if math.IsNaN(threshold[i]) || math.IsInf(threshold[i], 0) {
			return bad("threshold %d: %v, want a finite number", i, threshold[i])
		}
	}
	scale := float64(math.Float32frombits(binary.LittleEndian.Uint32(p[1+4*nRoles:])))
	if !(scale > 0) || math.IsInf(scale, 0) {
		return bad("weight scale %v, want a finite number above 0", scale)
	}
	p = p[head:]
	n, k := binary.Uvarint(p)
	if k <= 0 {
		return bad("weight count: not a uvarint")
	}
	p = p[k:]
	size := uint64(1) << bits
	if n > size {
		return bad("%d weights, more than the %d slots of %d hash bits", n, size, bits)
	}
	s := &Scorer{bits: bits, threshold: threshold, w: make([]float32, size)}
	idx := int64(-1)
	for i := uint64(0); i < n; i++ {
		gap, k := binary.Uvarint(p)
		if k <= 0 || gap == 0 {
			return bad("weight %d: index gap missing or 0", i)
		}
		p = p[k:]
		if gap > size || idx+int64(gap) >= int64(size) {
			return bad("weight %d: index past the %d slots", i, size)
		}
		idx += int64(gap)
		q, k := binary.Varint(p)
		if k <= 0 {
			return bad("weight %d: value not a varint", i)
		}
		if q < math.MinInt32 || q > math.MaxInt32 {
			return bad("weight %d: value %d out of range", i, q)
		}
		p = p[k:]
		x := float32(float64(q) * scale)
		if math.IsInf(float64(x), 0) || math.Abs(float64(x)) > 1e6 {
			return bad("weight %d: %v, want a magnitude below 1e6", i, x)
		}
		s.w[idx] = x
	}
	if len(p) != 0 {
		return bad("%d bytes after the last weight", len(p))
	}
	return s, nil
}

// encodeScorer writes a model file of these weights: each is rounded to
// a unit of the largest weight / 32767.
func encodeScorer(bits uint8, threshold [nRoles]float64, w []float64) []byte {
	maxAbs := 0.0
	for _, x := range w {
		maxAbs = max(maxAbs, math.Abs(x))
	}
	scale := float32(maxAbs / 32767)
	if scale == 0 {
		scale = 1
	}
	type entry struct {
		i int
		q int64
	}
	var es []entry
	for i, x := range w {
		if q := int64(math.Round(x / float64(scale))); q != 0 {
			es = append(es, entry{i, q})
		}
	}
	b := []byte(scorerMagic)
	b = append(b, bits)
	for _, th := range threshold {
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(float32(th)))
	}
	b = binary.LittleEndian.AppendUint32(b, math.Float32bits(scale))
	b = binary.AppendUvarint(b, uint64(len(es)))
	prev := -1
	for _, e := range es {
		b = binary.AppendUvarint(b, uint64(e.i-prev))
		b = binary.AppendVarint(b, e.q)
		prev = e.i
	}
	return b
}

// DefaultScorer returns the embedded model, parsed once.
var DefaultScorer = sync.OnceValues(func() (*Scorer, error) { return ParseScorer(scorerBin) })

// Score reads the parts of the definition of the tool called name.
func (s *Scorer) Score(name string, parts []Part) Verdict {
	return s.ScoreAmong(name, nil, parts)
}

// ScoreAmong is [Scorer.Score] for a tool whose server lists the tools
// named in siblings beside it. A sentence that names one of them names
// the server's own API, not another tool: "call get_page before
// edit_page" is a workflow, and the identifier flag and its concept are
// not set for it.
func (s *Scorer) ScoreAmong(name string, siblings map[string]bool, parts []Part) Verdict {
	v := Verdict{Score: math.Inf(-1), Part: -1}
	mask := uint32(len(s.w) - 1)
	eachSentence(name, siblings, parts, func(i, start, end int, sc sentenceAt) {
		var sum, fixed float64
		n := 0
		unitFeatures(parts[i].Text[start:end], sc, func(h uint32, isFixed bool) {
			if isFixed {
				fixed += float64(s.w[h&mask])
				return
			}
			sum += float64(s.w[h&mask])
			n++
		})
		score := fixed - s.threshold[roleIndex(sc.role)]
		if n > 0 {
			score += sum / math.Sqrt(float64(n))
		}
		if score > v.Score {
			v.Score, v.Part = score, i
			v.Finding = finding(parts[i].Text, RuleLearned, start, end)
		}
	})
	v.Flagged = v.Part >= 0 && v.Score > 0
	return v
}

// sentenceAt is where a sentence sits in its definition.
type sentenceAt struct {
	role byte
	// name and param are the word hashes of the tool's name and of the
	// parameter the sentence describes, and siblings those of the names
	// of the tools its server lists beside it.
	name, param uint64
	siblings    map[uint64]bool
	// subject is the concepts of the tool's name and of the first
	// sentence of its description: what the tool is about.
	subject uint32
}

// eachSentence calls fn with each sentence of a definition: the index of
// its part, its bounds in the part's text, and where it sits.
func eachSentence(name string, siblings map[string]bool, parts []Part, fn func(part, start, end int, sc sentenceAt)) {
	var subject uint32
	for w := range strings.FieldsFuncSeq(name, func(r rune) bool { return r == '_' || r == '-' || r == '.' }) {
		subject |= conceptMask(w, false)
	}
	for _, p := range parts {
		if p.Field == "description" {
			done := false
			forSentences(p.Text, func(start, end int) {
				if !done {
					subject |= conceptMask(p.Text[start:end], false)
					done = true
				}
			})
			break
		}
	}
	nameH := wordHash(name)
	var sib map[uint64]bool
	if len(siblings) > 0 {
		sib = make(map[uint64]bool, len(siblings))
		for n := range siblings {
			sib[wordHash(n)] = true
		}
	}
	for i, p := range parts {
		role, param := roleOf(p.Field)
		sc := sentenceAt{name: nameH, param: wordHash(param), siblings: sib, subject: subject}
		first := role == roleDescription
		forSentences(p.Text, func(start, end int) {
			sc.role = role
			if first {
				sc.role, first = roleFirst, false
			}
			fn(i, start, end, sc)
		})
	}
}

// Roles say where a sentence sits; each weighs words differently.
const (
	roleFirst       = 'f' // the description's first sentence
	roleDescription = 'd' // the rest of the description, and titles
	roleParam       = 'p' // a parameter's description
	roleValue       = 'v' // an enum, const, example or default value
	nRoles          = 4
)

// roleIndex numbers the nRoles for the thresholds.
func roleIndex(r byte) int {
	switch r {
	case roleFirst:
		return 0
	case roleDescription:
		return 1
	case roleParam:
		return 2
	}
	return 3
}

// roleOf returns the role of a field's text and the parameter it
// describes.
func roleOf(field string) (byte, string) {
	param := ""
	if i := strings.LastIndex(field, "/properties/"); i >= 0 {
		param = field[i+len("/properties/"):]
		if j := strings.IndexByte(param, '/'); j >= 0 {
			param = param[:j]
		}
	}
	switch {
	case field == "description":
		return roleDescription, ""
	case strings.HasSuffix(field, "/description"), strings.HasSuffix(field, "/title"), field == "title", field == "annotations/title":
		if param == "" && !strings.Contains(field, "/") {
			return roleDescription, ""
		}
		return roleParam, param
	default:
		return roleValue, param
	}
}

// forSentences calls fn with the bounds of each sentence of s: text ended
// by ".", "!" or "?" before a space, by "。", "！" or "？", or by a line
// break that ends a paragraph, an item or a heading (see lineBreaks).
// Blank sentences are skipped.
func forSentences(s string, fn func(start, end int)) {
	start := 0
	emit := func(end int) {
		for start < end && (s[start] == ' ' || s[start] == '\t' || s[start] == '\n' || s[start] == '\r') {
			start++
		}
		if end > start {
			fn(start, end)
		}
	}
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '\n':
			if lineBreaks(s, i) {
				emit(i)
				start = i + 1
			}
		case '.', '!', '?':
			if i+1 == len(s) || s[i+1] == ' ' || s[i+1] == '\n' {
				emit(i + 1)
				start = i + 1
			}
		case 0xe3: // 。！？ are E3 80 82, EF BC 81, EF BC 9F
			if strings.HasPrefix(s[i:], "。") {
				emit(i + 3)
				start = i + 3
				i += 2
			}
		case 0xef:
			if strings.HasPrefix(s[i:], "！") || strings.HasPrefix(s[i:], "？") {
				emit(i + 3)
				start = i + 3
				i += 2
			}
		}
	}
	emit(len(s))
}

// lineBreaks reports whether the line break at s[i] ends a sentence: it
// follows punctuation, or starts a blank line, an item ("-", "*", "•",
// "1.") or a tag. A break inside wrapped prose does not: "The\nfile is"
// is one sentence.
func lineBreaks(s string, i int) bool {
	j := i - 1
	for j >= 0 && (s[j] == ' ' || s[j] == '\t' || s[j] == '\r') {
		j--
	}
	if j < 0 || strings.IndexByte(".:;!?)]>", s[j]) >= 0 || j >= 2 && (strings.HasSuffix(s[:j+1], "。") || strings.HasSuffix(s[:j+1], "：")) {
		return true
	}
	k := i + 1
	for k < len(s) && (s[k] == ' ' || s[k] == '\t') {
		k++
	}
	if k == len(s) {
		return true
	}
	switch c := s[k]; {
	case c == '\n', c == '\r', c == '-', c == '*', c == '<', c == '#', c == '[', c >= '0' && c <= '9':
		return true
	case strings.HasPrefix(s[k:], "•"):
		return true
	}
	return false
}
