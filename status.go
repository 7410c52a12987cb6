package mcpfleet

import (
	"maps"
	"slices"
	"time"

	"github.com/mcpfleet/mcpfleet/config"
)

// State is a server's connection state.
type State string

// Server states.
const (
	StateConnecting State = "connecting"
	StateUp         State = "up"
	StateDown       State = "down"
	StateClosed     State = "closed"
	// StateIdle is a lazy server not started yet: its tools are the
	// cached ones, and its first call starts it.
	StateIdle State = "idle"
)

// ServerStatus is one server's health, as Status reports it.
type ServerStatus struct {
	Name       string    `json:"name"`
	Kind       string    `json:"kind"`
	State      State     `json:"state"`
	LastError  string    `json:"last_error,omitempty"`
	Reconnects int       `json:"reconnects"`
	Changed    time.Time `json:"changed"`
	Tools      int       `json:"tools"`
	// InFlight is the number of calls holding a slot right now.
	InFlight int `json:"in_flight"`
	// Failures counts consecutive timeouts and transport errors; the
	// circuit opens at the breaker's limit.
	Failures int `json:"failures,omitempty"`
	// CircuitOpenUntil is when calls resume, if the circuit is open.
	CircuitOpenUntil time.Time `json:"circuit_open_until,omitzero"`
	// Software is the serverInfo name and version the server gave.
	Software string `json:"software,omitempty"`
	// LockedSoftware is the serverInfo the lock records for the kind,
	// set only when pinning is on and it differs from Software. It is
	// reported, and quarantines nothing (see SoftwareChange).
	LockedSoftware string `json:"locked_software,omitempty"`
	// Pins are the tools that failed a pinning check (see PinIssue).
	Pins []PinIssue `json:"pins,omitempty"`
	// Start is the server's start mode when it is lazy or background,
	// "" for eager.
	Start string `json:"start,omitempty"`
	// FromCache is true while the tools are the tool cache's, before the
	// server has listed its own.
	FromCache bool `json:"from_cache,omitempty"`
	// Warning says why a lazy or background server started eagerly
	// (no usable cached tool list).
	Warning string `json:"warning,omitempty"`
}

// Status reports every server's state, sorted by name.
func (m *Mux) Status() []ServerStatus {
	out := make([]ServerStatus, 0, len(m.names))
	for _, name := range m.names {
		out = append(out, m.servers[name].status())
	}
	if m.pin != nil {
		for _, c := range m.SoftwareChanges(m.pin.lock) {
			i := slices.IndexFunc(out, func(s ServerStatus) bool { return s.Name == c.Server })
			out[i].LockedSoftware = c.Locked
		}
	}
	return out
}

func (sc *serverConn) status() ServerStatus {
	failures, until := sc.brk.state()
	sc.mu.RLock()
	defer sc.mu.RUnlock()
	st := ServerStatus{Name: sc.name, Kind: sc.kind, State: sc.state, LastError: sc.lastErr,
		Reconnects: sc.reconnects, Changed: sc.changed, Tools: len(sc.order),
		InFlight: int(sc.inflight.Load()), Failures: failures, CircuitOpenUntil: until,
		Software: software(sc.info),
		Start:    startShown(sc.mode), FromCache: sc.fromCache, Warning: sc.warning}
	for _, name := range slices.Sorted(maps.Keys(sc.pins)) {
		st.Pins = append(st.Pins, *sc.pins[name])
	}
	return st
}

func startShown(mode string) string {
	if mode == config.StartEager {
		return ""
	}
	return mode
}
