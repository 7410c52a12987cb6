package mcpfleet

import (
	"fmt"
	"strings"
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
