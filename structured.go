package mcpfleet

import (
	"bytes"
	"encoding/json"
	"slices"

	"github.com/mark3labs/mcp-go/mcp"
)

// mcp-go keeps a decoded result's structuredContent twice: as the JSON the
// server sent (RawStructuredContent) and decoded (StructuredContent), and
// its MarshalJSON writes the raw bytes whenever they are set. A Mux that
// replaced or defused only the decoded value would send the server's
// original regardless. So the Mux holds one representation: exactStructured
// moves the raw bytes into the decoded field on the way in, and every later
// stage edits that field alone.

// exactStructured returns r with RawStructuredContent decoded into
// StructuredContent and cleared, numbers kept exactly as written
// (json.Number: a float64 cannot hold 12345678901234567891). r itself is
// not modified; a result without raw bytes is returned as it is. Bytes that
// do not decode (only a hook can set such) leave StructuredContent as it
// was: sending them would break the client's JSON anyway.
//
// A decoded value that only re-wraps the text blocks (see rewraps) holds
// nothing but strings, which mcp-go decoded exactly: it is kept as it is
// and only the raw bytes are dropped. That is the usual large structured
// result (the filesystem server's read_text_file), and decoding its bytes
// again would cost another copy of the whole text and the decoder's
// buffer, twice its size.
func exactStructured(r *mcp.CallToolResult) *mcp.CallToolResult {
	if len(r.RawStructuredContent) == 0 {
		return r
	}
	out := *r
	out.RawStructuredContent = nil
	if r.StructuredContent != nil && rewraps(r.StructuredContent, r.Content) {
		return &out
	}
	dec := json.NewDecoder(bytes.NewReader(r.RawStructuredContent))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err == nil {
		out.StructuredContent = v
	}
	return &out
}

// maxRewrapLeaves bounds the string leaves rewraps compares, so that a
// large structured value costs one short walk, not a comparison per leaf.
const maxRewrapLeaves = 8

// rewraps reports whether structuredContent v only re-wraps r's text
// blocks: an object or array whose leaves are all strings, at most
// maxRewrapLeaves of them, each the very text of one block or of all of
// them joined. The reference filesystem server answers read_text_file so,
// {"content": <the text>}: storing or showing it beside the text would
// double the bytes and say nothing new.
func rewraps(v any, content []mcp.Content) bool {
	var texts []string
	for _, ct := range content {
		if t, ok := ct.(mcp.TextContent); ok {
			texts = append(texts, t.Text)
		}
	}
	if len(texts) == 0 {
		return false
	}
	var leaves []string
	if !stringLeaves(v, &leaves, 0) || len(leaves) == 0 {
		return false
	}
	joined := ""
	if len(texts) > 1 {
		joined = joinText(content)
	}
	for _, l := range leaves {
		if l == "" || !(l == joined || slices.Contains(texts, l)) {
			return false
		}
	}
	return true
}

// stringLeaves appends the string leaves of v to out; false when v holds
// any other leaf, is not an object or array at the top, or has more than
// maxRewrapLeaves strings.
func stringLeaves(v any, out *[]string, depth int) bool {
	switch x := v.(type) {
	case string:
		if depth == 0 || len(*out) == maxRewrapLeaves {
			return false
		}
		*out = append(*out, x)
		return true
	case map[string]any:
		for _, e := range x {
			if !stringLeaves(e, out, depth+1) {
				return false
			}
		}
		return true
	case []any:
		for _, e := range x {
			if !stringLeaves(e, out, depth+1) {
				return false
			}
		}
		return true
	}
	return false
}
