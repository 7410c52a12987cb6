package config

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Exporter names accepted in telemetry.traces and telemetry.metrics.
const (
	ExporterNone       = "none"
	ExporterOTLP       = "otlp"
	ExporterPrometheus = "prometheus"
)

// Semconv is the one OpenTelemetry semantic-conventions version mcpfleet
// emits; telemetry.semconv may only name it.
const Semconv = "1.41.0"

// Defaults of the audit section.
const (
	DefaultAuditMaxBytes = 100 << 20
	DefaultAuditMaxFiles = 5
)

// Telemetry chooses what mcpfleet exports. The exporters themselves are
// configured the standard way, by the OTEL_* environment variables
// (OTEL_EXPORTER_OTLP_ENDPOINT, OTEL_SERVICE_NAME, …); see
// docs/observability.md. With nothing set, nothing is exported.
type Telemetry struct {
	// Traces is "otlp" or "none". "" leaves the choice to
	// OTEL_TRACES_EXPORTER, else otlp when an OTLP endpoint variable is
	// set, else none.
	Traces string `koanf:"traces" json:"traces,omitempty"`
	// Metrics is "prometheus" (served at /metrics by mcpfleet serve) or
	// "none". "" leaves the choice to OTEL_METRICS_EXPORTER, else
	// prometheus.
	Metrics string `koanf:"metrics" json:"metrics,omitempty"`
	// ServiceName is the service.name resource attribute; "" means
	// OTEL_SERVICE_NAME, else the program's name.
	ServiceName string `koanf:"service_name" json:"service_name,omitempty"`
	// Semconv, if set, must be the version mcpfleet emits ([Semconv]): a
	// file that expects another one is refused rather than exported in a
	// shape its dashboards do not read.
	Semconv string `koanf:"semconv" json:"semconv,omitempty"`
	// CaptureBytes, when > 0, records each call's arguments and result on
	// its span, cut to this many bytes: for debugging only, since they may
	// hold secrets. 0 records neither.
	CaptureBytes int `koanf:"capture_bytes" json:"capture_bytes,omitempty"`
}

// Audit turns on the audit log: one JSON line per call. Path is required
// to turn it on.
type Audit struct {
	// Path is the log file, relative to the fleet file's folder; the
	// folder must exist.
	Path string `koanf:"path" json:"path,omitempty"`
	// MaxBytes rotates the file once it would grow past this size
	// (0 = DefaultAuditMaxBytes).
	MaxBytes int64 `koanf:"max_bytes" json:"max_bytes,omitempty"`
	// MaxFiles is how many rotated files (path.1 … path.N) are kept
	// (0 = DefaultAuditMaxFiles).
	MaxFiles int `koanf:"max_files" json:"max_files,omitempty"`
	// Sync says when lines are forced to disk (fsync): AuditSyncAlways
	// after each line, AuditSyncInterval (the default, "") within a
	// second and at rotation and exit, AuditSyncNever leaves it to the
	// operating system. See docs/observability.md.
	Sync string `koanf:"sync" json:"sync,omitempty"`
}

// Values of Audit.Sync.
const (
	AuditSyncAlways   = "always"
	AuditSyncInterval = "interval"
	AuditSyncNever    = "never"
)

// AuditSyncModes lists the valid Audit.Sync values.
func AuditSyncModes() []string { return []string{AuditSyncAlways, AuditSyncInterval, AuditSyncNever} }

// TraceExporters and MetricExporters list the accepted exporter names.
func TraceExporters() []string  { return []string{ExporterOTLP, ExporterNone} }
func MetricExporters() []string { return []string{ExporterPrometheus, ExporterNone} }

// validateTelemetry checks the telemetry and audit sections, except the
// audit folder, which only Load can look at.
func (f *Fleet) validateTelemetry(add func(Problem)) {
	t := f.Telemetry
	oneOf := func(field, v string, valid []string) {
		if v != "" && !slices.Contains(valid, v) {
			add(Problem{Server: "telemetry", Field: field, Value: v, Want: "one of " + strings.Join(valid, ", "), Hint: suggest(v, valid)})
		}
	}
	oneOf("traces", t.Traces, TraceExporters())
	oneOf("metrics", t.Metrics, MetricExporters())
	if t.Semconv != "" && strings.TrimPrefix(t.Semconv, "v") != Semconv {
		add(Problem{Server: "telemetry", Field: "semconv", Value: t.Semconv, Want: Semconv + ", the semantic conventions mcpfleet emits"})
	}
	if t.CaptureBytes < 0 {
		add(Problem{Server: "telemetry", Field: "capture_bytes", Value: fmt.Sprint(t.CaptureBytes), Want: "a size in bytes >= 0 (0 records no arguments or results)"})
	}
	a := f.Audit
	if a.MaxBytes < 0 {
		add(Problem{Server: "audit", Field: "max_bytes", Value: fmt.Sprint(a.MaxBytes), Want: "a size in bytes >= 0 (0 means 100 MiB)"})
	}
	if a.MaxFiles < 0 {
		add(Problem{Server: "audit", Field: "max_files", Value: fmt.Sprint(a.MaxFiles), Want: fmt.Sprintf("a number >= 0 (0 means %d)", DefaultAuditMaxFiles)})
	}
	if m := a.Sync; m != "" && !slices.Contains(AuditSyncModes(), m) {
		add(Problem{Server: "audit", Field: "sync", Value: m, Want: "one of " + strings.Join(AuditSyncModes(), ", "), Hint: suggest(m, AuditSyncModes())})
	}
	if a.Path == "" && (a.MaxBytes != 0 || a.MaxFiles != 0 || a.Sync != "") {
		add(Problem{Server: "audit", Field: "path", Want: "the log file's path, since other audit keys are set"})
	}
}

// resolveAudit expands ${VAR} in audit.path, makes it absolute against dir
// and checks that its folder exists: a log that cannot be opened must fail
// the load, not the first call.
func (a *Audit) resolve(dir string, lookup func(string) (string, bool)) (Problem, bool) {
	if a.Path == "" {
		return Problem{}, true
	}
	a.Path = expand(a.Path, lookup)
	if dir != "" && !filepath.IsAbs(a.Path) {
		a.Path = filepath.Join(dir, a.Path)
	}
	folder := filepath.Dir(a.Path)
	st, err := os.Stat(folder)
	switch {
	case err != nil:
		return Problem{Server: "audit", Field: "path", Value: a.Path, Want: "a file in an existing folder (" + folder + ": " + errText(err) + ")"}, false
	case !st.IsDir():
		return Problem{Server: "audit", Field: "path", Value: a.Path, Want: "a file in an existing folder (" + folder + " is not a folder)"}, false
	}
	if st, err := os.Stat(a.Path); err == nil && st.IsDir() {
		return Problem{Server: "audit", Field: "path", Value: a.Path, Want: "a file, not a folder"}, false
	}
	return Problem{}, true
}

func errText(err error) string {
	if os.IsNotExist(err) {
		return "no such folder"
	}
	return err.Error()
}
