package catalog

import (
	"context"
	"encoding/json"
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
