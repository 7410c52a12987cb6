package tuning

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"

	"github.com/mcpfleet/mcpfleet/catalog"
)

// LogEvent is one line of a JSON Lines telemetry log: Type says which of
// the three pointers is set.
type LogEvent struct {
	Type   string
	Search *catalog.SearchEvent
	Load   *catalog.LoadEvent
	Call   *catalog.CallEvent
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

// ReadLog parses a JSON Lines log written by [catalog.JSONLRecorder], in order.
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
		case catalog.EventSearch:
			ev.Search = &catalog.SearchEvent{}
			err = json.Unmarshal(line, ev.Search)
		case catalog.EventLoad:
			ev.Load = &catalog.LoadEvent{}
			err = json.Unmarshal(line, ev.Load)
		case catalog.EventCall:
			ev.Call = &catalog.CallEvent{}
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
