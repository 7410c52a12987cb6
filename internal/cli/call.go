package cli

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpfleet/mcpfleet"
)

// CallReport is what `call` prints: the tool's answer as mcpfleet got it.
type CallReport struct {
	Server  string         `json:"server"`
	Tool    string         `json:"tool"`
	IsError bool           `json:"is_error"`
	Content []ContentBlock `json:"content"`
	// Structured is the result's structuredContent, if any.
	Structured any `json:"structured_content,omitempty"`
	// Args are the arguments actually sent, after normalization.
	Args map[string]any `json:"args"`
	// Repairs names each normalizer that changed the arguments.
	Repairs []string `json:"repairs,omitempty"`
}

// ContentBlock is one content item. Binary data is summarized, not
// printed: a terminal or a transcript has no use for base64.
type ContentBlock struct {
	Type     string `json:"type"`
	Text     string `json:"text,omitempty"`
	MIMEType string `json:"mime_type,omitempty"`
	Bytes    int    `json:"bytes,omitempty"`
	URI      string `json:"uri,omitempty"`
}

func runCall(ctx context.Context, env []string, stdin io.Reader, stdout, stderr io.Writer, args []string) error {
	fs, c := newFlagSet("call", "--config FILE [--json] [--as-model] SERVER TOOL ['JSON' | -]", env, stderr)
	asJSON := fs.Bool("json", false, "print the result as JSON")
	asModel := fs.Bool("as-model", false, "print the result as a model gets it: marked as data (tool_output envelope) and offloaded when large")
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() < 2 || fs.NArg() > 3 {
		return usageErrorf("call needs SERVER TOOL and optionally 'JSON' arguments (- reads stdin), got %d arguments", fs.NArg())
	}
	server, tool, raw := fs.Arg(0), fs.Arg(1), "{}"
	if fs.NArg() == 3 {
		raw = fs.Arg(2)
	}
	if raw == "-" {
		b, err := io.ReadAll(stdin)
		if err != nil {
			return fmt.Errorf("reading arguments from stdin: %w", err)
		}
		raw = string(b)
	}
	// By default an operator sees the tool's own output, whole; --as-model
	// keeps the transforms the Mux applies for models.
	var opts []mcpfleet.Option
	if !*asModel {
		opts = append(opts, mcpfleet.WithoutNeutralize(), mcpfleet.WithoutOffload())
	}
	mx, err := connect(ctx, c, stderr, opts...)
	if err != nil {
		return err
	}
	defer mx.Close()
	res, err := mx.CallTool(ctx, server, tool, json.RawMessage(raw))
	if err != nil {
		return err // a *RejectError prints as model-readable text, exit 1
	}
	rep := CallReport{Server: res.Server, Tool: res.Tool, IsError: res.IsError, Content: []ContentBlock{},
		Structured: res.StructuredContent, Args: res.Args, Repairs: res.Repairs}
	for _, ct := range res.Content {
		rep.Content = append(rep.Content, block(ct))
	}
	if err := emit(stdout, *asJSON, rep, func(w io.Writer) { writeCall(w, rep) }); err != nil {
		return err
	}
	if rep.IsError {
		// The result is on stdout; the exit code tells scripts it failed.
		return &ExitError{Code: ExitFailure, Err: ErrToolError}
	}
	return nil
}

func block(c mcp.Content) ContentBlock {
	switch v := c.(type) {
	case mcp.TextContent:
		return ContentBlock{Type: "text", Text: v.Text}
	case mcp.ImageContent:
		return ContentBlock{Type: "image", MIMEType: v.MIMEType, Bytes: decodedLen(v.Data)}
	case mcp.AudioContent:
		return ContentBlock{Type: "audio", MIMEType: v.MIMEType, Bytes: decodedLen(v.Data)}
	case mcp.ResourceLink:
		return ContentBlock{Type: "resource_link", URI: v.URI, MIMEType: v.MIMEType}
	case mcp.EmbeddedResource:
		switch r := v.Resource.(type) {
		case mcp.TextResourceContents:
			return ContentBlock{Type: "resource", URI: r.URI, MIMEType: r.MIMEType, Text: r.Text}
		case mcp.BlobResourceContents:
			return ContentBlock{Type: "resource", URI: r.URI, MIMEType: r.MIMEType, Bytes: decodedLen(r.Blob)}
		}
		return ContentBlock{Type: "resource"}
	}
	return ContentBlock{Type: fmt.Sprintf("%T", c)}
}

// decodedLen is the size of base64 data once decoded; malformed data
// counts as its encoded length.
func decodedLen(s string) int {
	if b, err := base64.StdEncoding.DecodeString(s); err == nil {
		return len(b)
	}
	return len(s)
}

// writeCall prints text as is, binaries as one bracketed line, and the
// structured content as one line of JSON.
func writeCall(w io.Writer, r CallReport) {
	for _, b := range r.Content {
		switch {
		case b.Type == "text" || (b.Type == "resource" && b.Text != ""):
			fmt.Fprintln(w, b.Text)
		case b.URI != "" && b.Bytes == 0:
			fmt.Fprintf(w, "[%s %s]\n", b.Type, b.URI)
		case b.URI != "":
			fmt.Fprintf(w, "[%s %s %s, %d bytes]\n", b.Type, b.URI, b.MIMEType, b.Bytes)
		default:
			fmt.Fprintf(w, "[%s %s, %d bytes]\n", b.Type, b.MIMEType, b.Bytes)
		}
	}
	if r.Structured != nil {
		j, err := json.Marshal(r.Structured)
		if err == nil {
			fmt.Fprintln(w, string(j))
		}
	}
}
