package mcpfleet

import (
	"github.com/mark3labs/mcp-go/mcp"
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
