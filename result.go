package mcpfleet

import (
	"encoding/json"
	"maps"
	"slices"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpfleet/mcpfleet/internal/upstream"
)

// valueContent returns r with its content parts as values. A hook may
// build them as pointers (&mcp.TextContent{…} is an mcp.Content too), while
// results decoded from a server are values, which is what offloading,
// neutralizing and clients such as adapters/eino's Render switch on: a
// pointer text block would be neither enveloped nor defused nor counted
// towards offloading. r is copied only when it holds a pointer.
func valueContent(r *mcp.CallToolResult) *mcp.CallToolResult {
	var out []mcp.Content
	for i, ct := range r.Content {
		v, changed := contentValue(ct)
		if out == nil {
			if !changed {
				continue
			}
			out = append(make([]mcp.Content, 0, len(r.Content)), r.Content[:i]...)
		}
		out = append(out, v)
	}
	if out == nil {
		return r
	}
	cp := *r
	cp.Content = out
	return &cp
}

// contentValue is ct as a value, the resource of an embedded resource
// included, and whether that differs from ct; nil pointers and other
// types are returned as they are. (Content values cannot be compared with
// ==: some hold maps.)
func contentValue(ct mcp.Content) (mcp.Content, bool) {
	switch p := ct.(type) {
	case *mcp.TextContent:
		if p != nil {
			return *p, true
		}
	case *mcp.ImageContent:
		if p != nil {
			return *p, true
		}
	case *mcp.AudioContent:
		if p != nil {
			return *p, true
		}
	case *mcp.ResourceLink:
		if p != nil {
			return *p, true
		}
	case *mcp.EmbeddedResource:
		if p != nil {
			e := *p
			e.Resource, _ = resourceValue(e.Resource)
			return e, true
		}
	case mcp.EmbeddedResource:
		if res, changed := resourceValue(p.Resource); changed {
			p.Resource = res
			return p, true
		}
	}
	return ct, false
}

func resourceValue(rc mcp.ResourceContents) (mcp.ResourceContents, bool) {
	switch p := rc.(type) {
	case *mcp.TextResourceContents:
		if p != nil {
			return *p, true
		}
	case *mcp.BlobResourceContents:
		if p != nil {
			return *p, true
		}
	}
	return rc, false
}

// resultCut is what the transport says of a result it cut (see
// upstream.CutMetaKey): the bound, and the size of what the server sent.
type resultCut struct{ limit, bytes int64 }

// takeCut returns r without the transport's cut mark in _meta, and the
// cut it names (nil when r was not cut). r itself is not modified.
func takeCut(r *mcp.CallToolResult) (*mcp.CallToolResult, *resultCut) {
	if r.Meta == nil {
		return r, nil
	}
	v, ok := r.Meta.AdditionalFields[upstream.CutMetaKey]
	if !ok {
		return r, nil
	}
	cut := &resultCut{}
	if m, ok := v.(map[string]any); ok {
		cut.limit, cut.bytes = jsonInt(m["limit"]), jsonInt(m["bytes"])
	}
	out := *r
	meta := *r.Meta
	meta.AdditionalFields = maps.Clone(r.Meta.AdditionalFields)
	delete(meta.AdditionalFields, upstream.CutMetaKey)
	if len(meta.AdditionalFields) == 0 && meta.ProgressToken == nil {
		out.Meta = nil
	} else {
		out.Meta = &meta
	}
	return &out, cut
}

func jsonInt(v any) int64 {
	switch n := v.(type) {
	case float64:
		return int64(n)
	case json.Number:
		i, _ := n.Int64()
		return i
	}
	return 0
}

// withCutNote appends the note saying r was cut, after everything else:
// outside the offload preview and any envelope, since it is the Mux's
// word, not the server's.
func withCutNote(r *mcp.CallToolResult, c *Call, cut *resultCut) *mcp.CallToolResult {
	if cut == nil {
		return r
	}
	out := *r
	out.Content = append(slices.Clip(r.Content), mcp.NewTextContent(renderCutNote(c.Server, c.Tool, cut.limit, cut.bytes)))
	return &out
}
