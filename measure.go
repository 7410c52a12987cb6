package mcpfleet

import (
	"bytes"
	"encoding/json"
	"math"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpfleet/mcpfleet/internal/offload"
	"github.com/mcpfleet/mcpfleet/internal/tokens"
)

// bytesPerTokenCeiling is how many bytes one o200k token spans at most in
// any text worth counting; results above threshold×this are offloaded
// without counting. Every token is at least one byte, so a result of at
// most threshold bytes is never over and is not counted either: only
// results near the threshold pay for tokenizing.
const bytesPerTokenCeiling = 12

// countCeiling is the size in bytes above which a text is not tokenized:
// limit×bytesPerTokenCeiling, saturating.
func countCeiling(limit int) int {
	if limit > math.MaxInt/bytesPerTokenCeiling {
		return math.MaxInt
	}
	return limit * bytesPerTokenCeiling
}

// textResource is an embedded text resource of a result: text a model
// reads, with the URI and MIME type that say what it is.
type textResource struct{ uri, mime, text string }

// readable is what a model reads of a result as text, the measure the
// offload threshold applies to: its text blocks, its embedded text
// resources, and its structuredContent as compact JSON unless the text
// already holds it verbatim (adapters/eino's Render appends it only then).
// Images, audio and blobs are not text and do not count.
type readable struct {
	text      string // the text blocks, joined by newlines
	resources []textResource
	// compact is structuredContent's compact JSON, once it had to be
	// encoded; fate says whether it is read (and so stored) or not.
	compact []byte
	fate    structuredFate
}

// measure reports whether r is over limit tokens, reading it as a model
// would (see readable); tok is the o200k count when it had to count, else
// 0. Most results are decided by their size in bytes alone, and a
// structuredContent is encoded only when its walked size does not settle
// it: the encoding is what is stored, so an offloaded result pays for it
// once.
//
// repeats says that structuredContent only re-wraps the text blocks (see
// rewraps): it is then neither counted nor stored, the text holds it.
func measure(r *mcp.CallToolResult, limit int, repeats bool) (over bool, rd readable, tok int) {
	ceiling := countCeiling(limit)
	n, blocks := 0, 0
	for _, ct := range r.Content {
		switch t := ct.(type) {
		case mcp.TextContent:
			n += len(t.Text)
			blocks++
		case mcp.EmbeddedResource:
			if tr, ok := textOf(t.Resource); ok {
				rd.resources = append(rd.resources, tr)
				n += len(tr.text)
			}
		}
	}
	n += max(blocks-1, 0) // the newlines joining the blocks
	sc := r.StructuredContent
	if repeats {
		sc = nil
	}
	if sc == nil {
		rd.fate = structuredNone
		if n <= limit {
			return false, rd, 0
		}
	} else if n <= limit {
		// An upper bound: it counts a value the text repeats.
		if s := offload.JSONSize(sc, limit-n); s >= 0 && n+s <= limit {
			return false, rd, 0
		}
	}
	rd.text = joinText(r.Content)
	if repeats {
		rd.fate = structuredRepeated
	}
	if sc != nil {
		rd.compact, rd.fate = structuredOf(rd.text, sc)
		if rd.fate == structuredStored {
			n += len(rd.compact)
		}
	}
	if n <= limit {
		return false, rd, 0
	}
	if n > ceiling {
		return true, rd, 0
	}
	tok = tokens.Count(rd.text)
	for _, res := range rd.resources {
		tok += tokens.Count(res.text)
	}
	if rd.fate == structuredStored {
		tok += tokens.Count(string(rd.compact))
	}
	return tok > limit, rd, tok
}

func textOf(rc mcp.ResourceContents) (textResource, bool) {
	switch t := rc.(type) {
	case mcp.TextResourceContents:
		return textResource{t.URI, t.MIMEType, t.Text}, true
	}
	return textResource{}, false
}

// structuredFate says what becomes of a result's structuredContent when
// it is offloaded.
type structuredFate int

const (
	structuredNone     structuredFate = iota // there was none
	structuredStored                         // read, so stored after the text
	structuredRepeated                       // the text already holds it
	structuredLost                           // not JSON-encodable: dropped
)

// structuredOf encodes v compactly and says whether text already holds it
// verbatim: as encoded here, or as a Go server's json.Marshal writes it,
// with < > & escaped.
//
// The compact JSON keeps < > & as they are: json.Marshal's \u003c escapes
// would hide a "<system>" tag from the defusing that ReadResult and
// GrepResult apply to what they return.
func structuredOf(text string, v any) ([]byte, structuredFate) {
	compact, err := encodeJSON(v, false)
	if err != nil {
		return nil, structuredLost
	}
	if strings.Contains(text, string(compact)) {
		return compact, structuredRepeated
	}
	if bytes.ContainsAny(compact, "<>&") {
		if esc, err := encodeJSON(v, true); err == nil && strings.Contains(text, string(esc)) {
			return compact, structuredRepeated
		}
	}
	return compact, structuredStored
}

// stored is the text an offloaded result is stored as: its text blocks,
// then each embedded text resource under a header line naming it, then
// its structuredContent as indented JSON under a header line. Indented,
// every leaf is a line of its own, which is what readResult pages and
// grepResult matches. A result that is text only is stored as the very
// string mcp-go decoded, without a copy.
func (rd *readable) stored() string {
	if len(rd.resources) == 0 && rd.fate != structuredStored {
		return rd.text
	}
	size := len(rd.text) + 64
	for _, res := range rd.resources {
		size += len(res.text) + len(res.uri) + len(res.mime) + 32
	}
	if rd.fate == structuredStored {
		size += len(rd.compact) * 2
	}
	var b bytes.Buffer
	b.Grow(size)
	b.WriteString(rd.text)
	newline := func() {
		if b.Len() > 0 && b.Bytes()[b.Len()-1] != '\n' {
			b.WriteByte('\n')
		}
	}
	for _, res := range rd.resources {
		newline()
		b.WriteString(resourceHeader(res.uri, res.mime))
		b.WriteByte('\n')
		b.WriteString(res.text)
	}
	if rd.fate == structuredStored {
		newline()
		b.WriteString(structuredHeader)
		b.WriteByte('\n')
		if err := json.Indent(&b, rd.compact, "", "  "); err != nil {
			// compact came from encoding/json, so this cannot happen;
			// store it as it is rather than lose it.
			b.Write(rd.compact)
		}
	}
	return b.String()
}
