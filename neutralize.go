package mcpfleet

import (
	"bytes"
	"context"
	"encoding/json"
	"slices"
	"strings"
	"unicode"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpfleet/mcpfleet/internal/neutralize"
)

// neutralizeResult marks each text block of r as data from c's server and
// tool, and defuses what imitates instructions inside it and in the rest of
// r that a model may read: embedded text resources, resource links,
// structuredContent, tool_use and tool_result parts (made enveloped text,
// see toolPart), and the MIME types and URIs that clients print beside
// images, audio and blobs (see defuseURI). The image, audio and blob data
// are left as they are; r itself is not modified.
func (m *Mux) neutralizeResult(ctx context.Context, c *Call, r *mcp.CallToolResult) *mcp.CallToolResult {
	out := *r
	out.Content = make([]mcp.Content, len(r.Content))
	for i, ct := range r.Content {
		if t, ok := ct.(mcp.TextContent); ok {
			t.Text = m.envelope(ctx, c, t.Text, "")
			ct = t
		}
		out.Content[i] = ct
	}
	m.defuseRest(ctx, c, &out)
	return &out
}

// defuseRest defuses, in place, the embedded text resources, the resource
// links, the MIME types and URIs of every part, and the structuredContent
// of r, whose Content slice the caller owns. Unlike text blocks these are
// not enveloped: a resource keeps its MIME type and a structured value
// must stay valid against the tool's output schema, so only their strings
// change, each exactly as Defuse changes a text. Clients (adapters/eino
// among them) show all of them to the model, which is why they cannot be
// left raw. tool_use and tool_result parts are the exception: they become
// enveloped text (see toolPart).
func (m *Mux) defuseRest(ctx context.Context, c *Call, r *mcp.CallToolResult) {
	if m.neut == nil {
		return
	}
	n := 0
	for i, ct := range r.Content {
		if t, ok := m.toolPart(ctx, c, ct); ok {
			r.Content[i] = t
			continue
		}
		var k int
		r.Content[i], k = m.defuseResource(ct)
		n += k
	}
	if r.StructuredContent != nil {
		var k int
		r.StructuredContent, k = m.defuseJSON(r.StructuredContent, 0)
		n += k
	}
	if n > 0 && m.opts.metrics != nil {
		m.opts.metrics.Defused(ctx, c, n)
	}
}

// toolPart turns a tool_use or tool_result part (value or pointer) into a
// text block: its JSON, defused, in the tool_output envelope. MCP defines
// these parts for sampling; in a tool result they can only pass for a turn
// of the conversation, and a client may render them as one, or drop them
// (adapters/eino's Render does). As enveloped text the model reads them as
// what they are, data the tool returned, and nothing in them is lost. Any
// other part gives false.
func (m *Mux) toolPart(ctx context.Context, c *Call, ct mcp.Content) (mcp.Content, bool) {
	part, ann, kind := toolPartOf(ct)
	if part == nil {
		return ct, false
	}
	text := ""
	if b, err := json.Marshal(part); err == nil {
		text = string(b)
	} else {
		// A hook's Go value that JSON cannot hold (a cycle, a channel).
		text = "(not encodable as JSON: " + err.Error() + ")"
	}
	t := mcp.NewTextContent(m.envelope(ctx, c, text, kind+" content, as JSON"))
	t.Annotated = ann
	return t, true
}

// toolPartOf returns a tool_use or tool_result part as a value, with its
// annotations and type; nil for any other part.
func toolPartOf(ct mcp.Content) (any, mcp.Annotated, string) {
	switch p := ct.(type) {
	case *mcp.ToolUseContent:
		if p != nil {
			return toolPartOf(*p)
		}
	case *mcp.ToolResultContent:
		if p != nil {
			return toolPartOf(*p)
		}
	case mcp.ToolUseContent:
		return p, p.Annotated, mcp.ContentTypeToolUse
	case mcp.ToolResultContent:
		return p, p.Annotated, mcp.ContentTypeToolResult
	}
	return nil, mcp.Annotated{}, ""
}

