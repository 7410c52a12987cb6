package config

import "strings"

// Start modes, the values of the start key (fleet-wide and per server).
const (
	// StartEager connects the server in New, which returns once it has
	// listed its tools (or failed). The default.
	StartEager = "eager"
	// StartLazy serves the server's tools from the tool cache and starts
	// it on its first call; that call waits for it.
	StartLazy = "lazy"
	// StartBackground serves the server's tools from the tool cache and
	// starts it at once, without New waiting for it.
	StartBackground = "background"
)

// StartModes returns the accepted start values, in the order messages list
// them, in a fresh slice.
func StartModes() []string { return []string{StartEager, StartLazy, StartBackground} }

// StartMode is how server s starts: its own start key, else the
// fleet-wide one, else [StartEager].
func (f *Fleet) StartMode(s Server) string {
	switch {
	case s.Start != "":
		return s.Start
	case f.Start != "":
		return f.Start
	}
	return StartEager
}

// validateStart checks the fleet-wide and per-server start keys.
func (f *Fleet) validateStart(add func(Problem)) {
	check := func(loc, v string) {
		if v != "" && !isStartMode(v) {
			add(Problem{Server: loc, Field: "start", Value: v,
				Want: "one of " + strings.Join(StartModes(), ", "), Hint: suggest(v, StartModes())})
		}
	}
	check("", f.Start)
	for i, s := range f.Servers {
		check(serverLoc(i, s.Name), s.Start)
	}
}

func isStartMode(v string) bool {
	for _, m := range StartModes() {
		if v == m {
			return true
		}
	}
	return false
}
