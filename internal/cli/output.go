package cli

import (
	"bufio"
	"encoding/json"
	"io"
)

// emit writes v as indented JSON, or through text. Every subcommand builds
// one report value and hands it here, so --json and text never disagree
// about what was found.
func emit(w io.Writer, asJSON bool, v any, text func(w io.Writer)) error {
	if asJSON {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		return enc.Encode(v)
	}
	bw := bufio.NewWriter(w)
	text(bw)
	return bw.Flush()
}
