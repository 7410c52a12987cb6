package config

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestTelemetryAndAuditDecode(t *testing.T) {
	dir := t.TempDir()
	doc := `servers: [{name: a, command: x}]
telemetry: {traces: otlp, metrics: prometheus, service_name: bot, semconv: "1.41.0", capture_bytes: 512}
audit: {path: logs/audit.jsonl, max_bytes: 1000, max_files: 2, sync: always}
`
	if err := os.Mkdir(filepath.Join(dir, "logs"), 0o755); err != nil {
		t.Fatal(err)
	}
	f, err := LoadBytesWith([]byte(doc), "yaml", dir, LoadOptions{Environ: []string{"MCPFLEET_TELEMETRY__SERVICE_NAME=env-bot"}})
	if err != nil {
		t.Fatal(err)
	}
	want := struct {
		T Telemetry
		A Audit
	}{
		Telemetry{Traces: "otlp", Metrics: "prometheus", ServiceName: "env-bot", Semconv: Semconv, CaptureBytes: 512},
		Audit{Path: filepath.Join(dir, "logs", "audit.jsonl"), MaxBytes: 1000, MaxFiles: 2, Sync: AuditSyncAlways},
	}
	got := struct {
		T Telemetry
		A Audit
	}{f.Telemetry, f.Audit}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestTelemetryProblems: each bad setting is a load problem naming its
// field, with the nearest valid choice.
func TestTelemetryProblems(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct{ name, doc, want string }{
		{"unknown trace exporter", `telemetry: {traces: otlpp}`,
			`telemetry: traces: got "otlpp", want one of otlp, none (did you mean "otlp"?)`},
		{"unknown metric exporter", `telemetry: {metrics: promethus}`,
			`telemetry: metrics: got "promethus", want one of prometheus, none (did you mean "prometheus"?)`},
		{"unknown semconv", `telemetry: {semconv: "1.26.0"}`,
			`telemetry: semconv: got "1.26.0", want 1.41.0, the semantic conventions mcpfleet emits`},
		{"unknown telemetry key", `telemetry: {exporter: otlp}`,
			`telemetry: key: got "exporter", want one of capture_bytes, metrics, semconv, service_name, traces`},
		{"negative capture", `telemetry: {capture_bytes: -1}`,
			`telemetry: capture_bytes: got "-1", want a size in bytes >= 0 (0 records no arguments or results)`},
		{"audit folder missing", `audit: {path: nowhere/audit.jsonl}`,
			`audit: path: got "` + filepath.Join(dir, "nowhere", "audit.jsonl") + `", want a file in an existing folder (` + filepath.Join(dir, "nowhere") + `: no such folder)`},
		{"audit path is a folder", `audit: {path: .}`,
			`audit: path: got "` + dir + `", want a file, not a folder`},
		{"audit sync mode unknown", `audit: {path: a.jsonl, sync: alwyas}`,
			`audit: sync: got "alwyas", want one of always, interval, never (did you mean "always"?)`},
		{"audit keys without a path", `audit: {max_files: 3}`,
			`audit: path: want the log file's path, since other audit keys are set`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := LoadBytesWith([]byte("servers: [{name: a, command: x}]\n"+tc.doc), "yaml", dir, LoadOptions{Environ: []string{}})
			var ve *ValidationError
			if !errors.As(err, &ve) {
				t.Fatalf("err = %v, want a *ValidationError", err)
			}
			var got []string
			for _, p := range ve.Problems {
				got = append(got, p.String())
			}
			if diff := cmp.Diff([]string{tc.want}, got); diff != "" {
				t.Errorf("problems (-want +got):\n%s", diff)
			}
		})
	}
}
