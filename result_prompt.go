package mcpfleet

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
