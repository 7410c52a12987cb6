package mcpfleet

import (
	"context"
	"fmt"
	"log/slog"
	"slices"
	"time"

	"go.opentelemetry.io/otel/trace"

	"github.com/mcpfleet/mcpfleet/config"
	"github.com/mcpfleet/mcpfleet/internal/audit"
)

// openAudit opens the fleet file's audit log, if it names one, and adds
// the AfterFunc that writes a line per call (after the caller's own).
// Close closes it.
func openAudit(o *options, cfg *config.Fleet) error {
	a := cfg.Audit
	if a.Path == "" {
		return nil
	}
	l, err := audit.Open(audit.Config{Path: a.Path, MaxBytes: a.MaxBytes, MaxFiles: a.MaxFiles, Sync: a.Sync})
	if err != nil {
		return fmt.Errorf("mcpfleet: audit.path: %w", err)
	}
	o.audit = l
	o.after = append(slices.Clone(o.after), auditCall(l, o.logger))
	return nil
}

// auditCall records one call: who, what, how it ended, how long it took,
// its trace, and a hash of its arguments, never the arguments.
func auditCall(l *audit.Log, log *slog.Logger) AfterFunc {
	return func(ctx context.Context, c *Call, o Outcome) {
		r := audit.Record{Time: time.Now().UTC(), Caller: CallerFrom(ctx), Server: c.Server, Kind: c.Kind, Tool: c.Tool,
			Outcome: string(o.Status), Reason: string(o.Reason), DurationMS: float64(o.Duration.Microseconds()) / 1000,
			Repairs: c.Repairs}
		if sc := trace.SpanContextFromContext(ctx); sc.IsValid() {
			r.TraceID = sc.TraceID().String()
		}
		if c.Args != nil {
			r.ArgsSHA256 = audit.Hash(c.Args)
		}
		if err := l.Write(r); err != nil {
			log.Error("audit log write failed", "server", c.Server, "tool", c.Tool, "err", err)
		}
	}
}
