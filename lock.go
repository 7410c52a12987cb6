package mcpfleet

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpfleet/mcpfleet/config"
	"github.com/mcpfleet/mcpfleet/internal/pinning"
	"github.com/mcpfleet/mcpfleet/internal/textdist"
)

// PinMissing: the lock pins a tool that no server of its kind lists now.
// Only [Mux.CheckLock] reports it; a missing tool needs no quarantine.
const PinMissing = "missing"

// LockDrift is a tool whose definition differs between two servers of one
// kind when a lock is written: the lock pins the first server's, and the
// other server will fail the check.
type LockDrift struct {
	Kind   string `json:"kind"`
	Tool   string `json:"tool"`
	Server string `json:"server"` // the server that differs
	Locked string `json:"locked"` // the server whose definition was locked
}

// Lock returns a lock of every tool every up server lists now, quarantined
// or not, pinned per kind from the first up server of the kind by name. A
// kind with no server up keeps prev's entry, if prev has one. drift lists
// the tools other servers of a kind define differently.
func (m *Mux) Lock(prev *config.Lock) (lock *config.Lock, drift []LockDrift) {
	lock = &config.Lock{Version: config.LockVersion, Kinds: map[string]config.LockedKind{}}
	for _, name := range m.names {
		sc := m.servers[name]
		sc.mu.RLock()
		up, all, info := sc.state == StateUp, sc.all, sc.info
		sc.mu.RUnlock()
		if !up {
			continue
		}
		lk, seen := lock.Kinds[sc.kind]
		if !seen {
			lk = config.LockedKind{Server: config.LockedServer{Name: info.Name, Version: info.Version}, Tools: map[string]config.LockedTool{}}
			for _, t := range all {
				lk.Tools[t.Name] = lockedTool(t)
			}
			lock.Kinds[sc.kind] = lk
			continue
		}
		first := m.firstUp(sc.kind)
		for _, t := range all {
			if lt, ok := lk.Tools[t.Name]; !ok || lt.SHA256 != pinning.Hash(t) {
				drift = append(drift, LockDrift{Kind: sc.kind, Tool: t.Name, Server: name, Locked: first})
			}
		}
	}
	if prev != nil {
		for kind, lk := range prev.Kinds {
			if _, ok := lock.Kinds[kind]; !ok && slices.ContainsFunc(m.names, func(n string) bool { return m.servers[n].kind == kind }) {
				lock.Kinds[kind] = lk
			}
		}
	}
	keepJudgements(prev, lock)
	return lock, drift
}

// keepJudgements copies to lock each verdict prev holds for the same
// kind, tool and hash: a judgement stays with the definition it was made
// for, and a changed definition has none until it is judged again.
func keepJudgements(prev, lock *config.Lock) {
	if prev == nil {
		return
	}
	for kind, lk := range lock.Kinds {
		for name, lt := range lk.Tools {
			old, ok := prev.Kinds[kind].Tools[name]
			if lt.Judged == nil && ok && old.Judged != nil && old.SHA256 == lt.SHA256 {
				lt.Judged = old.Judged
				lk.Tools[name] = lt
			}
		}
	}
}

func lockedTool(t mcp.Tool) config.LockedTool {
	c := pinning.Canonical(t)
	return config.LockedTool{SHA256: pinning.HashJSONBytes(c), Definition: c}
}

// firstUp is the first up server of kind, by name.
func (m *Mux) firstUp(kind string) string {
	for _, name := range m.names {
		if sc := m.servers[name]; sc.kind == kind {
			if _, _, state, _ := sc.live(); state == StateUp {
				return name
			}
		}
	}
	return ""
}

