package config

import (
	"errors"
	"strings"
	"testing"
)

// FuzzLoadBytes checks that no input panics and that every failure is a
// *ValidationError or a *ParseError naming the format.
func FuzzLoadBytes(f *testing.F) {
	f.Add([]byte(exampleYAML), false)
	f.Add([]byte(exampleJSON), true)
	f.Add([]byte(envBase), false)
	f.Add([]byte("servers:\n  - {name: A, transport: htp, call_timeout: 30, env: [x]}\nkind_settings: {x: [1]}\n"), false)
	f.Add([]byte(`{"servers": [{"name": 1, "max_in_flight": 1e300, "args": [{}]}], "kind_settings": null}`), true)
	f.Add([]byte("servers: [{name: a, command: '${X:-${Y}}', args: ['$${'], headers: {'': x}}]"), false)
	f.Add([]byte("servers: [{name: a, command: x}]\nneutralize: no\nreliability: {breaker: {enabled: 1, cooldown: -1s}, max_in_flight: -3}\nresult_store: [1]\n"), false)
	f.Add([]byte("servers: [{name: a, command: x}]\ncache: {kinds: {a: {ttl: 0s, tools: [1, '']}, b: 3}}\nrate_limits: {on_store_error: shut, kinds: {a: {calls_per_minute: -1, per: kinds}, a2: [x]}}\n"), false)
	f.Add([]byte(`{"servers": [{"name": "a", "command": "x"}], "cache": {"kinds": {"a": {"ttl": "30s"}}}, "rate_limits": {"kinds": {"a": {"calls_per_minute": 60, "per": "kind"}}}}`), true)
	f.Add([]byte("servers: [{name: a, command: x}]\nstore: {backend: redis, redis: {url: 'redis://u:p@h:6379/0', key_prefix: 'a b', timeout: 0}}\nresult_store: {ttl: 0}\n"), false)
	f.Add([]byte(`{"servers": [{"name": "a", "command": "x"}], "store": {"backend": "rediss", "redis": {"url": "redis://[::1"}}}`), true)
	environ := func() []string {
		return []string{"MCPFLEET_SERVERS__A__URL=https://x", "MCPFLEET_KIND_SETTINGS__A__FIELD_MAP__x=y", "MCPFLEET_DEFERRED_TOOLS=on",
			"MCPFLEET_RELIABILITY__BREAKER__FAILURES=2", "MCPFLEET_NEUTRALIZE=false"}
	}
	f.Fuzz(func(t *testing.T, data []byte, isJSON bool) {
		format := "yaml"
		if isJSON {
			format = "json"
		}
		fleet, err := load(data, format, "/cfg", environ, fakeVars(map[string]string{"X": "x"}), nil)
		if err == nil {
			if fleet == nil {
				t.Fatal("nil fleet without error")
			}
			if verr := fleet.Validate(nil); verr != nil {
				t.Fatalf("loaded fleet fails Validate: %v", verr)
			}
			_ = fleet.Redacted()
			return
		}
		var verr *ValidationError
		var perr *ParseError
		switch {
		case errors.As(err, &verr):
			if len(verr.Problems) == 0 {
				t.Fatal("ValidationError without problems")
			}
		case errors.As(err, &perr):
			if !strings.Contains(err.Error(), format) {
				t.Fatalf("parse error %q does not mention %s", err, format)
			}
		default:
			t.Fatalf("unexpected error type %T: %v", err, err)
		}
	})
}

// FuzzParseLock: no input panics, every failure is a *LockError with at
// least one problem, and what parses marshals to a lock that parses back
// to the same thing.
func FuzzParseLock(f *testing.F) {
	f.Add([]byte(`{"version":1,"kinds":{"k":{"server":{"name":"s","version":"1"},"tools":{"t":{"sha256":"` + strings.Repeat("a", 64) + `","definition":{"name":"t"}}}}}}`))
	f.Add([]byte("version: 1\nkinds: {k: {tools: {t: {sha256: x}}}}\n"))
	f.Add([]byte(`{"version":1,"kinds":{"k":{"tools":{"t":{"sha256":"` + strings.Repeat("b", 64) + `","judged":{"verdict":"poisoned","evidence":"x"}}}}}}`))
	f.Add([]byte(`{"version": "1", "kinds": [1]}`))
	f.Add([]byte("{}\n{}"))
	f.Add([]byte("- a\n- b"))
	f.Fuzz(func(t *testing.T, data []byte) {
		l, err := ParseLock(data)
		if err != nil {
			var le *LockError
			if !errors.As(err, &le) || len(le.Problems) == 0 {
				t.Fatalf("err %T %v is not a *LockError with problems", err, err)
			}
			return
		}
		again, err := ParseLock(l.Marshal())
		if err != nil {
			t.Fatalf("a parsed lock marshals to one that does not parse: %v\n%s", err, l.Marshal())
		}
		if string(again.Marshal()) != string(l.Marshal()) {
			t.Fatalf("marshal is not stable:\n%s\n%s", l.Marshal(), again.Marshal())
		}
	})
}
