package cli

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/mcpfleet/mcpfleet"
	"github.com/mcpfleet/mcpfleet/catalog"
	"github.com/mcpfleet/mcpfleet/config"
	"github.com/mcpfleet/mcpfleet/internal/gateway"
	"github.com/mcpfleet/mcpfleet/stores/rediscache"
	"github.com/mcpfleet/mcpfleet/stores/redislimit"
	"github.com/mcpfleet/mcpfleet/stores/redisstore"
	"github.com/mcpfleet/mcpfleet/telemetry"
)

// envServeTokens supplies bearer tokens when --token-file is absent, in the
// token file format with ";" between entries.
const envServeTokens = "MCPFLEET_SERVE_TOKENS"

// runServe serves the fleet as one MCP server until SIGTERM, SIGINT, ctx's
// end or (stdio) the end of stdin, then drains and closes the fleet.
func runServe(ctx context.Context, env []string, stdin io.Reader, stdout, stderr io.Writer, args []string) error {
	fs, c := newFlagSet("serve", "--config FILE [--transport stdio|http] [--addr 127.0.0.1:7777] [--token-file FILE] [--scopes LIST] [--max-request-bytes N] [--max-query-bytes N] [--max-describe-names N] [--max-pattern-bytes N]", env, stderr)
	transport := fs.String("transport", "stdio", "stdio, or http (streamable HTTP at /mcp, plus /healthz and /metrics)")
	addr := fs.String("addr", "127.0.0.1:7777", "HTTP listen `address`; a non-loopback address needs tokens")
	tokenFile := fs.String("token-file", "", "bearer tokens for HTTP, one `token: scope,scope` a line; default $"+envServeTokens)
	scopes := fs.String("scopes", "read", "comma-separated scopes of callers without a token (stdio, or HTTP without tokens); \"*\" grants all")
	// The request limits default to the fleet file's request_limits; a
	// flag given overrides the file.
	maxBody := fs.Int64("max-request-bytes", 0, "largest /mcp request body in `bytes`; larger ones get HTTP 413 (default request_limits.body_bytes, else 4 MiB)")
	maxQuery := fs.Int("max-query-bytes", 0, "longest searchTools query in `bytes` (default request_limits.query_bytes, else 8192)")
	maxNames := fs.Int("max-describe-names", 0, "most names in one describeTools call (default request_limits.describe_names, else 50)")
	maxPattern := fs.Int("max-pattern-bytes", 0, "longest grepResult pattern in `bytes`, at most 512 (default request_limits.grep_pattern_bytes, else 512)")
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageErrorf("serve takes no arguments, got %q", fs.Args())
	}
	for name, v := range map[string]int64{"max-request-bytes": *maxBody, "max-query-bytes": int64(*maxQuery),
		"max-describe-names": int64(*maxNames), "max-pattern-bytes": int64(*maxPattern)} {
		if v < 0 {
			return usageErrorf("--%s must be > 0, got %d", name, v)
		}
	}
	if *maxPattern > config.MaxGrepPatternBytes {
		return usageErrorf("--max-pattern-bytes must be at most %d (the longest pattern grepResult runs), got %d", config.MaxGrepPatternBytes, *maxPattern)
	}
	if *transport != "stdio" && *transport != "http" {
		return usageErrorf("--transport must be stdio or http, got %q", *transport)
	}
	var tokens map[string][]string
	if *transport == "http" {
		var err error
		if tokens, err = serveTokens(*tokenFile, lookupEnv(env, envServeTokens)); err != nil {
			return err
		}
		if len(tokens) == 0 && !gateway.IsLoopback(*addr) {
			return usageErrorf("%v: %s", gateway.ErrInsecureBind, *addr)
		}
	}
	if c.config == "" {
		return errNoConfig
	}
	cfg, err := loadFleet(c)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(ctx, syscall.SIGTERM, os.Interrupt)
	defer stop()
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	// Traces go where telemetry: and OTEL_* say; over HTTP, /metrics serves
	// the Prometheus format unless they say otherwise.
	topts := telemetry.Options{File: cfg.Telemetry, ServiceName: "mcpfleet", Getenv: func(k string) string { return lookupEnv(env, k) }}
	if *transport == "http" {
		topts.Metrics = config.ExporterPrometheus
	}
	tel, err := telemetry.Start(ctx, topts)
	if err != nil {
		return err
	}
	defer func() {
		sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		if err := tel.Shutdown(sctx); err != nil {
			log.Warn("telemetry: flushing at exit failed", "err", err)
		}
	}()
	// Callers with the same scopes share cached results.
	opts := append([]mcpfleet.Option{mcpfleet.WithLogger(log), mcpfleet.WithCacheScope(gateway.CacheScope)}, tel.MuxOptions()...)
	if c.strict {
		opts = append(opts, mcpfleet.WithStrict())
	}
	lim := cfg.RequestLimits
	gcfg := gateway.Config{Name: "mcpfleet", Scopes: splitList(*scopes), Tokens: tokens, Logger: log,
		MaxRequestBytes: cmp.Or(*maxBody, lim.BodyBytes), MaxQueryBytes: cmp.Or(*maxQuery, lim.QueryBytes),
		MaxDescribeNames: cmp.Or(*maxNames, lim.DescribeNames), MaxPatternBytes: cmp.Or(*maxPattern, lim.GrepPatternBytes),
		Activations: &catalog.MemoryStore{}}
	if cfg.Store.Backend == config.StoreRedis {
		st, err := redisstore.Open(ctx, cfg.Store, cfg.ResultStore)
		if err != nil {
			return err
		}
		defer st.Close()
		// One client for all shared state: offloaded results, loaded
		// tools, cached responses and rate-limit counts.
		opts = append(opts, mcpfleet.WithResultStore(st.Results),
			mcpfleet.WithResponseCache(rediscache.New(st.Client(), st.KeyPrefix())))
		gcfg.Activations, gcfg.Store, gcfg.StoreBackend = st.Activations, st, config.StoreRedis
		gcfg.Limiter = redislimit.New(st.Client(), st.KeyPrefix())
	}
	mx, err := mcpfleet.New(ctx, cfg, opts...)
	if err != nil {
		return err
	}
	defer mx.Close()
	// The catalog reads the kind_settings the Mux runs with: the file's,
	// with the presets it matched merged in, re-read whenever a tool-list
	// change re-matches them.
	gcfg.SettingsFromMux = true
	// A long-running server bounds each search's wait for embeddings,
	// retries the endpoint after a cool-down, and warns again only after
	// it has recovered and failed anew.
	if err := hybridConfig(&gcfg.Catalog, c.env, false, func(err error) {
		log.Warn("embeddings failed; search falls back to BM25 until they recover", "err", err)
	}); err != nil {
		return err
	}
	if err := tel.Observe(mx); err != nil {
		return err
	}
	for _, s := range mx.Status() {
		if !s.State.Serving() && !s.FromCache {
			fmt.Fprintf(stderr, "mcpfleet: warning: server %s (kind %s) is %s: %s\n", s.Name, s.Kind, s.State, s.LastError)
		}
		if s.Warning != "" {
			fmt.Fprintf(stderr, "mcpfleet: warning: server %s (kind %s): %s\n", s.Name, s.Kind, s.Warning)
		}
	}
	gcfg.Mux = mx
	gcfg.MetricsHandler = tel.MetricsHandler()
	g, err := gateway.New(gcfg)
	if err != nil {
		return err
	}
	if *transport == "stdio" {
		return g.ServeStdio(ctx, stdin, stdout)
	}
	return g.ListenAndServe(ctx, *addr, func(a net.Addr) {
		fmt.Fprintf(stderr, "mcpfleet serve: listening on http://%s/mcp\n", a)
	})
}

// serveTokens reads the token file, else the environment variable.
func serveTokens(file, fromEnv string) (map[string][]string, error) {
	if file == "" {
		return gateway.ParseTokens(strings.NewReader(fromEnv))
	}
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return gateway.ParseTokens(f)
}
