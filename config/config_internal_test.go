package config

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func mergeFleet() *Fleet {
	return &Fleet{
		Servers: []Server{
			{Name: "k8s-1", Kind: "kubernetes", ArgsTransformer: []string{"dropUnknown", "camelCase"},
				FieldMap: map[string]string{"pod": "podName", "ns": "namespace"}, JoinSeparator: ";"},
			{Name: "k8s-2", Kind: "kubernetes"},
			{Name: "solo", Env: map[string]string{"TOKEN": "s3cret"}, Headers: map[string]string{"Authorization": "Bearer s3cret"},
				URL: "https://user:pw@h/mcp", Args: []string{"a"}},
		},
		KindSettings: map[string]KindSettings{
			"kubernetes": {ArgsTransformer: []string{"camelCase", "singularResourceType"},
				FieldMap: map[string]string{"pod": "name", "podName": "name"}, JoinSeparator: ","},
		},
	}
}

func TestMergeRules(t *testing.T) {
	f := mergeFleet()
	type merged struct {
		Transformers []string
		FieldMap     map[string]string
		Separator    string
	}
	tests := []struct {
		server string
		want   merged
	}{
		{"k8s-1", merged{
			[]string{"camelCase", "singularResourceType", "dropUnknown"},
			map[string]string{"pod": "podName", "podName": "name", "ns": "namespace"},
			";"}},
		{"k8s-2", merged{
			[]string{"camelCase", "singularResourceType"},
			map[string]string{"pod": "name", "podName": "name"},
			","}},
		{"solo", merged{nil, nil, " "}},
		{"missing", merged{nil, nil, " "}},
	}
	for _, tt := range tests {
		t.Run(tt.server, func(t *testing.T) {
			got := merged{f.Transformers(tt.server), f.FieldMap(tt.server), f.Separator(tt.server)}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
	// The merged map is fresh: changing it must not change the config.
	f.FieldMap("k8s-1")["pod"] = "changed"
	if f.Servers[0].FieldMap["pod"] != "podName" || f.KindSettings["kubernetes"].FieldMap["pod"] != "name" {
		t.Error("FieldMap returned a map shared with the fleet")
	}
}

func TestServerAndKind(t *testing.T) {
	f := mergeFleet()
	s, ok := f.Server("solo")
	if !ok || s.KindName() != "solo" {
		t.Errorf("Server(solo) = %v, %v; KindName %q, want solo", s.Name, ok, s.KindName())
	}
	if s, _ := f.Server("k8s-2"); s.KindName() != "kubernetes" {
		t.Errorf("KindName = %q, want kubernetes", s.KindName())
	}
	if _, ok := f.Server("nope"); ok {
		t.Error("Server(nope) found a server")
	}
	if diff := cmp.Diff(KindSettings{}, f.Settings("gitlab")); diff != "" {
		t.Errorf("Settings(absent) (-want +got):\n%s", diff)
	}
	if f.OffloadTokens("kubernetes") != DefaultOffloadTokens {
		t.Errorf("OffloadTokens default = %d", f.OffloadTokens("kubernetes"))
	}
}

func TestRedacted(t *testing.T) {
	f := mergeFleet()
	r := f.Redacted()
	want := mergeFleet()
	want.Servers[2].Env = map[string]string{"TOKEN": "[redacted]"}
	want.Servers[2].Headers = map[string]string{"Authorization": "[redacted]"}
	want.Servers[2].URL = "https://user:xxxxx@h/mcp"
	if diff := cmp.Diff(want, r); diff != "" {
		t.Errorf("Redacted (-want +got):\n%s", diff)
	}
	// A deep copy: editing it leaves the original alone.
	r.Servers[2].Args[0] = "changed"
	r.KindSettings["kubernetes"].FieldMap["pod"] = "changed"
	if diff := cmp.Diff(mergeFleet(), f); diff != "" {
		t.Errorf("original changed (-want +got):\n%s", diff)
	}
}

func TestBuiltinTransformersIsFresh(t *testing.T) {
	a := BuiltinTransformers()
	a[0] = "changed"
	if BuiltinTransformers()[0] != "camelCase" {
		t.Error("BuiltinTransformers shares its slice")
	}
}

func ptr[T any](v T) *T { return &v }

func TestReliabilityKeysDecode(t *testing.T) {
	const yamlDoc = `servers:
  - {name: a, command: x}
  - {name: b, command: y, max_in_flight: 2}
neutralize: false
reliability:
  queue_timeout: 2s
  max_in_flight: 4
  health_interval: 1m
  health_probes: false
  breaker: {enabled: true, failures: 2, cooldown: 500ms}
result_store: {max_bytes: 1048576, ttl: 10m}
`
	const jsonDoc = `{"servers": [{"name": "a", "command": "x"}, {"name": "b", "command": "y", "max_in_flight": 2}],
 "neutralize": false,
 "reliability": {"queue_timeout": "2s", "max_in_flight": 4, "health_interval": "1m", "health_probes": false,
   "breaker": {"enabled": true, "failures": 2, "cooldown": "500ms"}},
 "result_store": {"max_bytes": 1048576, "ttl": "10m"}}`
	type view struct {
		Neutralize  bool
		Reliability Reliability
		ResultStore ResultStore
		InFlight    [2]int
	}
	want := view{
		Neutralize: false,
		Reliability: Reliability{QueueTimeout: 2 * time.Second, MaxInFlight: 4, HealthInterval: time.Minute,
			HealthProbes: ptr(false), Breaker: Breaker{Enabled: ptr(true), Failures: 2, Cooldown: 500 * time.Millisecond}},
		ResultStore: ResultStore{MaxBytes: 1 << 20, TTL: 10 * time.Minute},
		// The fleet-wide max_in_flight fills a, but b keeps its own.
		InFlight: [2]int{4, 2},
	}
	for _, tc := range []struct{ format, doc string }{{"yaml", yamlDoc}, {"json", jsonDoc}} {
		t.Run(tc.format, func(t *testing.T) {
			f, err := LoadBytesWith([]byte(tc.doc), tc.format, "", LoadOptions{Environ: []string{}})
			if err != nil {
				t.Fatal(err)
			}
			a, _ := f.Server("a")
			b, _ := f.Server("b")
			got := view{f.NeutralizeOn(), f.Reliability, f.ResultStore, [2]int{a.MaxInFlight, b.MaxInFlight}}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestReliabilityDefaultsAreZero(t *testing.T) {
	f, err := loadYAML(t, "servers:\n  - {name: a, command: x}\n")
	if err != nil {
		t.Fatal(err)
	}
	a, _ := f.Server("a")
	got := []any{f.NeutralizeOn(), f.Reliability, f.ResultStore, a.MaxInFlight}
	want := []any{true, Reliability{}, ResultStore{}, DefaultMaxInFlight}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestReliabilityEnvOverrides(t *testing.T) {
	tests := []struct {
		name    string
		environ []string
		get     func(*Fleet) any
		want    any
	}{
		{"neutralize", []string{"MCPFLEET_NEUTRALIZE=false"},
			func(f *Fleet) any { return f.NeutralizeOn() }, false},
		{"queue_timeout", []string{"MCPFLEET_RELIABILITY__QUEUE_TIMEOUT=250ms"},
			func(f *Fleet) any { return f.Reliability.QueueTimeout }, 250 * time.Millisecond},
		{"breaker nested keys", []string{"MCPFLEET_RELIABILITY__BREAKER__FAILURES=3", "MCPFLEET_RELIABILITY__BREAKER__ENABLED=0"},
			func(f *Fleet) any { return f.Reliability.Breaker }, Breaker{Enabled: ptr(false), Failures: 3}},
		{"result store", []string{"MCPFLEET_RESULT_STORE__TTL=5m", "MCPFLEET_RESULT_STORE__MAX_BYTES=4096"},
			func(f *Fleet) any { return f.ResultStore }, ResultStore{MaxBytes: 4096, TTL: 5 * time.Minute}},
		{"fleet max_in_flight fills servers", []string{"MCPFLEET_RELIABILITY__MAX_IN_FLIGHT=7"},
			func(f *Fleet) any { s, _ := f.Server("k8s-1"); return s.MaxInFlight }, 7},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := loadWithEnv(t, envBase, tt.environ...)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, tt.get(f)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestReliabilityProblems(t *testing.T) {
	const srv = "servers:\n  - {name: a, command: x}\n"
	tests := []struct {
		name    string
		doc     string
		environ []string
		want    []string
	}{
		{name: "negative durations and counts", doc: srv + `reliability:
  queue_timeout: -1s
  max_in_flight: -2
  health_interval: -5m
  breaker: {failures: -1, cooldown: -30s}
result_store: {max_bytes: -1, ttl: -1h}
`, want: []string{
			`reliability: queue_timeout: got "-1s", want a duration >= 0 (0 means 10s)`,
			`reliability: max_in_flight: got "-2", want a number >= 0 (0 means 16)`,
			`reliability: health_interval: got "-5m0s", want a duration >= 0 (0 means 30s)`,
			`reliability.breaker: failures: got "-1", want a number >= 0 (0 means 5)`,
			`reliability.breaker: cooldown: got "-30s", want a duration >= 0 (0 means 30s)`,
			`result_store: max_bytes: got "-1", want a number >= 0 (0 means 256 MiB)`,
			`result_store: ttl: got "-1h0m0s", want a duration > 0 (leave it out for 1h)`,
		}},
		{name: "unknown keys suggest the nearest", doc: srv + `reliability:
  queue_timout: 1s
  breaker: {failure: 2}
result_store: {max_items: 10}
neutralise: false
`, want: []string{
			`key: got "neutralise", want one of audit, cache, deferred_tools, kind_settings, lock_file, neutralize, pinning, presets, rate_limits, reliability, request_limits, result_store, search, servers, start, store, telemetry (did you mean "neutralize"?)`,
			`reliability.breaker: key: got "failure", want one of cooldown, enabled, failures (did you mean "failures"?)`,
			`reliability: key: got "queue_timout", want one of breaker, health_interval, health_probes, max_in_flight, max_result_bytes, queue_timeout (did you mean "queue_timeout"?)`,
			`result_store: key: got "max_items", want one of max_bytes, spill, ttl (did you mean "max_bytes"?)`,
		}},
		{name: "wrong types", doc: srv + `neutralize: maybe
reliability:
  queue_timeout: 30
  health_probes: [yes]
  breaker: 3
`, want: []string{
			`neutralize: got "maybe", want true or false`,
			`reliability: breaker: want a map, got a number`,
			`reliability: health_probes: want true or false, got a list`,
			`reliability: queue_timeout: got "30", want a duration with a unit, like 30s or 2m`,
		}},
		{name: "bad env overrides", doc: srv, environ: []string{
			"MCPFLEET_RELIABILITY=x",
			"MCPFLEET_RELIABILITY__BREAKER=3",
			"MCPFLEET_RELIABILITY__BREAKER__FAILURS=3",
			"MCPFLEET_RESULT_STORE__TTL=-1m",
			"MCPFLEET_NEUTRALIZE=nope",
		}, want: []string{
			`MCPFLEET_RELIABILITY: want a key after RELIABILITY__, e.g. MCPFLEET_RELIABILITY__QUEUE_TIMEOUT`,
			`MCPFLEET_RELIABILITY__BREAKER: want a key after BREAKER__, one of cooldown, enabled, failures`,
			`MCPFLEET_RELIABILITY__BREAKER__FAILURS: got "FAILURS", want one of cooldown, enabled, failures (did you mean "failures"?)`,
			`neutralize: got "nope", want true or false`,
			`result_store: ttl: got "-1m0s", want a duration > 0 (leave it out for 1h)`,
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := load([]byte(tt.doc), "yaml", "", func() []string { return tt.environ }, noVars, nil)
			got := problemsOf(t, err)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("problems (-want +got):\n%s", diff)
			}
		})
	}
}

func TestRedactedCopiesSwitches(t *testing.T) {
	f := &Fleet{Neutralize: ptr(false)}
	r := f.Redacted()
	*r.Neutralize = true
	if f.NeutralizeOn() {
		t.Error("changing the redacted copy's neutralize changed the original")
	}
}

// result_store.spill decodes from the file and the environment, its
// folder resolves against the fleet file's, and each bad value is a
// problem naming the field and the nearest valid value.
func TestSpillKeys(t *testing.T) {
	const srv = "servers:\n  - {name: a, command: x}\n"
	vars := func(k string) (string, bool) { return "/var/cache", k == "CACHE" }
	load1 := func(doc string, environ ...string) (*Fleet, error) {
		return load([]byte(srv+doc), "yaml", "/etc/fleet", func() []string { return environ }, vars, nil)
	}
	for _, tt := range []struct {
		name, doc string
		environ   []string
		want      Spill
	}{
		{"absent", "", nil, Spill{}},
		{"all keys", "result_store: {spill: {enabled: false, min_bytes: 2097152, dir: spill, max_bytes: 4294967296}}\n", nil,
			Spill{Enabled: ptr(false), MinBytes: 2 << 20, Dir: "/etc/fleet/spill", MaxBytes: 4 << 30}},
		{"dir expands", "result_store: {spill: {dir: '${CACHE}/mcpfleet'}}\n", nil, Spill{Dir: "/var/cache/mcpfleet"}},
		{"env", "", []string{"MCPFLEET_RESULT_STORE__SPILL__MIN_BYTES=131072", "MCPFLEET_RESULT_STORE__SPILL__DIR=/tmp/x"},
			Spill{MinBytes: 128 << 10, Dir: "/tmp/x"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f, err := load1(tt.doc, tt.environ...)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, f.ResultStore.Spill); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
	if on := (Spill{}).On(); !on {
		t.Error("Spill{}.On() = false; want spilling on by default")
	}
	for _, tt := range []struct {
		name, doc string
		want      []string
	}{
		{"negative", "result_store: {spill: {min_bytes: -1, max_bytes: -1}}\n", []string{
			`result_store.spill: min_bytes: got "-1", want a number >= 0 (0 means 1 MiB)`,
			`result_store.spill: max_bytes: got "-1", want a number >= 0 (0 means 1 GiB)`,
		}},
		{"too small", "result_store: {spill: {min_bytes: 4096}}\n", []string{
			`result_store.spill: min_bytes: got "4096", want at least 65536 (64 KiB; 0 means 1 MiB)`,
		}},
		{"budget under the threshold", "result_store: {spill: {max_bytes: 1000}}\n", []string{
			`result_store.spill: max_bytes: got "1000", want at least min_bytes, 1048576, or no result could spill`,
		}},
		{"unknown key", "result_store: {spill: {max_byte: 1}}\n", []string{
			`result_store.spill: key: got "max_byte", want one of dir, enabled, max_bytes, min_bytes (did you mean "max_bytes"?)`,
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := load1(tt.doc)
			if diff := cmp.Diff(tt.want, problemsOf(t, err)); diff != "" {
				t.Errorf("problems (-want +got):\n%s", diff)
			}
		})
	}
}
