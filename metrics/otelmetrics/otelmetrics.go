package otelmetrics

import (
	"context"
	"errors"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/semconv/v1.41.0/mcpconv"

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
	// KeyTransformer names the normalizer of a repair.
	KeyTransformer = "mcpfleet.transformer"
	// KeyState is a server's connection state (up, down, connecting).
	KeyState = "mcpfleet.state"
	// KeyProblem is a pinning problem: changed, unlocked or poisoned.
	KeyProblem = "mcpfleet.pin.problem"
	// KeyQuarantined is true when a flagged tool was quarantined
	// (pinning: enforce), false when it stays listed (warn).
	KeyQuarantined = "mcpfleet.pin.quarantined"
)

// Semantic-convention keys (v1.41.0) on the MCP operation histograms.
const (
	keyMCPMethod = attribute.Key("mcp.method.name")
	keyToolName  = attribute.Key("gen_ai.tool.name")
	keyErrorType = attribute.Key("error.type")
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
	meter      metric.Meter
	calls      metric.Int64Counter
	repairs    metric.Int64Counter
	rejections metric.Int64Counter
	client     mcpconv.ClientOperationDuration
	server     mcpconv.ServerOperationDuration
	active     metric.Int64UpDownCounter
	duration   metric.Float64Histogram
	offBytes   metric.Int64Counter
	offloads   metric.Int64Counter
	defused    metric.Int64Counter
	reconnects metric.Int64Counter
	cache      metric.Int64Counter
	pins       metric.Int64Counter
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
	out := Metrics{meter: m}
	var errs [14]error
	out.calls, errs[0] = m.Int64Counter("mcpfleet.calls", metric.WithDescription("Tool calls by server, tool and outcome."), metric.WithUnit("{call}"))
	out.duration, errs[1] = m.Float64Histogram("mcpfleet.call.duration", metric.WithDescription("Tool call duration, gates included."),
		metric.WithUnit("s"), metric.WithExplicitBucketBoundaries(buckets...))
	out.offBytes, errs[2] = m.Int64Counter("mcpfleet.offloaded", metric.WithDescription("Bytes of results moved out of the context into the result store."), metric.WithUnit("By"))
	out.offloads, errs[3] = m.Int64Counter("mcpfleet.offloads", metric.WithDescription("Results moved out of the context."), metric.WithUnit("{result}"))
	out.defused, errs[4] = m.Int64Counter("mcpfleet.defused", metric.WithDescription("Pieces of tool output escaped because they imitated instructions or role turns."), metric.WithUnit("{span}"))
	out.reconnects, errs[5] = m.Int64Counter("mcpfleet.reconnects", metric.WithDescription("Servers back after being down."), metric.WithUnit("{reconnect}"))
	out.repairs, errs[6] = m.Int64Counter("mcpfleet.repairs", metric.WithDescription("Arguments repaired, by the normalizer that changed them."), metric.WithUnit("{repair}"))
	out.rejections, errs[7] = m.Int64Counter("mcpfleet.rejections", metric.WithDescription("Calls refused before or instead of reaching the server, by reason."), metric.WithUnit("{call}"))
	out.client, errs[8] = mcpconv.NewClientOperationDuration(m, metric.WithExplicitBucketBoundaries(buckets...))
	out.server, errs[9] = mcpconv.NewServerOperationDuration(m, metric.WithExplicitBucketBoundaries(buckets...))
	out.active, errs[10] = m.Int64UpDownCounter("mcpfleet.gateway.requests.active", metric.WithDescription("Gateway requests being served now."), metric.WithUnit("{request}"))
	out.cache, errs[11] = m.Int64Counter("mcpfleet.cache", metric.WithDescription("Calls the response cache covers, by how it answered: hit, shared or miss."), metric.WithUnit("{call}"))
	out.pins, errs[12] = m.Int64Counter("mcpfleet.pin.flagged", metric.WithDescription("Tool definitions that failed a pinning check at list time, by problem; quarantined under enforce, listed under warn."), metric.WithUnit("{definition}"))
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
	if o.Reason != "" {
		m.rejections.Add(ctx, 1, set)
	}
	for _, r := range c.Repairs {
		m.repairs.Add(ctx, 1, metric.WithAttributes(append(callAttrs(c), attribute.String(KeyTransformer, r))...))
	}
	if o.Upstream > 0 {
		attrs := []attribute.KeyValue{keyMCPMethod.String("tools/call"), keyToolName.String(c.Tool), attribute.String(KeyServer, c.Server)}
		switch o.Status {
		case mcpfleet.StatusToolError:
			attrs = append(attrs, keyErrorType.String("tool_error"))
		case mcpfleet.StatusTimeout, mcpfleet.StatusUpstreamError:
			attrs = append(attrs, keyErrorType.String(string(o.Status)))
		}
		m.client.Inst().Record(ctx, o.Upstream.Seconds(), metric.WithAttributes(attrs...))
	}
}

