package config

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestStoreDecodesAndExpands(t *testing.T) {
	const doc = `servers: [{name: a, command: x}]
store:
  backend: redis
  redis: {url: "redis://app:${REDIS_PASSWORD}@127.0.0.1:6390/2", key_prefix: "team-a:"}
`
	vars := map[string]string{"REDIS_PASSWORD": "s3cret"}
	f, err := load([]byte(doc), "yaml", "", func() []string { return nil },
		func(n string) (string, bool) { v, ok := vars[n]; return v, ok }, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := Store{Backend: StoreRedis, Redis: Redis{URL: "redis://app:s3cret@127.0.0.1:6390/2", KeyPrefix: "team-a:", Timeout: DefaultRedisTimeout}}
	if diff := cmp.Diff(want, f.Store); diff != "" {
		t.Errorf("store (-want +got):\n%s", diff)
	}
	if got := f.Redacted().Store.Redis.URL; strings.Contains(got, "s3cret") {
		t.Errorf("Redacted keeps the password: %s", got)
	}
	if f.Store.Redis.URL != want.Redis.URL {
		t.Error("Redacted changed the original")
	}
}

func TestStoreDefaultsToMemory(t *testing.T) {
	f, err := load([]byte("servers: [{name: a, command: x}]\n"), "yaml", "", func() []string { return nil }, noVars, nil)
	if err != nil {
		t.Fatal(err)
	}
	if f.Store.Backend != "" || f.Store.Redis != (Redis{}) {
		t.Errorf("store = %+v, want the zero value (memory)", f.Store)
	}
}

func TestStoreEnvOverride(t *testing.T) {
	f, err := load([]byte("servers: [{name: a, command: x}]\n"), "yaml", "", func() []string {
		return []string{"MCPFLEET_STORE__BACKEND=redis", "MCPFLEET_STORE__REDIS__URL=redis://127.0.0.1:6379"}
	}, noVars, nil)
	if err != nil {
		t.Fatal(err)
	}
	if f.Store.Backend != StoreRedis || f.Store.Redis.URL != "redis://127.0.0.1:6379" || f.Store.Redis.KeyPrefix != DefaultRedisKeyPrefix {
		t.Errorf("store = %+v", f.Store)
	}
}

// TestStoreProblems: each bad store setting is a load error naming the
// field, and no problem text carries the password.
func TestStoreProblems(t *testing.T) {
	const srv = "servers: [{name: a, command: x}]\n"
	tests := []struct {
		name, doc string
		want      []string
	}{
		{"unknown backend", srv + "store: {backend: rediss}\n",
			[]string{`store: backend: got "rediss", want one of memory, redis (did you mean "redis"?)`}},
		{"redis without url", srv + "store: {backend: redis}\n",
			[]string{`store.redis: url: want a redis:// or rediss:// URL, since backend is redis`}},
		{"malformed url", srv + "store: {backend: redis, redis: {url: 'http://u:hunter2@host:6379'}}\n",
			[]string{`store.redis: url: got "http://host:6379", want a URL like redis://[user:password@]host:port[/db] (scheme redis or rediss)`}},
		{"unparsable url", srv + "store: {backend: redis, redis: {url: 'redis://u:hunter2@[::1'}}\n",
			[]string{`store.redis: url: got "(unparsable URL)", want a URL like redis://[user:password@]host:port[/db]`}},
		{"url missing ://", srv + "store: {backend: redis, redis: {url: 'redis:app:hunter2@host:6379'}}\n",
			[]string{`store.redis: url: got "…@host:6379", want a URL like redis://[user:password@]host:port[/db] (a host is missing)`}},
		{"url without host", srv + "store: {backend: redis, redis: {url: 'redis://:hunter2@:6379'}}\n",
			[]string{`store.redis: url: got "redis://:6379", want a URL like redis://[user:password@]host:port[/db] (a host is missing)`}},
		{"bad db", srv + "store: {backend: redis, redis: {url: 'redis://h:6379/cache'}}\n",
			[]string{`store.redis: url: got "redis://h:6379/cache", want a URL like redis://[user:password@]host:port[/db] (the path is a database number)`}},
		{"prefix with spaces", srv + "store: {backend: redis, redis: {url: 'redis://h:6379', key_prefix: 'team a:'}}\n",
			[]string{`store.redis: key_prefix: got "team a:", want a prefix without spaces, e.g. "team-a:"`}},
		{"zero ttl", srv + "result_store: {ttl: 0s}\n",
			[]string{`result_store: ttl: got "0s", want a duration > 0 (leave it out for 1h)`}},
		{"negative ttl", srv + "result_store: {ttl: -5m}\n",
			[]string{`result_store: ttl: got "-5m0s", want a duration > 0 (leave it out for 1h)`}},
		{"zero timeout", srv + "store: {backend: redis, redis: {url: 'redis://h:6379', timeout: 0}}\n",
			[]string{`store.redis: timeout: got "0", want a duration > 0 (leave it out for 2s)`}},
		{"unknown key", srv + "store: {backend: redis, redis: {url: 'redis://h:6379', prefix: x}}\n",
			[]string{`store.redis: key: got "prefix", want one of key_prefix, timeout, url`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := load([]byte(tt.doc), "yaml", "", func() []string { return nil }, noVars, nil)
			got := problemsOf(t, err)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("problems (-want +got):\n%s", diff)
			}
			if strings.Contains(err.Error(), "hunter2") {
				t.Errorf("the error shows the password: %v", err)
			}
		})
	}
}

func TestRedisRedactedURL(t *testing.T) {
	r := Redis{URL: "redis://app:pw@h:6379/0", Timeout: time.Second}
	if got := r.RedactedURL(); got != "redis://app:xxxxx@h:6379/0" {
		t.Errorf("RedactedURL = %q", got)
	}
}
