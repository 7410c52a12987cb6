package mcpfleet

import (
	"bytes"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"os"
	"slices"
	"sync"

	"github.com/mcpfleet/mcpfleet/config"
	"github.com/mcpfleet/mcpfleet/internal/toolcache"
)

// toolCache is the Mux's side of the tool cache file (internal/toolcache):
// the entries read at New, and the last bytes written, so that a relist
// that changed nothing writes nothing.
type toolCache struct {
	fleet   string // the fleet file's absolute path
	log     *slog.Logger
	file    *toolcache.File // nil: none usable
	fileErr string          // why the whole file is unusable, "" if it is
	bad     map[string]string

	mu   sync.Mutex // serializes writes
	last []byte
}

// openToolCache reads the tool cache of cfg's fleet file when some server
// starts lazily or in the background, and returns nil otherwise: an all
// eager fleet neither reads nor writes one.
func openToolCache(cfg *config.Fleet, log *slog.Logger) *toolCache {
	if !slices.ContainsFunc(cfg.Servers, func(s config.Server) bool { return cfg.StartMode(s) != config.StartEager }) {
		return nil
	}
	tc := &toolCache{fleet: cfg.Path, log: log, bad: map[string]string{}}
	if cfg.Path == "" {
		tc.fileErr = "the fleet was not loaded from a file, so it has no tool cache"
		return tc
	}
	f, path, err := toolcache.Read(cfg.Path)
	switch {
	case f == nil && errors.Is(err, os.ErrNotExist):
		tc.fileErr = "no tool cache yet (" + toolcache.Path(cfg.Path) + ")"
	case f == nil:
		tc.fileErr = fmt.Sprintf("tool cache %s unusable: %v", path, err)
	case f.Fleet != cfg.Path:
		tc.fileErr = fmt.Sprintf("tool cache %s was written for another fleet file (%s)", path, f.Fleet)
	default:
		tc.file = f
		var fe *toolcache.FieldError
		for _, e := range unjoin(err) {
			if errors.As(e, &fe) && fe.Server != "" {
				tc.bad[fe.Server] = fmt.Sprintf("tool cache %s: %v", path, e)
			}
		}
		tc.last, _ = f.Marshal()
	}
	return tc
}

// entry returns the cached listing of server s, or why there is none
// usable.
func (tc *toolCache) entry(s config.Server) (toolcache.Entry, string) {
	if tc.fileErr != "" {
		return toolcache.Entry{}, tc.fileErr
	}
	if why := tc.bad[s.Name]; why != "" {
		return toolcache.Entry{}, why
	}
	e, ok := tc.file.Servers[s.Name]
	switch {
	case !ok:
		return toolcache.Entry{}, "no cached tool list for this server yet"
	case e.Key != launchKey(s):
		return toolcache.Entry{}, "the server's launch config changed since its tools were cached"
	}
	return e, ""
}

// launchKey is the cache key of a server's launch config.
func launchKey(s config.Server) string {
	return toolcache.Key(toolcache.Launch{Transport: s.Transport, Command: s.Command, Args: s.Args,
		EnvNames: slices.Collect(maps.Keys(s.Env)), URL: s.URL, Headers: slices.Collect(maps.Keys(s.Headers))})
}

// saveToolCache writes the current listing of every lazy or background
// server (including those that fell back to eager) that has one, if it
// differs from what was last read or written. A failure is logged: the
// cache only speeds the next start up.
func (m *Mux) saveToolCache() {
	tc := m.tcache
	if tc == nil || tc.fleet == "" {
		return
	}
	tc.mu.Lock()
	defer tc.mu.Unlock()
	f := &toolcache.File{Version: toolcache.Version, Fleet: tc.fleet, Servers: map[string]toolcache.Entry{}}
	for _, name := range m.names {
		sc := m.servers[name]
		if sc.mode == config.StartEager {
			continue
		}
		sc.mu.RLock()
		if sc.all != nil {
			f.Servers[name] = toolcache.Entry{Key: sc.key, Info: sc.info, Instructions: sc.instr, Tools: sc.all}
		}
		sc.mu.RUnlock()
	}
	data, err := f.Marshal()
	if err != nil {
		m.log.Warn("tool cache not written", "err", err)
		return
	}
	if bytes.Equal(data, tc.last) {
		return
	}
	path, err := toolcache.Write(tc.fleet, f)
	if err != nil {
		m.log.Warn("tool cache not written", "err", err)
		return
	}
	tc.last = data
	m.log.Debug("tool cache written", "path", path, "servers", len(f.Servers))
}

// unjoin lists the errors of an errors.Join, or err alone.
func unjoin(err error) []error {
	if err == nil {
		return nil
	}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		return j.Unwrap()
	}
	return []error{err}
}
