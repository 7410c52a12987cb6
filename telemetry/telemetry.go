package telemetry

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"slices"
	"strings"

	promclient "github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	otelprom "go.opentelemetry.io/otel/exporters/prometheus"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	semconv "go.opentelemetry.io/otel/semconv/v1.41.0"
	"go.opentelemetry.io/otel/trace"

	"github.com/mcpfleet/mcpfleet"
	"github.com/mcpfleet/mcpfleet/config"
	"github.com/mcpfleet/mcpfleet/metrics/otelmetrics"
)

// Options are the inputs of [Start] besides the environment.
type Options struct {
	// File is the fleet file's telemetry section; its keys win over the
	// OTEL_* variables that choose exporters.
	File config.Telemetry
	// ServiceName is service.name when neither the file nor
	// OTEL_SERVICE_NAME gives one; "" means "mcpfleet".
	ServiceName string
	// Metrics is the metric exporter when neither the file nor
	// OTEL_METRICS_EXPORTER chooses one: mcpfleet serve passes
	// "prometheus" so that /metrics works; "" means none.
	Metrics string
	// SpanExporters receive every span synchronously, besides the chosen
	// trace exporter: a *Tree for --trace. With any, tracing is on.
	SpanExporters []sdktrace.SpanExporter
	// Getenv reads the variables that choose exporters; nil means
	// os.Getenv. The OTLP exporter itself reads the process environment
	// (OTEL_EXPORTER_OTLP_*), as every OpenTelemetry SDK does.
	Getenv func(string) string
}

// SettingError is an exporter choice mcpfleet does not support, from an
// environment variable; the fleet file's keys are checked when it loads.
type SettingError struct {
	Setting, Value, Want string
}

func (e *SettingError) Error() string {
	return fmt.Sprintf("telemetry: %s: got %q, want %s", e.Setting, e.Value, e.Want)
}

// Telemetry holds the providers Start built. Its zero parts are off.
type Telemetry struct {
	tp       *sdktrace.TracerProvider
	mp       *sdkmetric.MeterProvider
	metrics  *otelmetrics.Metrics
	handler  http.Handler
	stops    []func() error
	traceExp string
}

// Start builds what o and the environment choose. With nothing chosen it
// returns a Telemetry whose parts are all off, and MuxOptions adds nothing:
// the Mux then pays nothing for telemetry.
func Start(ctx context.Context, o Options) (*Telemetry, error) {
	getenv := o.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	t := &Telemetry{}
	if strings.EqualFold(strings.TrimSpace(getenv("OTEL_SDK_DISABLED")), "true") && len(o.SpanExporters) == 0 {
		return t, nil
	}
	traces, err := choose(o.File.Traces, "OTEL_TRACES_EXPORTER", getenv, config.TraceExporters(), func() string {
		if getenv("OTEL_EXPORTER_OTLP_ENDPOINT") != "" || getenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT") != "" {
			return config.ExporterOTLP
		}
		return config.ExporterNone
	})
	if err != nil {
		return nil, err
	}
	metrics, err := choose(o.File.Metrics, "OTEL_METRICS_EXPORTER", getenv, config.MetricExporters(), func() string {
		if o.Metrics == "" {
			return config.ExporterNone
		}
		return o.Metrics
	})
	if err != nil {
		return nil, err
	}
	t.traceExp = traces
	if traces == config.ExporterNone && len(o.SpanExporters) == 0 && metrics == config.ExporterNone {
		return t, nil
	}
	res, err := newResource(ctx, o, getenv)
	if err != nil {
		return nil, err
	}
	if traces != config.ExporterNone || len(o.SpanExporters) > 0 {
		topts := []sdktrace.TracerProviderOption{sdktrace.WithResource(res)}
		for _, e := range o.SpanExporters {
			topts = append(topts, sdktrace.WithSyncer(e))
		}
		if traces == config.ExporterOTLP {
			exp, err := otlptracehttp.New(ctx)
			if err != nil {
				return nil, fmt.Errorf("telemetry: OTLP trace exporter: %w", err)
			}
			topts = append(topts, sdktrace.WithBatcher(exp))
		}
		t.tp = sdktrace.NewTracerProvider(topts...)
	}
	if metrics == config.ExporterPrometheus {
		reg := promclient.NewRegistry()
		exp, err := otelprom.New(otelprom.WithRegisterer(reg))
		if err != nil {
			return nil, fmt.Errorf("telemetry: Prometheus exporter: %w", err)
		}
		t.mp = sdkmetric.NewMeterProvider(sdkmetric.WithReader(exp), sdkmetric.WithResource(res))
		if t.metrics, err = otelmetrics.New(otelmetrics.Config{MeterProvider: t.mp}); err != nil {
			return nil, err
		}
		t.handler = promhttp.HandlerFor(reg, promhttp.HandlerOpts{})
	}
	return t, nil
}

