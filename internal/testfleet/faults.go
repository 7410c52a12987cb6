package testfleet

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/server"
)

// Fault is a way for an HTTP MCP server to misbehave.
type Fault int32

// Faults that Faulty can inject.
const (
	FaultNone    Fault = iota
	Fault500           // answer 500 Internal Server Error
	FaultGarbage       // answer 200 application/json with a body that is not JSON
	FaultSlow          // answer 200, then dribble the body one byte every 200ms
	FaultCut           // answer 200 with half a body, then close the connection
	FaultHang          // never answer
)

// Faulty wraps a streamable-HTTP MCP handler and injects a Fault into the
// requests whose JSON-RPC method is Method ("" = every request).
type Faulty struct {
	next     http.Handler
	fault    atomic.Int32
	method   atomic.Pointer[string]
	done     chan struct{}
	Requests atomic.Int64 // requests that reached the handler
	Faulted  atomic.Int64 // requests a fault was injected into
}

// Set switches the fault for requests of method ("" = all).
func (f *Faulty) Set(fault Fault, method string) {
	f.method.Store(&method)
	f.fault.Store(int32(fault))
}

func (f *Faulty) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.Requests.Add(1)
	fault := Fault(f.fault.Load())
	if fault != FaultNone && r.Method == http.MethodPost {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		var msg struct {
			Method string `json:"method"`
		}
		_ = json.Unmarshal(body, &msg)
		if m := f.method.Load(); m == nil || *m == "" || *m == msg.Method {
			f.Faulted.Add(1)
			f.inject(fault, w, r)
			return
		}
	}
	f.next.ServeHTTP(w, r)
}

func (f *Faulty) inject(fault Fault, w http.ResponseWriter, r *http.Request) {
	switch fault {
	case Fault500:
		http.Error(w, "internal error", http.StatusInternalServerError)
	case FaultGarbage:
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"jsonrpc":"2.0","id":`+"\x00garbage<html>")
	case FaultSlow:
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusOK)
		for _, b := range []byte(`{"jsonrpc":"2.0","id":1,"result":{"content":[]}}`) {
			select {
			case <-r.Context().Done():
				return
			case <-f.done:
				return
			case <-time.After(200 * time.Millisecond):
			}
			_, _ = w.Write([]byte{b})
			w.(http.Flusher).Flush()
		}
	case FaultCut:
		hj, ok := w.(http.Hijacker)
		if !ok {
			panic("testfleet: FaultCut needs a hijackable connection")
		}
		conn, buf, err := hj.Hijack()
		if err != nil {
			return
		}
		_, _ = buf.WriteString("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 400\r\n\r\n{\"jsonrpc\":\"2.0\",\"id\":1,\"res")
		_ = buf.Flush()
		_ = conn.Close()
	case FaultHang:
		select {
		case <-r.Context().Done():
		case <-f.done:
		}
	}
}

// ServeFaulty serves s over streamable HTTP at <url>/mcp behind a Faulty
// handler, which starts with no fault, until the test ends.
func ServeFaulty(t testing.TB, s *server.MCPServer) (string, *Faulty) {
	t.Helper()
	f := &Faulty{next: server.NewStreamableHTTPServer(s), done: make(chan struct{})}
	ts := httptest.NewServer(f)
	t.Cleanup(ts.Close)
	t.Cleanup(func() { close(f.done) }) // runs first: release hung handlers
	return ts.URL + "/mcp", f
}