// defuseResource defuses the text of an embedded text resource, the name,
// title and description of a resource link, and the MIME type and URI of
// every part that has them; any other content is returned as is. Parts
// are values: CallTool turns a hook's pointer parts into values first
// (valueContent), so no pointer case is needed here.
func (m *Mux) defuseResource(ct mcp.Content) (mcp.Content, int) {
	switch e := ct.(type) {
	case mcp.ImageContent:
		mime, n := m.neut.Defuse(e.MIMEType)
		if !imageMIME(e.MIMEType) {
			// A client decodes the data by its MIME type: an "image" of
			// text/html or application/javascript is a document under
			// another name. It is dropped, and the model told so.
			return mcp.NewTextContent(renderDroppedImage(mime)), n
		}
		if n > 0 {
			e.MIMEType = mime
			return e, n
		}
		return ct, 0
	case mcp.AudioContent:
		if mime, n := m.neut.Defuse(e.MIMEType); n > 0 {
			e.MIMEType = mime
			return e, n
		}
		return ct, 0
	case mcp.ResourceLink:
		if l, n := m.defuseLink(e); n > 0 {
			return l, n
		}
		return ct, 0
	case mcp.EmbeddedResource:
		res, n := m.defuseContents(e.Resource)
		if n == 0 {
			return ct, 0
		}
		e.Resource = res
		return e, n
	}
	return ct, 0
}

// defuseLink defuses the strings of a resource link a model reads: the
// server chose them, so they are as untrusted as a text block. The URI is
// defused only when it cannot be an address (see defuseURI).
func (m *Mux) defuseLink(l mcp.ResourceLink) (mcp.ResourceLink, int) {
	var a, b, c, d, e int
	l.Name, a = m.neut.Defuse(l.Name)
	l.Title, b = m.neut.Defuse(l.Title)
	l.Description, c = m.neut.Defuse(l.Description)
	l.MIMEType, d = m.neut.Defuse(l.MIMEType)
	l.URI, e = m.defuseURI(l.URI)
	return l, a + b + c + d + e
}

// defuseURI defuses a URI only when it holds whitespace or a control
// character, which no URI may contain, so that no address a client could
// fetch is changed: a real URI such as "https://h/?q=<system>" keeps its
// bytes. Clients print URIs for the model ("[resource <uri> <name>]"), and
// a line break is what lets one pass for a turn of the conversation.
func (m *Mux) defuseURI(uri string) (string, int) {
	if strings.IndexFunc(uri, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }) < 0 {
		return uri, 0
	}
	return m.neut.Defuse(uri)
}

// defuseContents defuses an embedded resource: the text of a text
// resource, and the MIME type and URI of either kind.
func (m *Mux) defuseContents(rc mcp.ResourceContents) (mcp.ResourceContents, int) {
	switch t := rc.(type) {
	case mcp.TextResourceContents:
		var a, b, c int
		t.Text, a = m.neut.Defuse(t.Text)
		t.MIMEType, b = m.neut.Defuse(t.MIMEType)
		t.URI, c = m.defuseURI(t.URI)
		return t, a + b + c
	case mcp.BlobResourceContents:
		var a, b int
		t.MIMEType, a = m.neut.Defuse(t.MIMEType)
		t.URI, b = m.defuseURI(t.URI)
		return t, a + b
	}
	return rc, 0
}

// maxJSONDepth is encoding/json's own nesting limit.
const maxJSONDepth = 10000

