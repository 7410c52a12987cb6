package mcpfleet

import (
	"context"
	"time"

	"github.com/mcpfleet/mcpfleet/config"
	"github.com/mcpfleet/mcpfleet/internal/toolcache"
)

// Serving reports whether a server in state s takes calls: it is up, or
// idle and starts on its first call.
func (s State) Serving() bool { return s == StateUp || s == StateIdle }

// prepareStart decides how each server starts: a lazy or background
// server with a usable cached listing takes it now; one without falls
// back to eager, with a warning in the log and its Status. It returns the
// servers New must connect before returning.
func (m *Mux) prepareStart() (eager []string) {
	for _, name := range m.names {
		sc := m.servers[name]
		if sc.mode == config.StartEager {
			eager = append(eager, name)
			continue
		}
		e, why := m.tcache.entry(sc.cfg)
		if why != "" {
			sc.warning = "started eagerly: " + why
			m.log.Warn("lazy start falls back to eager", "server", name, "start", sc.mode, "why", why)
			eager = append(eager, name)
			continue
		}
		sc.useCached(e)
	}
	return eager
}

// useCached takes a cached listing as the server's tools until it lists
// its own.
func (sc *serverConn) useCached(e toolcache.Entry) {
	sc.mu.Lock()
	defer sc.mu.Unlock()
	sc.info, sc.instr = e.Info, e.Instructions
	sc.setToolsLocked(e.Tools)
	sc.fromCache = true
	sc.started = make(chan struct{})
	if sc.mode == config.StartLazy {
		sc.state = StateIdle
	}
}

// beginStart starts the server once, in a goroutine the Mux waits for at
// Close. It is a no-op for an eager server or after Close.
func (sc *serverConn) beginStart() {
	if sc.started == nil {
		return
	}
	sc.startOnce.Do(func() {
		m := sc.m
		m.startMu.Lock()
		defer m.startMu.Unlock()
		if m.closed.Load() {
			close(sc.started)
			return
		}
		sc.mu.Lock()
		if sc.state == StateIdle {
			sc.state, sc.changed = StateConnecting, time.Now()
		}
		sc.mu.Unlock()
		m.wg.Add(1)
		go func() {
			defer m.wg.Done()
			sc.startDeferred()
		}()
	})
}

// startDeferred connects a lazy or background server. When its live list
// differs from the cached one, the snapshot is rebuilt as on
// tools/list_changed: kinds, catalog and pins follow.
func (sc *serverConn) startDeferred() {
	sc.mu.RLock()
	before := sc.all
	sc.mu.RUnlock()
	err := sc.connect(sc.m.life)
	if err != nil {
		close(sc.started)
		if sc.m.life.Err() == nil {
			sc.m.log.Warn("lazy server failed to start", "server", sc.name, "err", err)
			sc.startReconnect()
		}
		return
	}
	sc.mu.Lock()
	changed := !sameTools(before, sc.all)
	sc.fromCache = false
	sc.mu.Unlock()
	if changed {
		sc.m.log.Info("live tool list differs from the cache", "server", sc.name)
		sc.m.rebuild()
	}
	close(sc.started)
	sc.m.saveToolCache()
}

// awaitStart starts a lazy server, or waits for a background one, and
// returns once it is up or failed, or ctx ends. The connect is bounded by
// the server's connect_timeout.
func (sc *serverConn) awaitStart(ctx context.Context) {
	select {
	case <-sc.started:
		return
	default:
	}
	sc.beginStart()
	select {
	case <-sc.started:
	case <-ctx.Done():
	case <-sc.m.life.Done():
	}
}
