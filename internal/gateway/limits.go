package gateway

import (
	"bytes"
	"fmt"
	"io"
	"net/http"

	"github.com/mcpfleet/mcpfleet/config"
)

// Defaults of the limits on what one client may send, since a shared
// gateway serves many callers: without them a 30 MB searchTools query
// took 6 s and 440 MB, and describeTools with 50,000 names answered with
// a line per name. The fleet file's request_limits section and serve's
// flags set them (Config.MaxRequestBytes and the fields after it).
const (
	// DefaultMaxRequestBytes bounds a /mcp request body.
	DefaultMaxRequestBytes = config.DefaultRequestBodyBytes
	// DefaultMaxQueryBytes bounds a searchTools query: a request in plain
	// words, or a pasted alert, is far shorter.
	DefaultMaxQueryBytes = config.DefaultQueryBytes
	// DefaultMaxDescribeNames bounds the names of one describeTools call.
	DefaultMaxDescribeNames = config.DefaultDescribeNames
	// DefaultMaxPatternBytes bounds a grepResult pattern; it is also the
	// most a Config may set, since the Mux refuses longer patterns itself.
	DefaultMaxPatternBytes = config.DefaultGrepPatternBytes
)

// limitBody answers 413 for a /mcp request body over max bytes. A declared
// Content-Length over it is refused before a byte is read; a chunked body
// is read to at most max+1 bytes, then refused. mcp-go reads the whole body
// into memory itself, so buffering up to max costs no more than it would.
func limitBody(max int64, h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.Body == nil {
			h.ServeHTTP(w, r)
			return
		}
		if r.ContentLength > max {
			http.Error(w, tooLarge(max, fmt.Sprint(r.ContentLength)), http.StatusRequestEntityTooLarge)
			return
		}
		if r.ContentLength < 0 {
			body, err := io.ReadAll(io.LimitReader(r.Body, max+1))
			if err != nil {
				http.Error(w, "reading the request body: "+err.Error(), http.StatusBadRequest)
				return
			}
			if int64(len(body)) > max {
				http.Error(w, tooLarge(max, "more than "+fmt.Sprint(max)), http.StatusRequestEntityTooLarge)
				return
			}
			r.Body = io.NopCloser(bytes.NewReader(body))
		} else {
			r.Body = http.MaxBytesReader(w, r.Body, max)
		}
		h.ServeHTTP(w, r)
	})
}
