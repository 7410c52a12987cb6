package catalog_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/mcpfleet/mcpfleet/catalog"
	"github.com/mcpfleet/mcpfleet/catalog/internal/catalogtest"
	"github.com/mcpfleet/mcpfleet/catalog/tuning"
	"github.com/mcpfleet/mcpfleet/internal/goldenfile"
)

// TestRecorderEvents: every search, load and gate decision reaches the
// Recorder, with results as kind.tool, and the JSON Lines log reads back
// to the same events.
func TestRecorderEvents(t *testing.T) {
	c := catalogtest.BuildFleet(t)
	var buf bytes.Buffer
	rec := catalog.NewJSONLRecorder(&buf)
	s, err := c.NewSession(catalog.SessionConfig{ID: "s1", ConversationID: "c1", Servers: []string{"k8s-1"}, Mode: "on", Recorder: rec})
	if err != nil {
		t.Fatal(err)
	}
	hits := s.Search(t.Context(), "pods_top", 2)
	if _, err := s.LoadContext(t.Context(), []string{"pods_top", "pods_lgo"}); err == nil {
		t.Fatal("pods_lgo loaded")
	}
	_ = s.AllowContext(t.Context(), "k8s-1", "pods_top")
	_ = s.AllowContext(t.Context(), "k8s-2", "nodes_top")
	if err := rec.Err(); err != nil {
		t.Fatal(err)
	}
	got, err := tuning.ReadLog(&buf)
	if err != nil {
		t.Fatal(err)
	}
	var results []string
	for _, h := range hits {
		results = append(results, h.Kind+"."+h.Tool)
	}
	if len(results) != 2 || results[0] != "kubernetes.pods_top" {
		t.Fatalf("search hits = %v", results)
	}
	want := []tuning.LogEvent{
		{Type: "search", Search: &catalog.SearchEvent{Session: "s1", Conversation: "c1", Query: "pods_top", K: 2, Results: results}},
		{Type: "load", Load: &catalog.LoadEvent{Session: "s1", Conversation: "c1", Names: []catalog.LoadedName{
			{Name: "pods_top", Tool: "kubernetes.pods_top", Status: "loaded"},
			{Name: "pods_lgo", Status: "unknown"},
		}}},
		{Type: "call", Call: &catalog.CallEvent{Session: "s1", Conversation: "c1", Server: "k8s-1", Tool: "kubernetes.pods_top", Allowed: true}},
		{Type: "call", Call: &catalog.CallEvent{Session: "s1", Conversation: "c1", Server: "k8s-2", Tool: "kubernetes.nodes_top", Reason: "not_loaded"}},
	}
	ignoreTime := cmp.Options{
		cmpopts.IgnoreFields(catalog.SearchEvent{}, "Time"),
		cmpopts.IgnoreFields(catalog.LoadEvent{}, "Time"),
		cmpopts.IgnoreFields(catalog.CallEvent{}, "Time"),
	}
	if diff := cmp.Diff(want, got, ignoreTime); diff != "" {
		t.Errorf("events (-want +got)\n%s", diff)
	}
	for _, ev := range got {
		if ev.Type == "search" && ev.Search.Time.IsZero() {
			t.Error("search event without time")
		}
	}
}

func TestReadLogErrors(t *testing.T) {
	tests := []struct {
		name, log string
		line      int
	}{
		{"not json", "{\"type\":\"search\",\"query\":\"x\"}\nnope\n", 2},
		{"unknown type", "\n{\"type\":\"tick\"}\n", 2},
		{"wrong field type", `{"type":"load","names":"x"}`, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := tuning.ReadLog(strings.NewReader(tc.log))
			var le *tuning.LogLineError
			if !errors.As(err, &le) || le.Line != tc.line {
				t.Errorf("err = %v, want line %d", err, tc.line)
			}
		})
	}
}