// defuseJSON defuses every string leaf of a JSON value; keys, numbers,
// booleans and nulls are kept, and so is the shape. In an object shaped
// like a tool call or a turn (neutralize.ImitationKeys), the role, type
// or called name that makes it one is defused whole: it is the string a
// model would act on, and no pattern matches it alone. Containers are copied
// only where something changed, so the server's value is never modified
// and a clean value comes back as the very same one.
//
// mcp-go decodes structuredContent into map[string]any and []any, but a
// ResultFunc or a short-circuiting BeforeFunc may put any Go value there;
// such a value goes through a JSON round trip, which is what it becomes on
// the wire anyway, and is replaced only if something in it was defused.
func (m *Mux) defuseJSON(v any, depth int) (any, int) {
	if depth > maxJSONDepth {
		// Deeper than any decoder accepts: a hook's cyclic Go value.
		// Encoding it fails anyway, and the transport reports that.
		return v, 0
	}
	switch x := v.(type) {
	case nil, bool, float64, json.Number, int, int64:
		return v, 0
	case string:
		return m.neut.Defuse(x)
	case map[string]any:
		var out map[string]any
		total := 0
		// An object shaped like a tool call or a turn has the strings
		// that make it one defused whole, as text defusal does in JSON.
		mark := neutralize.ImitationKeys(x)
		for k, e := range x {
			var d any
			var n int
			if s, ok := e.(string); ok && slices.Contains(mark, k) {
				d, n = neutralize.Escape(s), 1
			} else {
				d, n = m.defuseJSON(e, depth+1)
			}
			// Keys are the server's too (file names, label maps) and
			// clients print them. A key with whitespace is prose, not an
			// identifier, so it is defused like a value; other keys stay
			// exact ("user:id" is a key, not a role turn).
			nk, kn := k, 0
			if strings.ContainsFunc(k, unicode.IsSpace) {
				nk, kn = m.neut.Defuse(k)
			}
			if n == 0 && kn == 0 {
				continue
			}
			if out == nil {
				out = make(map[string]any, len(x))
				for k2, e2 := range x {
					out[k2] = e2
				}
			}
			if kn > 0 {
				delete(out, k)
			}
			out[nk] = d
			total += n + kn
		}
		if out == nil {
			return v, 0
		}
		return out, total
	case []any:
		var out []any
		total := 0
		for i, e := range x {
			d, n := m.defuseJSON(e, depth+1)
			if n == 0 {
				continue
			}
			if out == nil {
				out = append([]any(nil), x...)
			}
			out[i] = d
			total += n
		}
		if out == nil {
			return v, 0
		}
		return out, total
	}
	b, err := json.Marshal(v)
	if err != nil {
		// It cannot be sent either; the transport reports that.
		return v, 0
	}
	var generic any
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber() // keep numbers exactly as they were written
	if err := dec.Decode(&generic); err != nil {
		return v, 0
	}
	d, n := m.defuseJSON(generic, depth)
	if n == 0 {
		return v, 0
	}
	return d, n
}

// envelope defuses text and wraps it in the tool_output block. With
// neutralization off it returns text unchanged.
func (m *Mux) envelope(ctx context.Context, c *Call, text, part string) string {
	if m.neut == nil {
		return text
	}
	text, n := m.neut.Defuse(text)
	if n > 0 && m.opts.metrics != nil {
		m.opts.metrics.Defused(ctx, c, n)
	}
	return renderEnvelope(attrSafe(c.Server), attrSafe(c.Tool), part, text)
}

// attrSafe keeps a server or tool name from breaking out of the envelope's
// attribute: both come from the fleet and its servers, and tool names are
// untrusted.
func attrSafe(s string) string {
	ok := true
	for i := 0; i < len(s); i++ {
		if !nameByte(s[i]) {
			ok = false
			break
		}
	}
	if ok {
		return s
	}
	return strings.Map(func(r rune) rune {
		if r < 0x80 && nameByte(byte(r)) {
			return r
		}
		return '_'
	}, s)
}

func nameByte(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9' || b == '_' || b == '-' || b == '.' || b == '/'
}

// imageMIME reports whether a MIME type is an image type: "image/" and a
// subtype of token characters, parameters allowed, in any case.
func imageMIME(mime string) bool {
	typ, _, _ := strings.Cut(mime, ";")
	typ = strings.ToLower(strings.TrimSpace(typ))
	sub, ok := strings.CutPrefix(typ, "image/")
	if !ok || sub == "" {
		return false
	}
	for i := 0; i < len(sub); i++ {
		c := sub[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || strings.IndexByte("!#$&^_.+-", c) >= 0) {
			return false
		}
	}
	return true
}
