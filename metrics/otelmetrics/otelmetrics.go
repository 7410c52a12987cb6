package otelmetrics

import (
	"context"
	"errors"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"

	"github.com/mcpfleet/mcpfleet"
)

// Attribute keys.
const (
	KeyServer  = "mcpfleet.server"
	KeyKind    = "mcpfleet.kind"
	KeyTool    = "mcpfleet.tool"
	KeyOutcome = "mcpfleet.outcome"
	KeyReason  = "mcpfleet.reason"
	KeyCache   = "mcpfleet.cache"
)

// Config says where to report.
type Config struct {
	// MeterProvider supplies the meter; required.
	MeterProvider metric.MeterProvider
	// Buckets are the duration histogram's bucket bounds in seconds; nil
	// means DefaultBuckets.
	Buckets []float64
}

// DefaultBuckets suit tool calls: from a millisecond (in-process, cached)
// to a minute (the default call timeout).
var DefaultBuckets = []float64{0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60}

// Metrics implements mcpfleet.Metrics.
type Metrics struct {
	calls      metric.Int64Counter
	duration   metric.Float64Histogram
	offBytes   metric.Int64Counter
	offloads   metric.Int64Counter
	defused    metric.Int64Counter
	reconnects metric.Int64Counter
	cache      metric.Int64Counter
}

var _ mcpfleet.Metrics = (*Metrics)(nil)

// ErrNoMeterProvider is returned by New without a MeterProvider.
var ErrNoMeterProvider = errors.New("otelmetrics: Config.MeterProvider is required")

// New creates the instruments on cfg.MeterProvider's meter
// "github.com/mcpfleet/mcpfleet".
func New(cfg Config) (*Metrics, error) {
	if cfg.MeterProvider == nil {
		return nil, ErrNoMeterProvider
	}
	buckets := cfg.Buckets
	if buckets == nil {
		buckets = DefaultBuckets
	}
	m := cfg.MeterProvider.Meter("github.com/mcpfleet/mcpfleet")
	var out Metrics
	var errs [7]error
	out.calls, errs[0] = m.Int64Counter("mcpfleet.calls", metric.WithDescription("Tool calls by server, tool and outcome."), metric.WithUnit("{call}"))
	out.duration, errs[1] = m.Float64Histogram("mcpfleet.call.duration", metric.WithDescription("Tool call duration, gates included."),
		metric.WithUnit("s"), metric.WithExplicitBucketBoundaries(buckets...))
	out.offBytes, errs[2] = m.Int64Counter("mcpfleet.offloaded", metric.WithDescription("Bytes of results moved out of the context into the result store."), metric.WithUnit("By"))
	out.offloads, errs[3] = m.Int64Counter("mcpfleet.offloads", metric.WithDescription("Results moved out of the context."), metric.WithUnit("{result}"))
	out.defused, errs[4] = m.Int64Counter("mcpfleet.defused", metric.WithDescription("Pieces of tool output escaped because they imitated instructions or role turns."), metric.WithUnit("{span}"))
	out.reconnects, errs[5] = m.Int64Counter("mcpfleet.reconnects", metric.WithDescription("Servers back after being down."), metric.WithUnit("{reconnect}"))
	out.cache, errs[6] = m.Int64Counter("mcpfleet.cache", metric.WithDescription("Calls the response cache covers, by how it answered: hit, shared or miss."), metric.WithUnit("{call}"))
	if err := errors.Join(errs[:]...); err != nil {
		return nil, err
	}
	return &out, nil
}

func callAttrs(c *mcpfleet.Call) []attribute.KeyValue {
	return []attribute.KeyValue{
		attribute.String(KeyServer, c.Server),
		attribute.String(KeyKind, c.Kind),
		attribute.String(KeyTool, c.Tool),
	}
}

// CallDone counts the call and records its duration.
func (m *Metrics) CallDone(ctx context.Context, c *mcpfleet.Call, o mcpfleet.Outcome) {
	attrs := append(callAttrs(c), attribute.String(KeyOutcome, string(o.Status)))
	if o.Reason != "" {
		attrs = append(attrs, attribute.String(KeyReason, string(o.Reason)))
	}
	set := metric.WithAttributeSet(attribute.NewSet(attrs...))
	// The caller's ctx may be cancelled already (a timeout is an outcome
	// too); recording must not depend on it.
	ctx = context.WithoutCancel(ctx)
	m.calls.Add(ctx, 1, set)
	m.duration.Record(ctx, o.Duration.Seconds(), set)
}

// Offloaded counts a result of n bytes moved to the result store.
func (m *Metrics) Offloaded(ctx context.Context, c *mcpfleet.Call, n int64) {
	set := metric.WithAttributeSet(attribute.NewSet(callAttrs(c)...))
	ctx = context.WithoutCancel(ctx)
	m.offBytes.Add(ctx, n, set)
	m.offloads.Add(ctx, 1, set)
}

// Defused counts n escaped spans.
func (m *Metrics) Defused(ctx context.Context, c *mcpfleet.Call, n int) {
	m.defused.Add(context.WithoutCancel(ctx), int64(n), metric.WithAttributeSet(attribute.NewSet(callAttrs(c)...)))
}

// Reconnected counts a server coming back.
func (m *Metrics) Reconnected(ctx context.Context, server string) {
	m.reconnects.Add(context.WithoutCancel(ctx), 1, metric.WithAttributes(attribute.String(KeyServer, server)))
}

// Cached counts a call the response cache covered, by how it answered.
func (m *Metrics) Cached(ctx context.Context, c *mcpfleet.Call, r mcpfleet.CacheResult) {
	attrs := append(callAttrs(c), attribute.String(KeyCache, string(r)))
	m.cache.Add(context.WithoutCancel(ctx), 1, metric.WithAttributeSet(attribute.NewSet(attrs...)))
}