// recordScenario runs three sessions' worth of searches, loads and calls
// through real sessions, the way a subagent's meta-tools would.
func recordScenario(t *testing.T, rec catalog.Recorder) {
	c := catalogtest.BuildFleet(t)
	ctx := t.Context()
	open := func(id string, servers ...string) *catalog.Session {
		s, err := c.NewSession(catalog.SessionConfig{ID: id, Servers: servers, Mode: "on", Recorder: rec})
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	// s1 searches, finds and uses pods_top.
	s1 := open("s1", "k8s-1")
	s1.Search(ctx, "which pod is the memory hog", 5)
	s1.LoadContext(ctx, []string{"pods_top"})
	s1.AllowContext(ctx, "k8s-1", "pods_top")
	// s2 searches in vain, then loads tools by name from the catalog
	// block: two likely false negatives, one of them never called.
	s2 := open("s2", "prom-eu")
	s2.Search(ctx, "xyzzy frobnicate", 5)
	s2.Search(ctx, "ticket INC-42 status", 3)
	s2.LoadContext(ctx, []string{"execute_range_query", "nodes_top"})
	s2.AllowContext(ctx, "prom-eu", "execute_range_query")
	s2.AllowContext(ctx, "k8s-2", "pods_top") // refused: not loaded here
	// s3 loads before searching: not a false negative, but never found.
	s3 := open("s3", "k8s-2")
	s3.LoadContext(ctx, []string{"resources_get"})
	s3.Search(ctx, "xyzzy frobnicate", 5)
	s3.AllowContext(ctx, "k8s-2", "resources_get")
	s3.AllowContext(ctx, "k8s-2", "pods_log")
}

// TestSearchReport pins the report of testdata/telemetry.jsonl, a log
// recorded by recordScenario (rewritten with -update).
func TestSearchReport(t *testing.T) {
	path := filepath.Join("testdata", "telemetry.jsonl")
	if goldenfile.Updating() {
		var buf bytes.Buffer
		rec := catalog.NewJSONLRecorder(&buf)
		recordScenario(t, rec)
		if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	events, err := tuning.ReadLog(f)
	if err != nil {
		t.Fatal(err)
	}
	rep := tuning.AnalyzeLog(events)
	b, err := json.MarshalIndent(rep, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	goldenfile.CheckNamed(t, "search_report", string(b)+"\n")

	// The invariants the golden file only pins.
	if rep.Sessions != 3 || rep.Searches != 4 || rep.Loads != 3 {
		t.Errorf("counts: %+v", rep)
	}
	var fn []string
	for _, f := range rep.FalseNegatives {
		fn = append(fn, f.Session+":"+f.Tool)
	}
	if diff := cmp.Diff([]string{"s2:prometheus.execute_range_query", "s2:kubernetes.nodes_top"}, fn); diff != "" {
		t.Errorf("false negatives (-want +got)\n%s", diff)
	}
	if len(rep.EmptyQueries) == 0 || rep.EmptyQueries[0] != (tuning.EmptyQuery{Query: "xyzzy frobnicate", Count: 2}) {
		t.Errorf("empty queries = %+v", rep.EmptyQueries)
	}
	for _, tc := range rep.NeverFound {
		if tc.Tool == "kubernetes.pods_top" {
			t.Error("pods_top was found by s1's search")
		}
	}
	if !slices.ContainsFunc(rep.NeverFound, func(tc tuning.ToolCount) bool { return tc.Tool == "kubernetes.resources_get" }) {
		t.Errorf("resources_get missing from never found: %+v", rep.NeverFound)
	}
	if !slices.Contains(rep.LoadedNotCalled, tuning.ToolCount{Tool: "kubernetes.nodes_top", Loads: 1}) {
		t.Errorf("loaded_not_called = %+v", rep.LoadedNotCalled)
	}
}

// errStore fails every operation.
type errStore struct{}

func (errStore) Load(context.Context, string) ([]string, error) { return nil, errors.New("down") }
func (errStore) Save(context.Context, string, []string) error   { return errors.New("down") }

// TestActivationScope: loads live for one session by default; sessions
// sharing a conversation ID share loads, different IDs do not.
func TestActivationScope(t *testing.T) {
	c := catalogtest.BuildFleet(t)
	ctx := t.Context()
	open := func(conv string, store catalog.ActivationStore) *catalog.Session {
		t.Helper()
		s, err := c.NewSessionContext(ctx, catalog.SessionConfig{Servers: []string{"k8s-1"}, Mode: "on", ConversationID: conv, Store: store})
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	active := func(s *catalog.Session, server, tool string) bool { return s.Allow(server, tool) == nil }

	a := open("conv-a", nil)
	if _, err := a.LoadContext(ctx, []string{"pods_top", "k8s-2.nodes_top"}); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		s    *catalog.Session
		want bool
	}{
		{"same conversation", open("conv-a", nil), true},
		{"other conversation", open("conv-b", nil), false},
		{"no conversation", open("", nil), false},
		{"same conversation, other store", open("conv-a", &catalog.MemoryStore{}), false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := []bool{active(tc.s, "k8s-1", "pods_top"), active(tc.s, "k8s-2", "nodes_top")}
			if diff := cmp.Diff([]bool{tc.want, tc.want}, got); diff != "" {
				t.Errorf("pods_top, k8s-2.nodes_top active (-want +got)\n%s", diff)
			}
			// Server-scoped loads stay server-scoped when restored.
			if active(tc.s, "k8s-3", "nodes_top") {
				t.Error("nodes_top active on k8s-3")
			}
		})
	}

	// A second session's loads reach the first conversation's store too,
	// without dropping the first session's.
	b := open("conv-a", nil)
	if _, err := b.LoadContext(ctx, []string{"events_list", "configuration_view"}); err != nil {
		t.Fatal(err)
	}
	d := open("conv-a", nil)
	for _, tool := range []string{"pods_top", "configuration_view"} {
		if !active(d, "k8s-1", tool) {
			t.Errorf("%s not restored", tool)
		}
	}

	// Mode off has nothing to restore and restores nothing beyond its slice.
	off, err := c.NewSession(catalog.SessionConfig{Servers: []string{"k8s-1"}, Mode: "off", ConversationID: "conv-a"})
	if err != nil {
		t.Fatal(err)
	}
	if active(off, "k8s-2", "nodes_top") {
		t.Error("mode off restored a load outside its slice")
	}

	// A failing store costs persistence, not the session or the load.
	s, err := c.NewSessionContext(ctx, catalog.SessionConfig{Servers: []string{"k8s-1"}, Mode: "on", ConversationID: "x", Store: errStore{}})
	var se *catalog.StoreError
	if !errors.As(err, &se) || se.Op != catalog.StoreOpLoad || s == nil {
		t.Fatalf("open with failing store: %v", err)
	}
	res, err := s.LoadContext(ctx, []string{"pods_top"})
	if !errors.As(err, &se) || !slices.Equal(res.Loaded, []string{"pods_top"}) || !active(s, "k8s-1", "pods_top") {
		t.Errorf("load with failing store: %+v, %v", res, err)
	}
}

// FuzzReadLog: a log is operator input; no line makes ReadLog or
// AnalyzeLog panic, and what ReadLog accepts it accepts again after
// being written back by the recorder.
func FuzzReadLog(f *testing.F) {
	if b, err := os.ReadFile(filepath.Join("testdata", "telemetry.jsonl")); err == nil {
		f.Add(string(b))
	}
	f.Add(`{"type":"load","names":[{"name":"x","status":"loaded"}]}`)
	f.Add(`{"type":"call","allowed":true}` + "\n\n" + `{"type":"search","results":null}`)
	f.Fuzz(func(t *testing.T, log string) {
		events, err := tuning.ReadLog(strings.NewReader(log))
		tuning.AnalyzeLog(events)
		if err != nil {
			return
		}
		var buf bytes.Buffer
		rec := catalog.NewJSONLRecorder(&buf)
		for _, ev := range events {
			switch {
			case ev.Search != nil:
				rec.RecordSearch(t.Context(), *ev.Search)
			case ev.Load != nil:
				rec.RecordLoad(t.Context(), *ev.Load)
			case ev.Call != nil:
				rec.RecordCall(t.Context(), *ev.Call)
			}
		}
		again, err := tuning.ReadLog(&buf)
		if err != nil || len(again) != len(events) {
			t.Fatalf("re-read %d of %d events: %v", len(again), len(events), err)
		}
	})
}

// TestPreload: tools the caller activates up front are active like core
// tools, but are neither telemetry (the model did not load them) nor
// saved to the conversation.
func TestPreload(t *testing.T) {
	c := catalogtest.BuildFleet(t)
	var buf bytes.Buffer
	cfg := catalog.SessionConfig{Servers: []string{"k8s-1"}, Mode: "on", ConversationID: "p",
		Recorder: catalog.NewJSONLRecorder(&buf), Preload: []string{"pods_top", "k8s-2.nodes_top"}}
	s, err := c.NewSession(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if buf.Len() != 0 {
		t.Errorf("preload recorded: %s", buf.String())
	}
	if s.Allow("k8s-1", "pods_top") != nil || s.Allow("k8s-2", "nodes_top") != nil {
		t.Errorf("preloaded tools not active: %v", refKeys(s.Active()))
	}
	next, err := c.NewSession(catalog.SessionConfig{Servers: []string{"k8s-1"}, Mode: "on", ConversationID: "p"})
	if err != nil {
		t.Fatal(err)
	}
	if next.Allow("k8s-1", "pods_top") == nil {
		t.Error("preload saved to the conversation")
	}

	cfg.Preload = []string{"pods_top", "pods_lgo"}
	_, err = c.NewSession(cfg)
	var se *catalog.SessionError
	if !errors.As(err, &se) || len(se.BadPreload) != 1 || se.BadPreload[0].Name != "pods_lgo" {
		t.Fatalf("bad preload: %v", err)
	}
	if want := "catalog: preload pods_lgo: no such tool; nearest: "; !strings.HasPrefix(err.Error(), want) {
		t.Errorf("text = %q, want prefix %q", err, want)
	}
}

// BenchmarkSessionSearch/recorder shows what telemetry adds to a
// searchTools call: one JSON line per search.
func BenchmarkSessionSearch(b *testing.B) {
	c := catalogtest.BuildFleet(b)
	for _, bc := range []struct {
		name string
		rec  catalog.Recorder
	}{{"bare", nil}, {"recorder", catalog.NewJSONLRecorder(io.Discard)}} {
		b.Run(bc.name, func(b *testing.B) {
			s, err := c.NewSession(catalog.SessionConfig{Servers: []string{"k8s-1"}, Mode: "on", Recorder: bc.rec})
			if err != nil {
				b.Fatal(err)
			}
			ctx := context.Background()
			b.ReportAllocs()
			for b.Loop() {
				s.Search(ctx, "why is the payments pod crashlooping", 5)
			}
		})
	}
}