// CheckLock checks every up server's current tools against lock, as
// pinning would, and also reports each locked tool that no server of its
// kind lists any more (missing). Nothing is quarantined by it.
func (m *Mux) CheckLock(lock *config.Lock) []PinIssue {
	if lock == nil {
		lock = &config.Lock{}
	}
	base := m.pin
	if base == nil {
		var err error
		if base, err = newPinner(&config.Fleet{Pinning: config.PinningWarn, KindSettings: m.Config().KindSettings}); err != nil {
			// Only a build with a corrupt embedded model gets here; the
			// rules still run.
			m.log.Error("pinning: learned scorer unavailable", "err", err)
		}
	}
	p := *base
	p.mode, p.lock = config.PinningWarn, lock
	var out []PinIssue
	listed := map[string]map[string]bool{} // kind -> tools listed by some up server
	for _, name := range m.names {
		sc := m.servers[name]
		sc.mu.RLock()
		up, all := sc.state == StateUp, sc.all
		sc.mu.RUnlock()
		if !up {
			continue
		}
		if listed[sc.kind] == nil {
			listed[sc.kind] = map[string]bool{}
		}
		for _, t := range all {
			listed[sc.kind][t.Name] = true
		}
		issues := p.check(name, sc.kind, all, m.otherKindsToolsOf(lock, sc.kind, all))
		for _, tool := range slices.Sorted(maps.Keys(issues)) {
			out = append(out, *issues[tool])
		}
	}
	for _, kind := range slices.Sorted(maps.Keys(lock.Kinds)) {
		if listed[kind] == nil {
			continue // no server of the kind is up: nothing to compare
		}
		for _, tool := range slices.Sorted(maps.Keys(lock.Kinds[kind].Tools)) {
			if !listed[kind][tool] {
				out = append(out, PinIssue{Kind: kind, Tool: tool, Problems: []string{PinMissing}, Locked: lock.Kinds[kind].Tools[tool].SHA256})
			}
		}
	}
	return out
}

// SoftwareChange is an up server whose serverInfo (software name and
// version) differs from what the lock records for its kind. It is
// reported by Status and `mcpfleet lock --diff` and quarantines nothing:
// an update that leaves every tool definition as locked is harmless, and
// one that changes a definition is caught by that definition's hash.
type SoftwareChange struct {
	Kind   string `json:"kind"`
	Server string `json:"server"`
	Locked string `json:"locked"`
	Now    string `json:"now"`
}

// SoftwareChanges compares each up server's serverInfo with its kind's
// entry in lock, sorted by server. A kind the lock does not have is left
// out: its tools are unlocked, which pinning reports.
func (m *Mux) SoftwareChanges(lock *config.Lock) []SoftwareChange {
	if lock == nil {
		return nil
	}
	var out []SoftwareChange
	for _, name := range m.names {
		sc := m.servers[name]
		lk, ok := lock.Kinds[sc.kind]
		if !ok {
			continue
		}
		sc.mu.RLock()
		up, now := sc.state == StateUp, software(sc.info)
		sc.mu.RUnlock()
		if locked := strings.TrimSpace(lk.Server.Name + " " + lk.Server.Version); up && locked != now {
			out = append(out, SoftwareChange{Kind: sc.kind, Server: name, Locked: locked, Now: now})
		}
	}
	return out
}

func software(info mcp.Implementation) string {
	return strings.TrimSpace(info.Name + " " + info.Version)
}

// ErrUnknownTool is returned by Approve for a name no up server lists.
var ErrUnknownTool = errors.New("mcpfleet: no up server lists that tool")

// Approve returns a copy of lock with the named tools pinned to their
// current definitions. A name is "kind/tool", or "tool" for that tool in
// every kind that lists it. Each is taken from the first up server of its
// kind, as [Mux.Lock] does.
func (m *Mux) Approve(lock *config.Lock, names []string) (*config.Lock, error) {
	cur, _ := m.Lock(nil)
	out := &config.Lock{Version: config.LockVersion, Kinds: map[string]config.LockedKind{}}
	if lock != nil {
		for k, lk := range lock.Kinds {
			lk.Tools = maps.Clone(lk.Tools)
			out.Kinds[k] = lk
		}
	}
	var errs []error
	for _, name := range names {
		kind, tool, scoped := strings.Cut(name, "/")
		if !scoped {
			kind, tool = "", name
		}
		found := false
		for _, k := range slices.Sorted(maps.Keys(cur.Kinds)) {
			lt, ok := cur.Kinds[k].Tools[tool]
			if !ok || scoped && k != kind {
				continue
			}
			found = true
			lk := out.Kinds[k]
			if lk.Tools == nil {
				lk.Tools = map[string]config.LockedTool{}
			}
			lk.Server = cur.Kinds[k].Server
			if old, ok := lk.Tools[tool]; ok && old.SHA256 == lt.SHA256 {
				lt.Judged = old.Judged
			}
			lk.Tools[tool] = lt
			out.Kinds[k] = lk
		}
		if !found {
			var all []string
			for k, lk := range cur.Kinds {
				for t := range lk.Tools {
					all = append(all, k+"/"+t)
				}
			}
			hint := ""
			if n := textdist.NearestPart(name, all); n != "" {
				hint = fmt.Sprintf(" (did you mean %q?)", n)
			}
			errs = append(errs, fmt.Errorf("%w: %q%s", ErrUnknownTool, name, hint))
		}
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return out, nil
}