// choose returns the file's value, else the variable's (checked against
// valid), else def().
func choose(file, variable string, getenv func(string) string, valid []string, def func() string) (string, error) {
	if file != "" {
		return file, nil // config.Validate checked it
	}
	v := strings.ToLower(strings.TrimSpace(getenv(variable)))
	if v == "" {
		return def(), nil
	}
	if !slices.Contains(valid, v) {
		return "", &SettingError{Setting: variable, Value: v, Want: "one of " + strings.Join(valid, ", ")}
	}
	return v, nil
}

// newResource describes the service: service.name from the file, else
// OTEL_SERVICE_NAME, else Options.ServiceName; OTEL_RESOURCE_ATTRIBUTES
// adds the rest. The schema is semconv v1.41.0's.
func newResource(ctx context.Context, o Options, getenv func(string) string) (*resource.Resource, error) {
	name := o.File.ServiceName
	if name == "" {
		name = getenv("OTEL_SERVICE_NAME")
	}
	if name == "" {
		name = o.ServiceName
	}
	if name == "" {
		name = "mcpfleet"
	}
	// The environment's attributes (OTEL_RESOURCE_ATTRIBUTES) carry no
	// schema; the service name carries the one mcpfleet emits.
	r, err := resource.Merge(resource.EnvironmentWithContext(ctx), resource.NewWithAttributes(semconv.SchemaURL, semconv.ServiceName(name)))
	if err != nil {
		return nil, fmt.Errorf("telemetry: resource: %w", err)
	}
	return r, nil
}

// TraceExporter is the trace exporter chosen: otlp or none.
func (t *Telemetry) TraceExporter() string { return t.traceExp }

// TracerProvider is the SDK provider, or nil when tracing is off.
func (t *Telemetry) TracerProvider() trace.TracerProvider {
	if t.tp == nil {
		return nil
	}
	return t.tp
}

// Metrics is the mcpfleet.Metrics to count through, or nil when metrics
// are off.
func (t *Telemetry) Metrics() *otelmetrics.Metrics { return t.metrics }

// MetricsHandler serves the Prometheus text format, or is nil when
// metrics are off.
func (t *Telemetry) MetricsHandler() http.Handler { return t.handler }

// MuxOptions are the options that make a Mux trace and count through t;
// none when both are off.
func (t *Telemetry) MuxOptions() []mcpfleet.Option {
	var out []mcpfleet.Option
	if t.tp != nil {
		out = append(out, mcpfleet.WithTracerProvider(t.tp))
	}
	if t.metrics != nil {
		out = append(out, mcpfleet.WithMetrics(t.metrics))
	}
	return out
}

// Observe reports f's servers (up, breaker, slots) at each scrape, until
// Shutdown. It does nothing when metrics are off.
func (t *Telemetry) Observe(f otelmetrics.Fleet) error {
	if t.metrics == nil {
		return nil
	}
	stop, err := t.metrics.ObserveFleet(f)
	if err != nil {
		return err
	}
	t.stops = append(t.stops, stop)
	return nil
}

// Shutdown flushes what is buffered and stops the exporters.
func (t *Telemetry) Shutdown(ctx context.Context) error {
	var errs []error
	for _, stop := range t.stops {
		errs = append(errs, stop())
	}
	if t.tp != nil {
		errs = append(errs, t.tp.Shutdown(ctx))
	}
	if t.mp != nil {
		errs = append(errs, t.mp.Shutdown(ctx))
	}
	return errors.Join(errs...)
}
