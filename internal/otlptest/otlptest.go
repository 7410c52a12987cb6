// Package otlptest is an OTLP/HTTP trace receiver for tests: a real
// httptest server that decodes what an OpenTelemetry exporter sends with
// the OpenTelemetry proto module, so tests assert on spans as a collector
// would receive them. Only test code imports it.
package otlptest

import (
	"encoding/hex"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	coltracepb "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	commonpb "go.opentelemetry.io/proto/otlp/common/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/protobuf/proto"
)

// Span is one received span, with ids in hex and attribute values as text.
type Span struct {
	Name              string
	TraceID, SpanID   string
	ParentID          string // "" for a root
	Kind              tracepb.Span_SpanKind
	Start, End        time.Time
	Attrs             map[string]string
	Events            []string
	StatusError       bool
	Service           string // the resource's service.name
	ResourceSchemaURL string
}

// Receiver collects what exporters send to URL + "/v1/traces".
type Receiver struct {
	// URL is the value for OTEL_EXPORTER_OTLP_ENDPOINT.
	URL   string
	mu    sync.Mutex
	spans []Span
	bad   []string
}

// Start serves a receiver until the test ends.
func Start(t testing.TB) *Receiver {
	r := &Receiver{}
	srv := httptest.NewServer(http.HandlerFunc(r.serve))
	t.Cleanup(srv.Close)
	t.Cleanup(func() {
		r.mu.Lock()
		defer r.mu.Unlock()
		for _, b := range r.bad {
			t.Errorf("otlptest: %s", b)
		}
	})
	r.URL = srv.URL
	return r
}

func (r *Receiver) serve(w http.ResponseWriter, req *http.Request) {
	body, err := io.ReadAll(req.Body)
	if err != nil || req.URL.Path != "/v1/traces" || req.Header.Get("Content-Type") != "application/x-protobuf" {
		r.fail(req.Method + " " + req.URL.Path + " " + req.Header.Get("Content-Type") + ": not an OTLP/HTTP protobuf trace export")
		http.Error(w, "bad request", http.StatusBadRequest)
		return
	}
	var msg coltracepb.ExportTraceServiceRequest
	if err := proto.Unmarshal(body, &msg); err != nil {
		r.fail("decoding: " + err.Error())
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	var got []Span
	for _, rs := range msg.ResourceSpans {
		service := attrs(rs.GetResource().GetAttributes())["service.name"]
		for _, ss := range rs.ScopeSpans {
			for _, s := range ss.Spans {
				sp := Span{Name: s.Name, TraceID: hex.EncodeToString(s.TraceId), SpanID: hex.EncodeToString(s.SpanId),
					ParentID: hex.EncodeToString(s.ParentSpanId), Kind: s.Kind,
					Start: time.Unix(0, int64(s.StartTimeUnixNano)), End: time.Unix(0, int64(s.EndTimeUnixNano)),
					Attrs: attrs(s.Attributes), StatusError: s.GetStatus().GetCode() == tracepb.Status_STATUS_CODE_ERROR,
					Service: service, ResourceSchemaURL: rs.SchemaUrl}
				for _, e := range s.Events {
					sp.Events = append(sp.Events, e.Name)
				}
				got = append(got, sp)
			}
		}
	}
	r.mu.Lock()
	r.spans = append(r.spans, got...)
	r.mu.Unlock()
	out, _ := proto.Marshal(&coltracepb.ExportTraceServiceResponse{})
	w.Header().Set("Content-Type", "application/x-protobuf")
	_, _ = w.Write(out)
}

func (r *Receiver) fail(msg string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.bad = append(r.bad, msg)
}

// Spans returns every span received so far.
func (r *Receiver) Spans() []Span {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.spans)
}

func attrs(kvs []*commonpb.KeyValue) map[string]string {
	out := make(map[string]string, len(kvs))
	for _, kv := range kvs {
		out[kv.Key] = value(kv.Value)
	}
	return out
}

func value(v *commonpb.AnyValue) string {
	switch x := v.GetValue().(type) {
	case *commonpb.AnyValue_StringValue:
		return x.StringValue
	case *commonpb.AnyValue_IntValue:
		return strconv.FormatInt(x.IntValue, 10)
	case *commonpb.AnyValue_BoolValue:
		if x.BoolValue {
			return "true"
		}
		return "false"
	case *commonpb.AnyValue_ArrayValue:
		var parts []string
		for _, e := range x.ArrayValue.Values {
			parts = append(parts, value(e))
		}
		return "[" + strings.Join(parts, ",") + "]"
	}
	return v.String()
}
