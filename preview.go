package mcpfleet

import (
	"fmt"
	"strings"

	"github.com/mcpfleet/mcpfleet/internal/offload"
)

// structuredHeader introduces the structuredContent appended to an
// offloaded result's stored text. It is model-facing: readResult and
// grepResult show it.
const structuredHeader = "--- structuredContent (JSON) ---"

// structuredNote is the preview line saying where an offloaded result's
// structuredContent went; "" when it had none.
func structuredNote(f structuredFate) string {
	switch f {
	case structuredStored:
		return "Its structuredContent is not in this preview: it is stored after the text, from the line \"" + structuredHeader + "\".\n"
	case structuredRepeated:
		return "Its structuredContent is not in this preview: the stored text already contains it.\n"
	case structuredLost:
		return "Its structuredContent could not be encoded as JSON and was dropped.\n"
	}
	return ""
}

// resourceHeader introduces an embedded text resource in an offloaded
// result's stored text. It is model-facing, like structuredHeader. The URI
// is quoted so that one holding a newline cannot start a line of its own.
func resourceHeader(uri, mime string) string {
	if mime == "" {
		return fmt.Sprintf("--- resource %q ---", uri)
	}
	return fmt.Sprintf("--- resource %q (%s) ---", uri, oneLine(mime))
}

// oneLine replaces the control characters of s, line breaks among them,
// with spaces.
func oneLine(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || r == '\u2028' || r == '\u2029' {
			return ' '
		}
		return r
	}, s)
}

// resourcesNote is the preview line saying where an offloaded result's
// embedded text resources went; "" when it had none.
func resourcesNote(n int) string {
	switch n {
	case 0:
		return ""
	case 1:
		return "Its embedded text resource is not in this preview: it is stored after the text, from the line starting \"--- resource \".\n"
	}
	return fmt.Sprintf("Its %d embedded text resources are not in this preview: they are stored after the text, each from a line starting \"--- resource \".\n", n)
}

const (
	previewHeadLines = 40
	previewTailLines = 15
)

// previewParts is what the preview of an offloaded result shows: the
// opening note (where the result went and how to read it), and its first
// and last lines, each bounded in lines and bytes, scaled down for small
// thresholds. tail is "" when the head reaches the end. The head and tail
// are raw text: shape envelopes them.
type previewParts struct {
	note, head, tail string
}

func previewOf(c *Call, o offloaded, limit int) previewParts {
	headBytes, tailBytes := min(2000, limit*2), min(800, limit)
	head := offload.Read(o.text, 0, previewHeadLines)
	p := previewParts{head: clip(head.Text, headBytes)}
	tail := offload.Tail(o.text, min(previewTailLines, max(o.off.Lines-head.To, 0)))
	if tail.To >= tail.From {
		p.tail = clipStart(tail.Text, tailBytes)
	}
	if o.off.Handle == "" {
		p.note = renderUnkeptNote(c.Server, c.Tool, o.off)
	} else {
		p.note = renderOffloadNote(c.Server, c.Tool, o.off)
	}
	p.note += resourcesNote(o.resources) + structuredNote(o.fate)
	return p
}