// RequestStarted counts a request the gateway began to serve; tool is the
// gateway tool (callTool, searchTools, …).
func (m *Metrics) RequestStarted(ctx context.Context, tool string) {
	m.active.Add(context.WithoutCancel(ctx), 1)
}

// RequestDone records a gateway request's duration as the semconv
// mcp.server.operation.duration; errType is "" for success, else the
// error.type.
func (m *Metrics) RequestDone(ctx context.Context, tool string, d time.Duration, errType string) {
	ctx = context.WithoutCancel(ctx)
	m.active.Add(ctx, -1)
	attrs := []attribute.KeyValue{keyMCPMethod.String("tools/call"), keyToolName.String(tool)}
	if errType != "" {
		attrs = append(attrs, keyErrorType.String(errType))
	}
	m.server.Inst().Record(ctx, d.Seconds(), metric.WithAttributes(attrs...))
}

// Fleet is what ObserveFleet reads: a *mcpfleet.Mux.
type Fleet interface {
	Status() []mcpfleet.ServerStatus
}

// ObserveFleet reports each server of f at every collection:
// mcpfleet.server.up (1 when up, else 0; attributes server, kind, state),
// mcpfleet.breaker.open (1 while the circuit is open) and
// mcpfleet.server.in_flight. Call the returned function to stop.
func (m *Metrics) ObserveFleet(f Fleet) (stop func() error, err error) {
	up, err1 := m.meter.Int64ObservableGauge("mcpfleet.server.up", metric.WithDescription("1 when the server is up, else 0."), metric.WithUnit("{server}"))
	open, err2 := m.meter.Int64ObservableGauge("mcpfleet.breaker.open", metric.WithDescription("1 while the server's circuit breaker is open, else 0."), metric.WithUnit("{server}"))
	inflight, err3 := m.meter.Int64ObservableGauge("mcpfleet.server.in_flight", metric.WithDescription("Calls holding one of the server's slots."), metric.WithUnit("{call}"))
	if err := errors.Join(err1, err2, err3); err != nil {
		return nil, err
	}
	reg, err := m.meter.RegisterCallback(func(_ context.Context, o metric.Observer) error {
		now := time.Now()
		for _, s := range f.Status() {
			base := []attribute.KeyValue{attribute.String(KeyServer, s.Name), attribute.String(KeyKind, s.Kind)}
			var isUp, isOpen int64
			if s.State == mcpfleet.StateUp {
				isUp = 1
			}
			if s.CircuitOpenUntil.After(now) {
				isOpen = 1
			}
			o.ObserveInt64(up, isUp, metric.WithAttributes(append(base, attribute.String(KeyState, string(s.State)))...))
			o.ObserveInt64(open, isOpen, metric.WithAttributes(base...))
			o.ObserveInt64(inflight, int64(s.InFlight), metric.WithAttributes(base...))
		}
		return nil
	}, up, open, inflight)
	if err != nil {
		return nil, err
	}
	return reg.Unregister, nil
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

// PinFlagged counts a definition that failed a pinning check, once per
// problem it has.
func (m *Metrics) PinFlagged(ctx context.Context, is mcpfleet.PinIssue) {
	ctx = context.WithoutCancel(ctx)
	for _, p := range is.Problems {
		m.pins.Add(ctx, 1, metric.WithAttributes(attribute.String(KeyServer, is.Server), attribute.String(KeyKind, is.Kind),
			attribute.String(KeyTool, is.Tool), attribute.String(KeyProblem, p), attribute.Bool(KeyQuarantined, is.Quarantined)))
	}
}

// Cached counts a call the response cache covered, by how it answered.
func (m *Metrics) Cached(ctx context.Context, c *mcpfleet.Call, r mcpfleet.CacheResult) {
	attrs := append(callAttrs(c), attribute.String(KeyCache, string(r)))
	m.cache.Add(context.WithoutCancel(ctx), 1, metric.WithAttributeSet(attribute.NewSet(attrs...)))
}
