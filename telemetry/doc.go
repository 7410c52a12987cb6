// Package telemetry installs OpenTelemetry for a program built on
// mcpfleet: it reads the fleet file's telemetry section and the standard
// OTEL_* variables, builds the SDK's tracer and meter providers with the
// OTLP/HTTP trace exporter and the Prometheus exporter, and hands them to
// a Mux as options.
//
//	tel, err := telemetry.Start(ctx, telemetry.Options{File: cfg.Telemetry, Metrics: "prometheus"})
//	...
//	defer tel.Shutdown(context.Background()) // flushes spans still buffered
//	mx, err := mcpfleet.New(ctx, cfg, tel.MuxOptions()...)
//	_ = tel.Observe(mx)                        // servers up, breakers, slots
//	http.Handle("/metrics", tel.MetricsHandler())
//
// # Choosing exporters
//
// The fleet file's telemetry.traces and telemetry.metrics win; else
// OTEL_TRACES_EXPORTER and OTEL_METRICS_EXPORTER; else traces go over OTLP
// when OTEL_EXPORTER_OTLP_ENDPOINT (or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT)
// is set, and metrics use Options.Metrics. OTEL_SDK_DISABLED=true turns
// everything off. The exporters read the rest of their settings from the
// environment as every OpenTelemetry SDK does (OTEL_EXPORTER_OTLP_HEADERS,
// OTEL_BSP_*, OTEL_TRACES_SAMPLER, OTEL_RESOURCE_ATTRIBUTES, …). With
// nothing chosen Start builds nothing and MuxOptions is empty, so the Mux
// pays nothing.
//
// # Semantic conventions
//
// Spans and metrics follow OpenTelemetry semantic conventions v1.41.0
// (the resource's schema URL says so): execute_tool and invoke_agent
// spans, chat spans with gen_ai.usage.*, MCP client and server spans
// "tools/call <tool>" with mcp.method.name, and the
// mcp.client.operation.duration and mcp.server.operation.duration
// histograms. docs/observability.md lists every span and metric.
//
// # --trace
//
// A [Tree] given in Options.SpanExporters keeps every span, and
// [Tree.Write] prints a run as an indented tree.
package telemetry
