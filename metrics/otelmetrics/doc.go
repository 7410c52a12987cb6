// Package otelmetrics reports a Mux's calls, offloads, defusals and
// reconnects as OpenTelemetry metrics.
//
// It implements mcpfleet.Metrics over the OpenTelemetry metric API only
// (go.opentelemetry.io/otel/metric); the caller brings the SDK and its
// exporter (Prometheus, OTLP, …) through a MeterProvider. Keeping this in
// its own package keeps OpenTelemetry out of the dependency graph of users
// who do not want it.
//
// # Instruments
//
//   - mcpfleet.calls (counter): attributes mcpfleet.server, mcpfleet.kind,
//     mcpfleet.tool, mcpfleet.outcome (ok, repaired, rejected, tool_error,
//     upstream_error, timeout, down) and, for rejected and down,
//     mcpfleet.reason (server_down, circuit_open, invalid_arguments, …);
//   - mcpfleet.call.duration (histogram, seconds): same attributes;
//   - mcpfleet.offloaded (counter, bytes) and mcpfleet.offloads (counter):
//     server, kind, tool;
//   - mcpfleet.defused (counter): pieces of tool output escaped because they
//     imitated instructions; server, kind, tool;
//   - mcpfleet.reconnects (counter): server.
//   - mcpfleet.repairs (counter): server, kind, tool and
//     mcpfleet.transformer, the normalizer that changed the arguments;
//   - mcpfleet.rejections (counter): rejected and down calls, with
//     mcpfleet.reason;
//   - mcp.client.operation.duration (histogram, seconds; semconv v1.41.0):
//     the time the server took to answer tools/call, for calls that reached
//     it; mcp.method.name, gen_ai.tool.name, error.type, mcpfleet.server;
//   - mcp.server.operation.duration (histogram, seconds; semconv v1.41.0)
//     and mcpfleet.gateway.requests.active (up-down counter): the requests
//     mcpfleet serve answers (RequestStarted, RequestDone);
//   - with ObserveFleet, per server: mcpfleet.server.up,
//     mcpfleet.breaker.open and mcpfleet.server.in_flight (gauges).
//
// Tool names come from servers and are bounded by their tool lists, so the
// attribute cardinality is that of the fleet's tools.
package otelmetrics
