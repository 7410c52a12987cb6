package catalog

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sync"
	"time"
)

// Recorder receives every searchTools, loadTools and gate decision of the
// sessions it is given to (SessionConfig.Recorder). It exists so operators
// can see whether deferral works: what models searched for, what they
// loaded, and what they then called.
//
// Sessions call the methods synchronously from the model's tool calls, so
// implementations must be safe for concurrent use and should not block;
// the events they receive are theirs to keep.
type Recorder interface {
	RecordSearch(ctx context.Context, e SearchEvent)
	RecordLoad(ctx context.Context, e LoadEvent)
	RecordCall(ctx context.Context, e CallEvent)
}

// Event types, the "type" field of a JSON Lines record.
const (
	EventSearch = "search"
	EventLoad   = "load"
	EventCall   = "call"
)

// SearchEvent is one searchTools call.
type SearchEvent struct {
	Time         time.Time `json:"time"`
	Session      string    `json:"session"`
	Conversation string    `json:"conversation,omitempty"`
	Query        string    `json:"query"`
	K            int       `json:"k"`
	// Results are the hits as "kind.tool", best first; empty when nothing
	// matched.
	Results []string `json:"results"`
}

// Load statuses of a [LoadedName].
const (
	LoadStatusLoaded        = "loaded"
	LoadStatusAlreadyActive = "already_active"
)

// LoadedName is one name passed to loadTools and what became of it.
type LoadedName struct {
	// Name is the name as the model wrote it.
	Name string `json:"name"`
	// Tool is the "kind.tool" it resolved to; empty when it did not.
	Tool string `json:"tool,omitempty"`
	// Status is LoadStatusLoaded, LoadStatusAlreadyActive, or the
	// NameProblem reason (ProblemUnknown, ProblemAmbiguous).
	Status string `json:"status"`
}

// LoadEvent is one loadTools call, or the restore of a conversation's
// loads when a session opens (Restored).
type LoadEvent struct {
	Time         time.Time    `json:"time"`
	Session      string       `json:"session"`
	Conversation string       `json:"conversation,omitempty"`
	Names        []LoadedName `json:"names"`
	Restored     bool         `json:"restored,omitempty"`
}

// CallEvent is one execution-gate decision ([Session.AllowContext]): an
// allowed call is about to reach the server.
type CallEvent struct {
	Time         time.Time `json:"time"`
	Session      string    `json:"session"`
	Conversation string    `json:"conversation,omitempty"`
	Server       string    `json:"server"`
	// Tool is "kind.tool" when the server's kind has the tool, else the
	// bare tool name the model asked for.
	Tool    string `json:"tool"`
	Allowed bool   `json:"allowed"`
	// Reason is the GateError reason of a refused call.
	Reason string `json:"reason,omitempty"`
}

// LogEvent is one line of a JSON Lines telemetry log: Type says which of
// the three pointers is set.
type LogEvent struct {
	Type   string
	Search *SearchEvent
	Load   *LoadEvent
	Call   *CallEvent
}

// JSONLRecorder writes each event as one JSON object per line, with a
// "type" field ("search", "load" or "call") beside the event's fields.
// It is safe for concurrent use; lines never interleave.
type JSONLRecorder struct {
	mu  sync.Mutex
	w   io.Writer
	err error
}

// NewJSONLRecorder returns a Recorder that appends JSON Lines to w. Write
// errors do not reach the agent; the first one is kept for [JSONLRecorder.Err].
func NewJSONLRecorder(w io.Writer) *JSONLRecorder { return &JSONLRecorder{w: w} }

// Err returns the first write error, if any.
func (r *JSONLRecorder) Err() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.err
}

// RecordSearch implements Recorder.
func (r *JSONLRecorder) RecordSearch(_ context.Context, e SearchEvent) {
	r.write(struct {
		Type string `json:"type"`
		SearchEvent
	}{EventSearch, e})
}

// RecordLoad implements Recorder.
func (r *JSONLRecorder) RecordLoad(_ context.Context, e LoadEvent) {
	r.write(struct {
		Type string `json:"type"`
		LoadEvent
	}{EventLoad, e})
}

// RecordCall implements Recorder.
func (r *JSONLRecorder) RecordCall(_ context.Context, e CallEvent) {
	r.write(struct {
		Type string `json:"type"`
		CallEvent
	}{EventCall, e})
}

func (r *JSONLRecorder) write(v any) {
	b, err := json.Marshal(v)
	if err == nil {
		b = append(b, '\n')
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if err == nil {
		_, err = r.w.Write(b)
	}
	if err != nil && r.err == nil {
		r.err = err
	}
}

// LogLineError is a line of a telemetry log that ReadLog could not parse.
type LogLineError struct {
	Line int
	Err  error
}

func (e *LogLineError) Error() string {
	return fmt.Sprintf("catalog: telemetry log line %d: %v", e.Line, e.Err)
}

func (e *LogLineError) Unwrap() error { return e.Err }

// ReadLog parses a JSON Lines log written by [JSONLRecorder], in order.
// Blank lines are skipped; unknown event types are an error, so that a
// log from something else is not silently read as empty.
func ReadLog(r io.Reader) ([]LogEvent, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), 16<<20)
	var out []LogEvent
	for n := 1; sc.Scan(); n++ {
		line := sc.Bytes()
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		var head struct {
			Type string `json:"type"`
		}
		if err := json.Unmarshal(line, &head); err != nil {
			return out, &LogLineError{Line: n, Err: err}
		}
		ev := LogEvent{Type: head.Type}
		var err error
		switch head.Type {
		case EventSearch:
			ev.Search = &SearchEvent{}
			err = json.Unmarshal(line, ev.Search)
		case EventLoad:
			ev.Load = &LoadEvent{}
			err = json.Unmarshal(line, ev.Load)
		case EventCall:
			ev.Call = &CallEvent{}
			err = json.Unmarshal(line, ev.Call)
		default:
			err = fmt.Errorf("unknown event type %q", head.Type)
		}
		if err != nil {
			return out, &LogLineError{Line: n, Err: err}
		}
		out = append(out, ev)
	}
	return out, sc.Err()
}
