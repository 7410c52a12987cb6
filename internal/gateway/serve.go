package gateway

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"

	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpfleet/mcpfleet"
	"github.com/mcpfleet/mcpfleet/catalog"
)

// Health is what /healthz serves.
type Health struct {
	// Status is "ok" when every server is up and the shared store (if
	// any) answers, else "degraded".
	Status  string                  `json:"status"`
	Servers []mcpfleet.ServerStatus `json:"servers"`
	Store   *StoreStatus            `json:"store,omitempty"`
}

// StoreStatus is the shared store's state in Health.
type StoreStatus struct {
	Backend string `json:"backend"`
	State   string `json:"state"` // "up" or "down"
	Error   string `json:"error,omitempty"`
}

// Health reports the fleet's state.
func (g *Gateway) Health() Health {
	h := Health{Status: "ok", Servers: g.mux.Status()}
	for _, s := range h.Servers {
		if !s.State.Serving() {
			h.Status = "degraded"
		}
	}
	if g.cfg.Store != nil {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		h.Store = &StoreStatus{Backend: g.cfg.StoreBackend, State: "up"}
		if err := g.cfg.Store.Ping(ctx); err != nil {
			h.Store.State, h.Store.Error, h.Status = "down", err.Error(), "degraded"
		}
	}
	return h
}

// Handler returns the HTTP API: /mcp (streamable HTTP, authenticated),
// /healthz and, when Config.MetricsHandler is set, /metrics (authenticated
// when tokens are configured).
func (g *Gateway) Handler() http.Handler {
	mcpH := server.NewStreamableHTTPServer(g.srv, server.WithEndpointPath("/mcp"),
		server.WithHTTPContextFunc(func(ctx context.Context, r *http.Request) context.Context {
			return withConversation(ctx, r.Header.Get(HeaderConversation))
		}))
	mux := http.NewServeMux()
	mux.Handle("/mcp", limitBody(g.cfg.MaxRequestBytes, g.authenticate(mcpH)))
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) { writeJSON(w, g.Health()) })
	if g.cfg.MetricsHandler != nil {
		mux.Handle("GET /metrics", g.authenticate(g.cfg.MetricsHandler))
	}
	return mux
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	_ = enc.Encode(v)
}

// ListenAndServe serves Handler on addr until ctx ends, then shuts down
// gracefully: the listener closes, requests in flight finish (at most
// DrainTimeout), and it returns nil. A non-loopback addr without tokens is
// refused with ErrInsecureBind. ready, if non-nil, receives the bound
// address once listening (useful with port 0).
func (g *Gateway) ListenAndServe(ctx context.Context, addr string, ready func(net.Addr)) error {
	if len(g.cfg.Tokens) == 0 && !IsLoopback(addr) {
		return fmt.Errorf("%w: %s (give tokens, or bind 127.0.0.1)", ErrInsecureBind, addr)
	}
	ln, err := (&net.ListenConfig{}).Listen(ctx, "tcp", addr)
	if err != nil {
		return err
	}
	hs := &http.Server{
		Handler:           g.Handler(),
		ReadHeaderTimeout: 10 * time.Second,
		// Requests must not be cancelled by shutdown: they are drained.
		BaseContext: func(net.Listener) context.Context { return context.WithoutCancel(ctx) },
	}
	if ready != nil {
		ready(ln.Addr())
	}
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	g.draining.Store(true)
	sctx, cancel := context.WithTimeout(context.Background(), g.cfg.DrainTimeout)
	defer cancel()
	err = hs.Shutdown(sctx)
	if serr := <-errc; serr != nil && !errors.Is(serr, http.ErrServerClosed) {
		err = errors.Join(err, serr)
	}
	return err
}

// ServeStdio serves one client over r and w until ctx ends or r reaches
// EOF. At ctx's end, new calls are refused, calls in flight finish (at most
// DrainTimeout), and it returns nil.
func (g *Gateway) ServeStdio(ctx context.Context, r io.Reader, w io.Writer) error {
	// Listen cancels its handlers when its ctx ends, so it gets a ctx that
	// ends only after the drain.
	lctx, stop := context.WithCancel(context.WithoutCancel(ctx))
	defer stop()
	ss := server.NewStdioServer(g.srv)
	ss.SetContextFunc(func(c context.Context) context.Context {
		return catalog.WithScopes(c, g.cfg.Scopes...)
	})
	errc := make(chan error, 1)
	go func() { errc <- ss.Listen(lctx, r, w) }()
	select {
	case err := <-errc:
		return ignoreEOF(err)
	case <-ctx.Done():
	}
	g.draining.Store(true)
	g.drain()
	stop()
	return ignoreEOF(<-errc)
}

func ignoreEOF(err error) error {
	if err == nil || errors.Is(err, io.EOF) || errors.Is(err, context.Canceled) {
		return nil
	}
	return err
}
